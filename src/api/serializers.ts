import fastJson from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

/** Compiled serializers by the JSON text of their schema (schemas are module constants). */
const compiled = new Map<string, Serializer>();

/**
 * The app's response serializer compiler: fast-json-stringify, as Fastify's default, but
 * compiled once per schema per process rather than once per route per app, so building a
 * second app (tests build hundreds) costs no schema compilation.
 */
export function compileSerializer({ schema }: { schema: unknown }): Serializer {
  const text = JSON.stringify(schema);
  let serialize = compiled.get(text);
  if (serialize === undefined) {
    serialize = fastJson(schema as Parameters<typeof fastJson>[0]) as Serializer;
    compiled.set(text, serialize);
  }
  return serialize;
}
