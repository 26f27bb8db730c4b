/** Alert rules of projects and their firing state per run. */
import type { AlertRule, AlertRuleKind, NewAlertRule } from '../../../domain/alert-rules.js';
import type { SqlDb } from '../db.js';
import { appendEventInTx, eventRunInTx } from './append-event.js';

interface RuleRow {
  id: number;
  org_id: number;
  project_id: number;
  log_name: string;
  kind: string;
  threshold: number | null;
  steps: number | null;
  goal: string | null;
  created_at: number;
}

const COLUMNS = 'id, org_id, project_id, log_name, kind, threshold, steps, goal, created_at';

function toRule(r: RuleRow): AlertRule {
  return {
    id: Number(r.id),
    orgId: Number(r.org_id),
    projectId: Number(r.project_id),
    logName: r.log_name,
    kind: r.kind as AlertRuleKind,
    threshold: r.threshold === null ? null : Number(r.threshold),
    steps: r.steps === null ? null : Number(r.steps),
    goal: r.goal as AlertRule['goal'],
    createdAt: Number(r.created_at),
  };
}

/** Stores a rule; returns its id. */
export async function createAlertRule(db: SqlDb, r: NewAlertRule): Promise<number> {
  const row = await db.transaction((tx) =>
    tx.get<{ id: number }>(
      `INSERT INTO alert_rules (org_id, project_id, log_name, kind, threshold, steps, goal, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [r.orgId, r.projectId, r.logName, r.kind, r.threshold, r.steps, r.goal, r.createdBy, r.at],
    ),
  );
  return Number(row!.id);
}

/** A project's rules, oldest first, at most `limit`. */
export async function listAlertRules(db: SqlDb, projectId: number, limit: number): Promise<AlertRule[]> {
  const rows = await db.all<RuleRow>(`SELECT ${COLUMNS} FROM alert_rules WHERE project_id = ? ORDER BY id LIMIT ?`, [
    projectId,
    limit,
  ]);
  return rows.map(toRule);
}

/** Deletes a rule of the organization with its states; false when there is none. */
export function deleteAlertRule(db: SqlDb, orgId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await tx.get('SELECT id FROM alert_rules WHERE id = ? AND org_id = ?', [id, orgId]))) return false;
    await tx.run('DELETE FROM alert_rule_states WHERE rule_id = ?', [id]);
    await tx.run('DELETE FROM alert_rules WHERE id = ?', [id]);
    return true;
  });
}

/** What triggerAlertRule records. */
export interface RuleTrigger {
  rule: AlertRule;
  runId: number;
  title: string;
  text: string;
  step: number;
  value: number;
  /** Whether the rule still holds at the batch's end (the state kept for the next crossing). */
  firingAfter: boolean;
  at: number;
}

/**
 * Records a crossing once: only when the run's state of the rule is not firing (one
 * conditional write, so servers checking the same run at once record it once), the state
 * set to `firingAfter`, an alert on the run (level WARN) and an `alert_rule.triggered`
 * event, in one transaction. Returns whether it recorded it.
 */
export function triggerAlertRule(db: SqlDb, t: RuleTrigger): Promise<boolean> {
  return db.transaction(async (tx) => {
    const firing = t.firingAfter ? 1 : 0;
    const changed = await tx.run(
      `INSERT INTO alert_rule_states (rule_id, run_id, firing) VALUES (?, ?, ?)
       ON CONFLICT (rule_id, run_id) DO UPDATE SET firing = ? WHERE alert_rule_states.firing = 0`,
      [t.rule.id, t.runId, firing, firing],
    );
    if (changed === 0) return false;
    const found = await eventRunInTx(tx, t.runId);
    if (!found) return false;
    const { orgId, projectId, ...run } = found;
    const payload = { ruleId: t.rule.id, logName: t.rule.logName, step: t.step, value: String(t.value) };
    await tx.run(
      'INSERT INTO alerts (run_id, level, title, body, payload, alert_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [t.runId, 'WARN', t.title, t.text, JSON.stringify(payload), t.at, t.at],
    );
    await appendEventInTx(tx, {
      orgId,
      projectId,
      runId: t.runId,
      type: 'alert_rule.triggered',
      data: {
        run,
        rule: { id: t.rule.id, kind: t.rule.kind, logName: t.rule.logName },
        title: t.title,
        text: t.text,
        step: t.step,
        value: String(t.value),
      },
      at: t.at,
    });
    return true;
  });
}

/** Marks the run's state of the rule not firing (its condition stopped holding). */
export async function resetAlertRule(db: SqlDb, ruleId: number, runId: number): Promise<void> {
  await db.run('UPDATE alert_rule_states SET firing = 0 WHERE rule_id = ? AND run_id = ? AND firing = 1', [
    ruleId,
    runId,
  ]);
}
