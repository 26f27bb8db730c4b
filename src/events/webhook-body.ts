/** The JSON body of a delivery: Standard Webhooks `{type, timestamp, data}`, or a Slack message. */
import type { ClaimedDelivery, EventRun } from '../domain/events.js';
import { runUrl } from '../services/run-urls.js';

/** The event's run with a link to its dashboard page, when the event is about a run. */
function linkedRun(d: ClaimedDelivery, publicUrl: string): (EventRun & { url: string }) | undefined {
  const run = d.event.data.run as EventRun | undefined;
  if (run === undefined) return undefined;
  return { ...run, url: runUrl(publicUrl, d.orgSlug, run.projectName, run.id) };
}

/** One line of text telling what happened, for a Slack message. */
function sentence(d: ClaimedDelivery, run: EventRun | undefined): string {
  const data = d.event.data;
  const name = run ? `run ${run.displayId} "${run.name}" of ${run.projectName}` : '';
  switch (d.event.type) {
    case 'run.created':
      return `New ${name}`;
    case 'run.status_changed':
      return `${name}: ${String(data.from)} → ${String(data.to)} (${String(data.source)})`;
    case 'run.alert':
      return `Alert on ${name}: ${String(data.title ?? '')}${data.text ? ` (${String(data.text)})` : ''}`;
    case 'run.stale':
      return `${name} went silent and was marked FAILED`;
    case 'run.deleted':
      return `Deleted ${name}`;
    case 'alert_rule.triggered':
      return `Alert rule triggered on ${name}: ${String(data.title ?? '')}`;
    default:
      return String(data.message ?? d.event.type);
  }
}

/** The escaped text of a Slack mrkdwn field (its three control characters). */
const slackEscape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The body a subscription of this format receives for the claimed delivery. */
export function webhookBody(d: ClaimedDelivery, publicUrl: string): string {
  const run = linkedRun(d, publicUrl);
  const data = run ? { ...d.event.data, run } : d.event.data;
  if (d.format === 'slack') {
    const text = sentence(d, run);
    const linked = run ? `${slackEscape(text)} <${run.url}|open>` : slackEscape(text);
    return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: linked } }] });
  }
  return JSON.stringify({ type: d.event.type, timestamp: new Date(d.event.at).toISOString(), data });
}
