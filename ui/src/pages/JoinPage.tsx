import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcceptInvitation } from '../api/member-queries';
import { AuthCard, FormProblem } from '../components/AuthCard';
import { PasswordField } from '../components/PasswordField';

/** The invitation token from the address's fragment (`/join#token=…`), or '' when there is none. */
export function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/**
 * `/join#token=…`: accepts an invitation with a name and a password (the token stays in the
 * fragment, so it never reaches a server log), signs in and goes to the projects.
 */
export function JoinPage() {
  const [token] = useState(() => tokenOf(window.location.hash));
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const ready = token !== '' && name.trim() !== '' && password.length >= 10;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    accept.mutate({ token, name: name.trim(), password }, { onSuccess: () => void navigate('/', { replace: true }) });
  };
  const problem = accept.error instanceof Error ? accept.error.message : undefined;
  return (
    <AuthCard titleId="join-title" title="Join your team" onSubmit={submit}>
      {token === '' ? (
        <p className="sign-in-error" role="alert">
          This link has no invitation in it. Open the whole link you were sent, or ask for a new one.{' '}
          <Link to="/sign-in">Sign in</Link> if you already have an account.
        </p>
      ) : (
        <>
          <p className="muted">Choose the name others see and a password (at least 10 characters).</p>
          <label className="sign-in-field">
            <span>Your name</span>
            <input
              name="name"
              autoComplete="name"
              autoFocus
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <PasswordField
            labelClassName="sign-in-field"
            name="password"
            autoComplete="new-password"
            value={password}
            problemId={problem ? 'join-error' : undefined}
            onChange={setPassword}
          />
          <FormProblem id="join-error" problem={problem} />
          <button type="submit" disabled={accept.isPending || !ready}>
            {accept.isPending ? 'Joining…' : 'Join'}
          </button>
        </>
      )}
    </AuthCard>
  );
}
