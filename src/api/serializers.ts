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
  const done = compiled.get(text);
  if (done !== undefined) return done;
  // Compiled on the route's first answer, not at start-up: most routes of a process never answer.
  let serialize: Serializer | undefined;
  return (data) => {
    if (serialize === undefined) {
      serialize = compiled.get(text) ?? (fastJson(schema as Parameters<typeof fastJson>[0]) as Serializer);
      compiled.set(text, serialize);
    }
    return serialize(data);
  };
}
