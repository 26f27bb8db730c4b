import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuthProviders } from '../api/auth-provider-queries';
import { type SignInInput, useSession, useSignIn } from '../api/session';
import { AuthCard, FormProblem } from '../components/AuthCard';
import { PasswordField } from '../components/PasswordField';

/** `next` when it is a path on this site (`/…`, not `//…` or `/\…`), else `/`. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/** What the form signs in with: the API key when one is entered, else the email and password. */
export function signInInput(email: string, password: string, key: string): SignInInput | undefined {
  if (key.trim() !== '') return { apiKey: key.trim() };
  if (email.trim() !== '' && password !== '') return { email: email.trim(), password };
  return undefined;
}

/**
 * Sign in with an email and password, or with an API key: either goes once to
 * `POST /api/session` and is exchanged for an HttpOnly session cookie; the page never keeps
 * it. Afterwards the page goes to `next`.
 */
export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSession();
  const signIn = useSignIn();
  const providers = useAuthProviders();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (signIn.isError) first.current?.focus();
  }, [signIn.isError, signIn.failureCount]);

  if (session.data && !signIn.isPending && !signIn.isSuccess) return <Navigate to={next} replace />;

  const input = signInInput(email, password, key);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input) return;
    signIn.mutate(input, {
      onSuccess: () => {
        setKey('');
        setPassword('');
        void navigate(next, { replace: true });
      },
    });
  };

  const problem = signIn.error instanceof Error ? signIn.error.message : undefined;
  const invalid = problem ? true : undefined;
  const described = problem ? 'sign-in-error' : undefined;
  /** What the password and API key fields share. */
  const secret = { labelClassName: 'sign-in-field', problemId: described };
  return (
    <AuthCard titleId="sign-in-title" title="Sign in" onSubmit={submit}>
      <label className="sign-in-field">
        <span>Email</span>
        <input
          ref={first}
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          value={email}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <PasswordField
        {...secret}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <p className="muted sign-in-or">
        Or use an API key of your organization instead. It is exchanged for a session and not stored.
      </p>
      <PasswordField
        {...secret}
        label="API key"
        name="api-key"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        value={key}
        onChange={setKey}
      />
      <FormProblem id="sign-in-error" problem={problem} />
      <button type="submit" disabled={signIn.isPending || !input}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
      {providers.data?.oidc && (
        <a className="sign-in-sso" href="/api/auth/oidc/start">
          Sign in with SSO
        </a>
      )}
      <details className="sign-in-help">
        <summary>Where do I get an account or a key?</summary>
        <p>
          An admin of your organization invites you from the Members page; the invitation link lets you choose a
          password. Whoever runs this server creates keys with{' '}
          <code>stepwise keys create --org &lt;slug&gt; --data &lt;data dir&gt;</code> (the key is shown once). Once
          signed in, you can manage keys on the API keys page.
        </p>
      </details>
    </AuthCard>
  );
}
