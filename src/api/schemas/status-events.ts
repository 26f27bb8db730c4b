import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';
import { JsonValue } from './json.js';

/** One entry of a run's status timeline. */
export const StatusEvent = Type.Object({
  id: Type.Integer(),
  runId: Type.Integer(),
  fromStatus: Nullable(Type.String()),
  toStatus: Type.String(),
  source: Type.String(),
  metadata: JsonValue,
  createdAt: Type.String(),
  actor: Nullable(
    Type.Object(
      { userId: Type.Integer(), keyId: Nullable(Type.Integer()) },
      { description: 'Who wrote it: the user and the key (null for a password session); null for the server.' },
    ),
  ),
});
export type StatusEvent = Static<typeof StatusEvent>;

/** The answer of GET /api/runs/status/history: the run's transitions, oldest first. */
export const StatusHistory = Type.Object({ runId: Type.Integer(), events: Type.Array(StatusEvent) });
export type StatusHistory = Static<typeof StatusHistory>;
