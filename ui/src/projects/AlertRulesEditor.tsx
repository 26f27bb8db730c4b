import { useState, type FormEvent } from 'react';
import { useAlertRules, useAlertRuleWrites, type AlertRuleFields } from '../api/alert-rule-queries';
import { AdminOnlyNotice } from '../components/AdminOnlyNotice';
import { ErrorState, Loading } from '../components/States';
import { useAdminRole } from '../people/useAdminRole';

type Kind = AlertRuleFields['kind'];

/**
 * A project's alert rules: each in a few words with Delete, and a form that adds one (a
 * metric above or below a threshold, not finite, or without a new best for N steps). Roles
 * below admin, which may read the rules but not change them, get the list and a notice.
 */
export function AlertRulesEditor({ project }: { project: string }) {
  const rules = useAlertRules(project);
  const { admin } = useAdminRole();
  const { remove } = useAlertRuleWrites(project);
  return (
    <section className="alert-rules" aria-label="Alert rules">
      {rules.isPending && <Loading />}
      {rules.isError && <ErrorState error={rules.error} />}
      {rules.data?.length === 0 && (
        <p className="muted">{admin ? 'No alert rules: add one below.' : 'No alert rules.'}</p>
      )}
      <ul>
        {rules.data?.map((rule) => (
          <li key={rule.id}>
            <code>{rule.description}</code>{' '}
            {admin && (
              <button
                type="button"
                className="secondary"
                aria-label={`Delete rule ${rule.description}`}
                onClick={() => remove.mutate(rule.id)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {admin ? <RuleForm project={project} /> : <AdminOnlyNotice action="change alert rules" />}
    </section>
  );
}

/** The form that adds a rule, with the API's refusal as an alert. */
function RuleForm({ project }: { project: string }) {
  const { add } = useAlertRuleWrites(project);
  const [logName, setLogName] = useState('');
  const [kind, setKind] = useState<Kind>('above');
  const [number, setNumber] = useState('');
  const [goal, setGoal] = useState<'min' | 'max'>('min');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = Number(number);
    const fields: AlertRuleFields =
      kind === 'above' || kind === 'below'
        ? { logName, kind, threshold: value }
        : kind === 'no_improvement'
          ? { logName, kind, steps: value, goal }
          : { logName, kind };
    add.mutate(fields, { onSuccess: () => (setLogName(''), setNumber('')) });
  };
  return (
    <>
      <form onSubmit={submit} className="alert-rule-form">
        <label>
          Metric
          <input required value={logName} onChange={(e) => setLogName(e.target.value)} placeholder="val/loss" />
        </label>
        <label>
          Condition
          <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            <option value="above">above</option>
            <option value="below">below</option>
            <option value="non_finite">not finite</option>
            <option value="no_improvement">no improvement</option>
          </select>
        </label>
        {kind !== 'non_finite' && (
          <label>
            {kind === 'no_improvement' ? 'Steps' : 'Threshold'}
            <input
              required
              type="number"
              step={kind === 'no_improvement' ? 1 : 'any'}
              min={kind === 'no_improvement' ? 1 : undefined}
              value={number}
              onChange={(e) => setNumber(e.target.value)}
            />
          </label>
        )}
        {kind === 'no_improvement' && (
          <label>
            Better is
            <select value={goal} onChange={(e) => setGoal(e.target.value as 'min' | 'max')}>
              <option value="min">lower</option>
              <option value="max">higher</option>
            </select>
          </label>
        )}
        <button type="submit" disabled={add.isPending}>
          Add rule
        </button>
      </form>
      {add.isError && <p role="alert">{(add.error as Error).message}</p>}
    </>
  );
}
