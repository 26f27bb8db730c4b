import { Type, type Static } from '@sinclair/typebox';

/** The `{success: true}` answer of the update endpoints. */
export const Success = Type.Object({ success: Type.Boolean() });
export type Success = Static<typeof Success>;

/** The `{status}` answer of GET /api/health, POST /api/runs/trigger and POST /api/runs/alert. */
export const StatusAnswer = Type.Object({ status: Type.String() });
export type StatusAnswer = Static<typeof StatusAnswer>;

/** The answer of POST /ingest/{metrics,logs,data}: how many lines were stored. */
export const Accepted = Type.Object({ success: Type.Boolean(), count: Type.Integer() });
export type Accepted = Static<typeof Accepted>;

/** The `{error, code}` answer of a refused request (docs/api.md §1.6). */
export const ErrorAnswer = Type.Object({ error: Type.String(), code: Type.String() });
export type ErrorAnswer = Static<typeof ErrorAnswer>;
