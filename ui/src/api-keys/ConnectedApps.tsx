import { useEffect, useId, useRef, useState } from 'react';
import type { ConnectedApp } from '@server/api/schemas/oauth';
import { useConnectedApps, useRevokeApp } from '../api/oauth-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatAgo, formatTime } from '../format';
import { scopeWords } from './scope-words';

const appName = (app: ConnectedApp): string => app.clientName ?? app.clientId;

/**
 * "Connected apps" of the API keys page: the tool clients (MCP clients) the signed-in user
 * allowed in this organization, with Revoke (after a confirmation) ending all their tokens.
 */
export function ConnectedApps() {
  const apps = useConnectedApps();
  const [target, setTarget] = useState<ConnectedApp | null>(null);
  const [notice, setNotice] = useState('');
  return (
    <section className="api-keys-list" aria-labelledby="connected-apps-title">
      <div className="api-keys-heading">
        <h2 id="connected-apps-title">Connected apps</h2>
      </div>
      <p className="muted api-keys-notice" role="status">
        {notice}
      </p>
      {apps.isPending ? (
        <Loading label="Loading connected apps…" />
      ) : apps.isError ? (
        <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />
      ) : apps.data.length === 0 ? (
        <Empty title="No connected apps">
          <p>Tool clients such as coding agents appear here once you allow them to use Stepwise as you.</p>
        </Empty>
      ) : (
        <div className="scroll-x api-keys-scroll">
          <table className="api-keys-table" aria-labelledby="connected-apps-title">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Can</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((app) => (
                <tr key={app.clientId}>
                  <td className="api-keys-name">{appName(app)}</td>
                  <td data-label="Can">
                    {app.scopes.map((s) => (
                      <div key={s} title={s}>
                        {scopeWords(s)}
                      </div>
                    ))}
                  </td>
                  <td data-label="Authorized">
                    <time dateTime={app.authorizedAt}>{formatTime(app.authorizedAt)}</time>
                  </td>
                  <td data-label="Last used">
                    {app.lastUsedAt ? (
                      <time dateTime={app.lastUsedAt} title={formatTime(app.lastUsedAt)}>
                        {formatAgo(app.lastUsedAt)}
                      </time>
                    ) : (
                      <span className="muted">never</span>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Revoke ${appName(app)}`}
                      onClick={() => setTarget(app)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {target && (
        <RevokeAppDialog
          target={target}
          onClose={() => setTarget(null)}
          onRevoked={() => {
            setNotice(`Revoked “${appName(target)}”.`);
            setTarget(null);
          }}
        />
      )}
    </section>
  );
}

/** Asks before revoking a connected app (a modal dialog: Escape or Cancel keeps it). */
function RevokeAppDialog(props: { target: ConnectedApp; onClose: () => void; onRevoked: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const revoke = useRevokeApp();
  const id = useId();
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
      onClose={props.onClose}
    >
      <h2 id={`${id}-title`}>Revoke “{appName(props.target)}”?</h2>
      <p id={`${id}-body`}>Its tokens stop working at once; it must ask you again to connect. This cannot be undone.</p>
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
          onClick={() => revoke.mutate(props.target.clientId, { onSuccess: props.onRevoked })}
        >
          {revoke.isPending ? 'Revoking…' : 'Revoke app'}
        </button>
      </div>
    </dialog>
  );
}
