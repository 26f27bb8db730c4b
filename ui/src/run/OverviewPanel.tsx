import type { RunDetails } from '@server/api/schemas/runs';
import { JsonTree } from './JsonTree';
import { NotesEditor } from './NotesEditor';
import { AlertList } from './RunAlerts';
import { RunMetrics } from './RunMetrics';
import { StatusTimeline } from './StatusTimeline';

/**
 * Notes, alerts, the status timeline, each metric's final and best value, config and system
 * metadata of a run (`live`: alerts and metrics are polled).
 */
export function OverviewPanel({ run, live }: { run: RunDetails; live: boolean }) {
  return (
    <div className="overview">
      <div className="overview-side">
        <section className="card">
          <NotesEditor runId={run.id} notes={run.notes} />
        </section>
        <section className="card" aria-labelledby="alerts-title">
          <h2 id="alerts-title">Alerts</h2>
          <AlertList runId={run.id} live={live} />
        </section>
        <section className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Status timeline</h2>
          <StatusTimeline runId={run.id} statusUpdated={run.statusUpdated} />
        </section>
      </div>
      <div className="overview-main">
        <section className="card" aria-labelledby="metrics-title">
          <h2 id="metrics-title">Metrics</h2>
          <RunMetrics runId={run.id} projectName={run.projectName} live={live} />
        </section>
        <section className="card" aria-labelledby="config-title">
          <h2 id="config-title">Config</h2>
          <JsonTree value={run.config} name="config" />
        </section>
        <section className="card" aria-labelledby="sysmeta-title">
          <h2 id="sysmeta-title">System metadata</h2>
          <JsonTree value={run.systemMetadata} name="system metadata" />
        </section>
      </div>
    </div>
  );
}
