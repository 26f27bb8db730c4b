import { type FormEvent, useState } from 'react';
import { useAccount, useAccountSessions, useChangePassword, useEndSession } from '../api/account-queries';
import { ErrorState, Loading } from '../components/States';
import { PasswordField } from '../components/PasswordField';
import { TableHead } from '../components/TableHead';
import './people-pages.css';

/** Change password: the current one and a new one (10 to 256 characters). */
function PasswordForm() {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setDone(true);
        },
      },
    );
  };
  return (
    <section className="card people-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="people-form" onSubmit={submit}>
        <PasswordField label="Current password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <PasswordField label="New password" autoComplete="new-password" value={next} onChange={setNext} />
        <button type="submit" disabled={change.isPending || current === '' || next.length < 10}>
          Change password
        </button>
      </form>
      <p className="muted">At least 10 characters. Your other password sessions end when it changes.</p>
      {change.isError && (
        <p className="people-error" role="alert">
          {change.error.message}
        </p>
      )}
      {done && <p role="status">Password changed.</p>}
    </section>
  );
}

/** The user's sessions (and its keys'), each with End unless it is this one. */
function SessionsList() {
  const sessions = useAccountSessions();
  const end = useEndSession();
  if (sessions.isPending) return <Loading />;
  if (sessions.isError) return <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />;
  return (
    <div className="people-table-wrap">
      <table className="people-table">
        <TableHead labels={['Signed in with', 'Organization', 'Started', 'Last used']} />
        <tbody>
          {sessions.data.map((s) => {
            const what = s.keyName === null ? 'Password' : `Key “${s.keyName}”`;
            return (
              <tr key={s.id}>
                <td>
                  {what}
                  {s.current && <strong> (this session)</strong>}
                </td>
                <td>{s.organization}</td>
                <td>{new Date(s.createdAt).toLocaleString()}</td>
                <td>{new Date(s.lastUsedAt).toLocaleString()}</td>
                <td>
                  {!s.current && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`End session: ${what}, started ${new Date(s.createdAt).toLocaleString()}`}
                      disabled={end.isPending}
                      onClick={() => end.mutate(s.id)}
                    >
                      End
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {end.isError && (
        <p className="people-error" role="alert">
          {end.error.message}
        </p>
      )}
    </div>
  );
}

/** `/account`: who is signed in, the password (for accounts with one) and the sessions. */
export function AccountPage() {
  const account = useAccount();
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorState error={account.error} onRetry={() => void account.refetch()} />;
  const a = account.data;
  return (
    <div className="people-page">
      <h1>Account</h1>
      <p>
        <strong>{a.name}</strong>
        {a.email && <span className="muted"> · {a.email}</span>}
        <span className="muted">
          {' '}
          · {a.organization.role} of {a.organization.slug}
        </span>
      </p>
      {a.hasPassword ? (
        <PasswordForm />
      ) : (
        <p className="muted">This account has no password: it signs in with API keys.</p>
      )}
      <section className="card people-section" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <SessionsList />
      </section>
    </div>
  );
}
