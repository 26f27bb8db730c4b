import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifySchema } from 'fastify';

// Bodies are checked strictly (a string "5" is not an integer); query strings and path
// parameters arrive as text, so they are coerced to the schema's types.
const strict = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false });
const coercing = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false });

/** The validator compiler of the app: strict for bodies, coercing for query, params and headers. */
export function compileValidator({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }): ValidateFunction {
  return (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
