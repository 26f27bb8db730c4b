import type { ApiKey } from '@server/api/schemas/api-keys';
import { useRevokeKey } from '../api/key-queries';
import { ConfirmDialog } from '../components/ConfirmDialog';

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
  const revoke = useRevokeKey();
  return (
    <ConfirmDialog
      title={<>Revoke “{target.name}”?</>}
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.isError ? revoke.error.message : undefined}
      onConfirm={() => revoke.mutate(target.id, { onSuccess: (key) => onRevoked(key) })}
      onClose={onClose}
    >
      <p>
        Scripts and clients using the key <span className="mono">{target.prefix}…</span> are refused within a second.
        This cannot be undone.
      </p>
      {target.current && (
        <p className="api-keys-warning">
          This is the key this dashboard session signed in with: revoking it signs you out.
        </p>
      )}
    </ConfirmDialog>
  );
}
