import { Link, Outlet, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../api/session';
import { projectsPath } from '../paths';
import { NotificationBell } from './NotificationBell';

/** The frame of every signed-in page: brand, navigation, the organization and Sign out. */
export function Layout() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const org = session.data?.organization.slug;
  return (
    <div className="layout">
      <header className="topbar">
        <Link to={org ? projectsPath(org) : '/'} className="brand" aria-label="Stepwise home">
          <img src="/favicon.svg" alt="" width={20} height={20} /> Stepwise
        </Link>
        <nav aria-label="Main">
          {org && <Link to={projectsPath(org)}>Projects</Link>}
          <Link to="/api-keys">API keys</Link>
          <Link to="/webhooks">Webhooks</Link>
        </nav>
        <span className="topbar-spacer" />
        {org && <NotificationBell />}
        {org && <span className="muted org-slug">{org}</span>}
        <button
          type="button"
          className="secondary"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSettled: () => void navigate('/sign-in', { replace: true }) })}
        >
          Sign out
        </button>
      </header>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
