import type { ApiKey } from '@server/api/schemas/api-keys';
import { ActionCell } from '../components/ActionCell';
import { TableHead } from '../components/TableHead';
import { formatAgo, formatTime } from '../format';

const STATUS_LABEL: Record<ApiKey['status'], string> = { ACTIVE: 'Active', REVOKED: 'Revoked', EXPIRED: 'Expired' };

/** A time cell: the date and time, with the exact time on hover; an em dash for none. */
export function When({ iso, empty = '—', ago = false }: { iso: string | null; empty?: string; ago?: boolean }) {
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={formatTime(iso)}>
      {ago ? formatAgo(iso) : formatTime(iso)}
    </time>
  );
}

/** A table cell of a time (see When), named `label` for the phone's card layout. */
export function WhenCell({ label, ...when }: { label: string; iso: string | null; empty?: string; ago?: boolean }) {
  return (
    <td data-label={label}>
      <When {...when} />
    </td>
  );
}

/**
 * The keys the user may manage: name, prefix, owner, times, status, and Revoke for active ones.
 * On a phone each row is a card whose cells carry their column's name (`data-label`).
 */
export function KeysTable({ keys, onRevoke }: { keys: readonly ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <div className="scroll-x api-keys-scroll">
      <table className="api-keys-table">
        <TableHead labels={['Name', 'Key', 'User', 'Created', 'Last used', 'Expires', 'Status']} />
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className={k.status === 'ACTIVE' ? undefined : 'api-keys-inactive'}>
              <td className="api-keys-name">
                {k.name}
                {k.current && <span className="tag api-keys-current">this session</span>}
              </td>
              <td className="mono" data-label="Key">
                {k.prefix}…
              </td>
              <td data-label="User">{k.userName}</td>
              <WhenCell label="Created" iso={k.createdAt} />
              <WhenCell label="Last used" iso={k.lastUsedAt} empty="never" ago />
              <WhenCell label="Expires" iso={k.expiresAt} empty="never" />
              <td data-label="Status">
                <span
                  className={`status api-key-status-${k.status}`}
                  title={k.revokedAt ? `Revoked ${formatTime(k.revokedAt)}` : undefined}
                >
                  {STATUS_LABEL[k.status]}
                </span>
              </td>
              <ActionCell
                className="api-keys-actions"
                variant="danger small"
                name={`Revoke ${k.name}`}
                show={k.status === 'ACTIVE'}
                onClick={() => onRevoke(k)}
              >
                Revoke
              </ActionCell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
