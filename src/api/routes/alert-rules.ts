import { Type } from '@sinclair/typebox';
import { ALERT_RULE_KINDS, describeRule, type AlertRule as Rule } from '../../domain/alert-rules.js';
import { iso } from '../../domain/iso.js';
import { createAlertRule, deleteAlertRule, listAlertRules } from '../../events/alert-rules.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectName, StringEnum } from '../schema-helpers.js';
import { AlertRule, AlertRuleList } from '../schemas/alert-rules.js';

const ruleView = (r: Rule, projectName: string): AlertRule => ({
  id: r.id,
  projectName,
  logName: r.logName,
  kind: r.kind,
  threshold: r.threshold,
  steps: r.steps,
  goal: r.goal,
  description: describeRule(r),
  createdAt: iso(r.createdAt),
});

/**
 * Alert rules of a project (docs/api.md §15): GET and POST /api/alert-rules, DELETE
 * /api/alert-rules/{ruleId}. A rule is checked as points arrive; a crossing records an
 * alert on the run and an `alert_rule.triggered` event, once per crossing.
 */
export function registerAlertRuleRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/alert-rules',
    {
      config: { role: 'viewer' },
      schema: {
        description: 'The alert rules of a project, oldest first (at most 100).',
        querystring: Type.Object({ projectName: ProjectName }),
        response: { 200: AlertRuleList },
      },
    },
    async (request) => {
      const { projectName } = request.query;
      const rules = await listAlertRules(ctxOf(deps, request), projectName);
      return { projectName, rules: rules.map((r) => ruleView(r, projectName)) };
    },
  );

  app.post(
    '/api/alert-rules',
    {
      config: { role: 'admin' },
      schema: {
        description:
          'Adds a rule to an existing project: `above`/`below` a finite `threshold`, `non_finite`, or ' +
          '`no_improvement` for `steps` steps (`goal` min or max, min by default). At most 100 per project.',
        body: Type.Object({
          projectName: ProjectName,
          logName: Type.String({ minLength: 1, maxLength: 1024 }),
          kind: StringEnum(ALERT_RULE_KINDS),
          threshold: Type.Optional(Type.Number()),
          steps: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
          goal: Type.Optional(StringEnum(['min', 'max'] as const)),
        }),
        response: { 200: AlertRule },
      },
    },
    async (request) => {
      const rule = await createAlertRule(ctxOf(deps, request), request.body);
      return ruleView(rule, rule.projectName);
    },
  );

  app.delete(
    '/api/alert-rules/:ruleId',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Deletes an alert rule.',
        params: Type.Object({ ruleId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteAlertRule(ctxOf(deps, request), request.params.ruleId);
      return reply.status(204).send(null);
    },
  );
}
