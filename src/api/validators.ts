import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchema } from 'fastify';
import { DECIMAL_INTEGER } from '../domain/integer-text.js';

// Bodies are checked strictly (a string "5" is not an integer); query strings and path
// parameters arrive as text, so they are coerced to the schema's types.
const strict = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false });
const coercing = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false });

type Schema = { type?: unknown; properties?: Record<string, Schema>; anyOf?: Schema[] };

const isInteger = (s: Schema): boolean => s.type === 'integer' || (s.anyOf ?? []).some(isInteger);

/** The properties of an object schema that hold integers. */
const integerKeys = (schema: Schema): string[] =>
  Object.entries(schema.properties ?? {})
    .filter(([, s]) => isInteger(s))
    .map(([key]) => key);

/**
 * Wraps a coercing validator so that integer fields given as text must be decimal digits
 * (DECIMAL_INTEGER, no leading zeros) before Ajv coerces them: Ajv alone would read `0x10`, `1e3`,
 * `+1`, ` 1` and `01`.
 */
function strictIntegers(schema: Schema, validate: ValidateFunction): ValidateFunction {
  const keys = integerKeys(schema);
  if (keys.length === 0) return validate;
  const wrapped = ((data: unknown, ...rest: unknown[]) => {
    const record = (data ?? {}) as Record<string, unknown>;
    const bad = keys.find((k) => typeof record[k] === 'string' && !DECIMAL_INTEGER.test(record[k]));
    if (bad !== undefined) {
      const error: ErrorObject = {
        keyword: 'type',
        instancePath: `/${bad}`,
        schemaPath: `#/properties/${bad}/type`,
        params: { type: 'integer' },
        message: 'must be an integer written in decimal digits without leading zeros',
      };
      wrapped.errors = [error];
      return false;
    }
    const ok = (validate as (...args: unknown[]) => boolean)(data, ...rest);
    wrapped.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  Object.assign(wrapped, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  return wrapped;
}

/** Compiled validators by part and schema text: Fastify hands each app its own schema copies. */
const compiled = new Map<string, ValidateFunction>();

function compileNow(schema: FastifySchema, body: boolean): ValidateFunction {
  return body ? strict.compile(schema as object) : strictIntegers(schema as Schema, coercing.compile(schema as object));
}

/**
 * The validator compiler of the app: strict for bodies, coercing for query, params and
 * headers (integers digits only). Compiled once per schema per process, so building another
 * app (tests build hundreds) compiles nothing, and on the route's first request rather than
 * at start-up (most routes of a process are never called).
 */
export function compileValidator({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }): ValidateFunction {
  const body = httpPart === 'body';
  const key = `${body ? 'strict' : 'coercing'} ${JSON.stringify(schema)}`;
  const done = compiled.get(key);
  if (done !== undefined) return done;
  let validate: ValidateFunction | undefined;
  const lazy = ((data: unknown, ...rest: unknown[]) => {
    if (validate === undefined) {
      validate = compiled.get(key) ?? compileNow(schema, body);
      compiled.set(key, validate);
    }
    const ok = (validate as (...args: unknown[]) => boolean)(data, ...rest);
    lazy.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  // Fastify hands the parent object (so coercion can replace a root value) to a validator with
  // a schemaEnv, as every Ajv validator has.
  Object.assign(lazy, { schema, schemaEnv: true });
  return lazy;
}
