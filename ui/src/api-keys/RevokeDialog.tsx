import { useEffect, useId, useRef } from 'react';
import type { ApiKey } from '@server/api/schemas/api-keys';
import { useRevokeKey } from '../api/key-queries';

/**
 * Asks before revoking a key (a modal dialog: Escape or Cancel keeps it). Says so when the
 * key is the one this session signed in with, since revoking it ends the session.
 */
export function RevokeDialog({
  target,
  onClose,
  onRevoked,
}: {
  target: ApiKey;
  onClose: () => void;
  onRevoked: (key: ApiKey) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const revoke = useRevokeKey();
  const id = useId();
  // Opened once mounted; unmounting removes it (no close() here: StrictMode's trial unmount
  // would queue a close event that ends the dialog it just reopened).
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="api-keys-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>Revoke “{target.name}”?</h2>
      <div id={`${id}-body`}>
        <p>
          Scripts and clients using the key <span className="mono">{target.prefix}…</span> are refused within a second.
          This cannot be undone.
        </p>
        {target.current && (
          <p className="api-keys-warning">
            This is the key this dashboard session signed in with: revoking it signs you out.
          </p>
        )}
      </div>
      {revoke.isError && (
        <p role="alert" className="api-keys-error">
          {revoke.error.message}
        </p>
      )}
      <div className="api-keys-dialog-actions">
        <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate(target.id, { onSuccess: (key) => onRevoked(key) })}
        >
          {revoke.isPending ? 'Revoking…' : 'Revoke key'}
        </button>
      </div>
    </dialog>
  );
}
