import { Type, type Static } from '@sinclair/typebox';

/** An alert rule of a project. */
export const AlertRule = Type.Object({
  id: Type.Integer(),
  projectName: Type.String(),
  logName: Type.String(),
  kind: Type.String({ description: '`above`, `below`, `non_finite` or `no_improvement`.' }),
  threshold: Type.Union([Type.Number(), Type.Null()]),
  steps: Type.Union([Type.Integer(), Type.Null()]),
  goal: Type.Union([Type.String(), Type.Null()], { description: '`min` or `max` (no_improvement only).' }),
  description: Type.String({ description: 'The rule in a few words, e.g. `val/loss > 5`.' }),
  createdAt: Type.String(),
});
export type AlertRule = Static<typeof AlertRule>;

/** The answer of GET /api/alert-rules: oldest first, at most 100. */
export const AlertRuleList = Type.Object({ projectName: Type.String(), rules: Type.Array(AlertRule) });
export type AlertRuleList = Static<typeof AlertRuleList>;
