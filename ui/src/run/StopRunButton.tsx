import '../pages/manage.css';
import { useStopRun } from '../api/run-admin-queries';

/**
 * "Stop run" on a RUNNING run: the server sets it CANCELLED (source `user`) and the client
 * exits on its next heartbeat. Errors show beside the button.
 */
export function StopRunButton({ runId }: { runId: number }) {
  const stop = useStopRun();
  return (
    <span className="stop-run">
      <button type="button" className="danger" disabled={stop.isPending} onClick={() => stop.mutate(runId)}>
        Stop run
      </button>
      {stop.isError && <span role="alert">{stop.error.message}</span>}
    </span>
  );
}
