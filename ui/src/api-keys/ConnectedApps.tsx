import { useState } from 'react';
import type { ConnectedApp } from '@server/api/schemas/oauth';
import { useConnectedApps, useRevokeApp } from '../api/oauth-queries';
import { ActionCell } from '../components/ActionCell';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Empty, ErrorState, Loading } from '../components/States';
import { TableHead } from '../components/TableHead';
import { shortClientId } from './client-id';
import { WhenCell } from './KeysTable';
import { scopeWords } from './scope-words';

const appName = (app: ConnectedApp): string => app.clientName ?? shortClientId(app.clientId);

/** The app's name over its client id (shortened; whole on hover and for screen readers). */
function AppCell({ app }: { app: ConnectedApp }) {
  const short = shortClientId(app.clientId);
  return (
    <td className="api-keys-name">
      {appName(app)}
      {app.clientName !== null && (
        <span
          className="mono muted api-keys-client-id"
          title={`Client id ${app.clientId}`}
          aria-description={`client id ${app.clientId}`}
        >
          {short}
        </span>
      )}
    </td>
  );
}

/**
 * "Connected apps" of the API keys page: the tool clients (MCP clients) the signed-in user
 * allowed in this organization, each with its client id (two apps may share a name) and when
 * it was connected, and Revoke (after a confirmation) ending all their tokens. On a phone each
 * row is a card with Revoke at its top right, as the keys table has it.
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
            <TableHead labels={['App', 'Can', 'Connected', 'Last used']} />
            <tbody>
              {apps.data.map((app) => (
                <tr key={app.clientId}>
                  <AppCell app={app} />
                  <td data-label="Can">
                    {/* One box, so that on a phone the scopes stack beside the label, not side by side. */}
                    <div>
                      {app.scopes.map((s) => (
                        <div key={s} title={s}>
                          {scopeWords(s)}
                        </div>
                      ))}
                    </div>
                  </td>
                  <WhenCell label="Connected" iso={app.authorizedAt} />
                  <WhenCell label="Last used" iso={app.lastUsedAt} empty="never" ago />
                  <ActionCell
                    className="api-keys-actions"
                    name={`Revoke ${appName(app)} (${shortClientId(app.clientId)})`}
                    onClick={() => setTarget(app)}
                  >
                    Revoke
                  </ActionCell>
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
  const revoke = useRevokeApp();
  return (
    <ConfirmDialog
      title={<>Revoke “{appName(props.target)}”?</>}
      error={revoke.isError ? revoke.error.message : undefined}
      confirmLabel={revoke.isPending ? 'Revoking…' : 'Revoke app'}
      busy={revoke.isPending}
      onConfirm={() => revoke.mutate(props.target.clientId, { onSuccess: props.onRevoked })}
      onClose={props.onClose}
    >
      <p>
        Client id <span className="mono api-keys-client-id-full">{props.target.clientId}</span>.
      </p>
      <p>Its tokens stop working at once; it must ask you again to connect. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
