import { type TSchema, Type } from '@sinclair/typebox';

/** An optional field that also accepts an explicit null as "absent" (the Python client sends nulls). */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A run id in a body, path or query string. */
export const RunId = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** A step: a non-negative integer. */
export const Step = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** A project name. */
export const ProjectName = Type.String({ minLength: 1, maxLength: 256 });

/**
 * The query parameters that narrow a run search to some of a project's runs (docs/api.md §9),
 * taken by GET /api/runs/list and GET /api/runs/leaderboard; spread into a querystring object.
 */
export const RunNarrowingQuery = {
  search: Type.Optional(Type.String({ maxLength: 256 })),
  tags: Type.Optional(Type.String({ maxLength: 30_000 })),
  status: Type.Optional(Type.String({ maxLength: 256 })),
  filter: Type.Optional(Type.String({ maxLength: 20_000 })),
};

/** Tags: at most 100, each 1 to 256 characters. */
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 });

/** A query string integer parameter within bounds (the query is coerced from text). */
export const QueryInt = (min: number, max: number, defaultValue?: number) =>
  Type.Integer({ minimum: min, maximum: max, ...(defaultValue === undefined ? {} : { default: defaultValue }) });

/** A string that must be one of the given values (error lists them). */
export const StringEnum = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ ...options, type: 'string', enum: [...values] });
