import { useState } from 'react';
import '../pages/manage.css';
import { useStopRun } from '../api/run-admin-queries';
import { ConfirmDialog } from '../components/ConfirmDialog';

/**
 * "Stop run" on a RUNNING run asks first (it ends a training job); confirmed, the server sets
 * it CANCELLED (source `user`) and the client exits on its next heartbeat. Errors show in the
 * dialog.
 */
export function StopRunButton({ runId, runName }: { runId: number; runName: string }) {
  const stop = useStopRun();
  const [asking, setAsking] = useState(false);
  return (
    <span className="stop-run">
      <button type="button" className="danger" disabled={stop.isPending} onClick={() => setAsking(true)}>
        Stop run
      </button>
      {asking && (
        <ConfirmDialog
          title={<>Stop “{runName}”?</>}
          error={stop.isError ? stop.error.message : undefined}
          confirmLabel={stop.isPending ? 'Stopping…' : 'Stop run'}
          busy={stop.isPending}
          onConfirm={() => stop.mutate(runId, { onSuccess: () => setAsking(false) })}
          onClose={() => {
            stop.reset();
            setAsking(false);
          }}
        >
          <p>
            The run is marked CANCELLED now, and its training script is told to stop at its next heartbeat. What it
            logged stays.
          </p>
        </ConfirmDialog>
      )}
    </span>
  );
}
