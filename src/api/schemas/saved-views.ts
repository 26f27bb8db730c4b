import { Type, type Static } from '@sinclair/typebox';
import { JsonValue } from './json.js';

/** A saved view as GET /api/views lists it: everything but its state. */
export const SavedViewHead = Type.Object({
  id: Type.Integer(),
  projectName: Type.String(),
  name: Type.String(),
  isDefault: Type.Boolean({ description: 'The view the project page opens with; at most one per project.' }),
  createdBy: Type.Union([Type.String(), Type.Null()], { description: 'The user whose key saved it.' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type SavedViewHead = Static<typeof SavedViewHead>;

/** A saved view with its state: the answer of GET, POST and PATCH /api/views. */
export const SavedView = Type.Composite([
  SavedViewHead,
  Type.Object({ state: Type.Unsafe({ ...JsonValue, description: 'The JSON object the client saved.' }) }),
]);
export type SavedView = Static<typeof SavedView>;

/** The answer of GET /api/views?projectName=: default first, then by name. */
export const SavedViewList = Type.Object({ projectName: Type.String(), views: Type.Array(SavedViewHead) });
export type SavedViewList = Static<typeof SavedViewList>;
