import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiKey, CreatedKey } from '@server/api/schemas/api-keys';
import { useApiKeys } from '../api/key-queries';
import { useSession, useSignOut } from '../api/session';
import { ConnectedApps } from '../api-keys/ConnectedApps';
import { CreateKeyForm } from '../api-keys/CreateKeyForm';
import { KeyHowTo } from '../api-keys/KeyHowTo';
import { KeysTable } from '../api-keys/KeysTable';
import { NewKeyNotice } from '../api-keys/NewKeyNotice';
import { RevokeDialog } from '../api-keys/RevokeDialog';
import { Empty, ErrorState, Loading } from '../components/States';
import { signInPath } from '../paths';
import '../projects/snippet.css';
import './api-keys-page.css';

/**
 * `/api-keys` (where `pluto.login()` sends people): the organization's keys, a form that
 * creates one and shows it once, Revoke with a confirmation, the connected apps (tool clients
 * the user allowed, docs/api.md §18), and how to use a key.
 */
export function ApiKeysPage() {
  const keys = useApiKeys();
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [target, setTarget] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState('');

  const revoked = (key: ApiKey) => {
    setTarget(null);
    setNotice(`Revoked “${key.name}”.`);
    if (created?.id === key.id) setCreated(null);
    if (key.current) {
      signOut.mutate(undefined, { onSettled: () => void navigate(signInPath('/api-keys'), { replace: true }) });
    }
  };

  const org = session.data?.organization.slug;
  return (
    <div className="api-keys-page">
      <h1>API keys</h1>
      <p className="muted api-keys-intro">
        Keys let scripts and the <code>pluto</code> client log runs to{' '}
        {org ? <strong>{org}</strong> : 'this organization'} and read them back. Every key of the organization is listed
        here; a key is shown in full only once, when it is created.
      </p>
      <CreateKeyForm
        onCreated={(key) => {
          setNotice('');
          setCreated(key);
        }}
      />
      {created && <NewKeyNotice created={created} onDone={() => setCreated(null)} />}
      <section className="api-keys-list" aria-labelledby="api-keys-list-title">
        <div className="api-keys-heading">
          <h2 id="api-keys-list-title">Keys</h2>
          {keys.data && (
            <span className="muted">
              {keys.data.filter((k) => k.status === 'ACTIVE').length} active of {keys.data.length}
            </span>
          )}
        </div>
        <p className="muted api-keys-notice" role="status">
          {notice}
        </p>
        {keys.isPending ? (
          <Loading label="Loading keys…" />
        ) : keys.isError ? (
          <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <Empty title="No keys yet">
            <p>Create one above; it is shown once, with a Copy button.</p>
          </Empty>
        ) : (
          <KeysTable keys={keys.data} onRevoke={setTarget} />
        )}
      </section>
      <ConnectedApps />
      <KeyHowTo />
      {target && <RevokeDialog target={target} onClose={() => setTarget(null)} onRevoked={revoked} />}
    </div>
  );
}
