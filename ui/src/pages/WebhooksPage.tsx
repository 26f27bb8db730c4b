import { useState, type FormEvent } from 'react';
import type { CreatedWebhook, EventTypeName, Webhook } from '@server/api/schemas/webhooks';
import { useWebhookDeliveries, useWebhooks, useWebhookWrites } from '../api/webhook-queries';
import { AdminOnlyNotice } from '../components/AdminOnlyNotice';
import { Empty, ErrorState, Loading } from '../components/States';
import { useAdminRole } from '../people/useAdminRole';
import './webhooks-page.css';

/** The form that subscribes a URL; the answer's secret is shown once above the list. */
function CreateWebhookForm({
  eventTypes,
  onCreated,
}: {
  eventTypes: readonly EventTypeName[];
  onCreated: (hook: CreatedWebhook) => void;
}) {
  const { create } = useWebhookWrites();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['run.status_changed', 'run.alert']);
  const [format, setFormat] = useState<'standard' | 'slack'>('standard');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url, events, format }, { onSuccess: (hook) => (onCreated(hook), setUrl('')) });
  };
  const toggle = (type: string) =>
    setEvents((now) => (now.includes(type) ? now.filter((t) => t !== type) : [...now, type]));
  return (
    <form className="webhook-form" onSubmit={submit}>
      <label>
        Webhook URL
        <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" />
      </label>
      <fieldset>
        <legend>Events</legend>
        {eventTypes.map((type) => (
          <label key={type} className="inline">
            <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
          </label>
        ))}
      </fieldset>
      <label>
        Format
        <select value={format} onChange={(e) => setFormat(e.target.value as 'standard' | 'slack')}>
          <option value="standard">Standard Webhooks (signed JSON)</option>
          <option value="slack">Slack message</option>
        </select>
      </label>
      <button type="submit" disabled={create.isPending || events.length === 0}>
        Create webhook
      </button>
      {create.isError && <p role="alert">{(create.error as Error).message}</p>}
    </form>
  );
}

/** A webhook's deliveries: status, attempts, the receiver's last answer. */
function Deliveries({ webhookId }: { webhookId: number }) {
  const deliveries = useWebhookDeliveries(webhookId);
  if (deliveries.isPending) return <Loading />;
  if (deliveries.isError) return <ErrorState error={deliveries.error} />;
  if (deliveries.data.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <table aria-label={`Deliveries of webhook ${webhookId}`}>
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Last answer</th>
          <th>Last attempt</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((d) => (
          <tr key={d.id}>
            <td>{d.eventType}</td>
            <td>{d.status}</td>
            <td>{d.attempts}</td>
            <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
            <td>{d.lastAttemptAt ? new Date(d.lastAttemptAt).toLocaleString() : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WebhookRow({ hook }: { hook: Webhook }) {
  const { test, remove } = useWebhookWrites();
  const [shown, setShown] = useState(false);
  return (
    <li className="webhook-row">
      <div className="webhook-head">
        <code>{hook.url}</code>
        <span className={hook.enabled ? 'muted' : 'webhook-disabled'}>
          {hook.enabled ? 'enabled' : `disabled after ${hook.failedDeliveries} failed deliveries`}
        </span>
      </div>
      <div className="muted">
        {hook.events.join(', ')} · {hook.format}
        {hook.projectName ? ` · project ${hook.projectName}` : ''}
      </div>
      <div className="webhook-actions">
        <button type="button" className="secondary" onClick={() => (test.mutate(hook.id), setShown(true))}>
          Send test
        </button>
        <button type="button" className="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
          Deliveries
        </button>
        <button type="button" className="secondary" onClick={() => remove.mutate(hook.id)}>
          Delete
        </button>
      </div>
      {shown && <Deliveries webhookId={hook.id} />}
    </li>
  );
}

/**
 * `/webhooks`: for owners and admins, the organization's webhooks, a form that creates one (its
 * secret shown once), tests and deliveries; for other roles, which the API refuses, a notice.
 */
export function WebhooksPage() {
  const { account, admin } = useAdminRole();
  return (
    <div className="webhooks-page">
      <h1>Webhooks</h1>
      {account.isPending ? (
        <Loading />
      ) : account.isError ? (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} />
      ) : admin ? (
        <WebhookManager />
      ) : (
        <AdminOnlyNotice action="see and change webhooks" />
      )}
    </div>
  );
}

/** The organization's webhooks with the form that adds one (owners and admins only). */
function WebhookManager() {
  const hooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <>
      {hooks.data && <CreateWebhookForm eventTypes={hooks.data.eventTypes} onCreated={setCreated} />}
      {created && (
        <div className="webhook-secret" role="status">
          <label>
            Signing secret
            <input readOnly value={created.secret} onFocus={(e) => e.target.select()} />
          </label>
          <p className="muted">Copy it now: it will not be shown again.</p>
        </div>
      )}
      {hooks.isPending && <Loading />}
      {hooks.isError && <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} />}
      {hooks.data?.webhooks.length === 0 && <Empty title="No webhooks yet" />}
      <ul className="webhook-list">
        {hooks.data?.webhooks.map((hook) => (
          <WebhookRow key={hook.id} hook={hook} />
        ))}
      </ul>
    </>
  );
}
