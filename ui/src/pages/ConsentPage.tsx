import type { FormEvent } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useConsent, useDecideConsent } from '../api/oauth-queries';
import { useSession } from '../api/session';
import { scopeWords } from '../api-keys/scope-words';
import { AuthCard, FormProblem } from '../components/AuthCard';
import { ErrorState, Loading } from '../components/States';
import './consent-page.css';

/**
 * `/consent/{uid}`: where a tool client's authorization asks the signed-in user (docs/api.md
 * §18). Names the client, the host its answer goes to and the scopes in words; "Allow" or
 * "Deny" send the browser on to the client. A signed-out user signs in first and comes back
 * (RequireSession); an expired or foreign request says so.
 */
export function ConsentPage() {
  const { uid = '' } = useParams();
  const consent = useConsent(uid);
  const session = useSession();
  const decide = useDecideConsent(uid);

  const go = (decision: 'allow' | 'deny') =>
    decide.mutate(decision, { onSuccess: (answer) => window.location.assign(answer.redirectTo) });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    go('allow');
  };

  if (consent.isPending) return <Loading label="Loading the authorization request…" />;
  if (consent.isError) {
    if (consent.error instanceof ApiError && consent.error.status === 404) {
      return (
        <AuthCard titleId="consent-title" title="This request has expired" onSubmit={(e) => e.preventDefault()}>
          <p role="alert">
            This authorization request is unknown, has expired, or was started in another browser. Go back to the
            application and connect again.
          </p>
        </AuthCard>
      );
    }
    return <ErrorState error={consent.error} onRetry={() => void consent.refetch()} />;
  }
  const { client, scopes } = consent.data;
  const name = client.name ?? 'An application';
  const org = session.data?.organization.slug;
  const busy = decide.isPending || decide.isSuccess;
  return (
    <AuthCard titleId="consent-title" title={`Allow ${name} to use Stepwise?`} onSubmit={onSubmit}>
      <p>
        <strong>{name}</strong> wants to act as you
        {org ? (
          <>
            {' '}
            in <strong>{org}</strong>
          </>
        ) : null}
        . Its answer goes to <strong className="mono">{client.redirectHost}</strong>.
      </p>
      <section aria-labelledby="consent-scopes-title">
        <h2 id="consent-scopes-title" className="consent-scopes-title">
          It will be able to
        </h2>
        <ul className="consent-scopes">
          {scopes.map((scope) => (
            <li key={scope}>
              {scopeWords(scope)} <span className="muted mono">({scope})</span>
            </li>
          ))}
        </ul>
      </section>
      <p className="muted consent-note">
        Only allow applications you started yourself. You can revoke it any time under API keys → Connected apps. Client
        id: <span className="mono">{client.clientId}</span>
      </p>
      <FormProblem id="consent-problem" problem={decide.isError ? decide.error.message : undefined} />
      <div className="consent-actions">
        <button type="button" className="secondary" disabled={busy} onClick={() => go('deny')}>
          Deny
        </button>
        <button type="submit" disabled={busy}>
          Allow
        </button>
      </div>
    </AuthCard>
  );
}
