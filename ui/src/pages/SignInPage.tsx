import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuthProviders } from '../api/auth-provider-queries';
import { useSession, useSignIn } from '../api/session';
import './sign-in-page.css';

/** `next` when it is a path on this site (`/…`, not `//…` or `/\…`), else `/`. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/**
 * Sign in with an API key: the key goes once to `POST /api/session` and is exchanged for an
 * HttpOnly session cookie; the page never keeps it. Afterwards the page goes to `next`.
 */
export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSession();
  const signIn = useSignIn();
  const providers = useAuthProviders();
  const [key, setKey] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (signIn.isError) input.current?.focus();
  }, [signIn.isError, signIn.failureCount]);

  if (session.data && !signIn.isPending && !signIn.isSuccess) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const apiKey = key.trim();
    if (apiKey === '') return;
    signIn.mutate(apiKey, {
      onSuccess: () => {
        setKey('');
        void navigate(next, { replace: true });
      },
    });
  };

  const problem = signIn.error instanceof Error ? signIn.error.message : undefined;
  return (
    <main className="sign-in">
      <form className="sign-in-card card" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
        <div className="sign-in-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Stepwise</span>
        </div>
        <h1 id="sign-in-title">Sign in</h1>
        <p className="muted">Use an API key of your organization. It is exchanged for a session and not stored.</p>
        <label className="sign-in-field">
          <span>API key</span>
          <input
            ref={input}
            type="password"
            name="api-key"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            autoFocus
            required
            value={key}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'sign-in-error' : undefined}
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
        {problem && (
          <p id="sign-in-error" className="sign-in-error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={signIn.isPending || key.trim() === ''}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {providers.data?.oidc && (
          <a className="sign-in-sso" href="/api/auth/oidc/start">
            Sign in with SSO
          </a>
        )}
        <details className="sign-in-help">
          <summary>Where do I get a key?</summary>
          <p>
            Whoever runs this server creates one with{' '}
            <code>stepwise keys create --org &lt;slug&gt; --data &lt;data dir&gt;</code> (the key is shown once). Once
            signed in, you can manage keys on the API keys page.
          </p>
        </details>
      </form>
    </main>
  );
}
