import type { ApiKey } from '@server/api/schemas/api-keys';
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
              <td data-label="Created">
                <When iso={k.createdAt} />
              </td>
              <td data-label="Last used">
                <When iso={k.lastUsedAt} empty="never" ago />
              </td>
              <td data-label="Expires">
                <When iso={k.expiresAt} empty="never" />
              </td>
              <td data-label="Status">
                <span
                  className={`status api-key-status-${k.status}`}
                  title={k.revokedAt ? `Revoked ${formatTime(k.revokedAt)}` : undefined}
                >
                  {STATUS_LABEL[k.status]}
                </span>
              </td>
              <td className="api-keys-actions">
                {k.status === 'ACTIVE' && (
                  <button
                    type="button"
                    className="danger small"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => onRevoke(k)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
