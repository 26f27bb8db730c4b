import { Type, type Static } from '@sinclair/typebox';

/** Who the credentials act as: the answer of GET /api/runs/auth/validate and POST /api/session. */
export const Session = Type.Object({
  valid: Type.Boolean(),
  organization: Type.Object({ id: Type.String(), slug: Type.String() }),
  user: Type.Object({ id: Type.String() }),
});
export type Session = Static<typeof Session>;

/** The answer of POST /api/slug (the Python client's login check). */
export const SlugAnswer = Type.Object({ organization: Type.Object({ slug: Type.String() }) });
export type SlugAnswer = Static<typeof SlugAnswer>;
