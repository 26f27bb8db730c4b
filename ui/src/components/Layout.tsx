import { Link, Outlet, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../api/session';
import { projectsPath } from '../paths';
import { useAdminRole } from '../people/useAdminRole';
import { NotificationBell } from './NotificationBell';
import { OrgSwitcher } from './OrgSwitcher';

/**
 * The frame of every signed-in page: brand, navigation (Webhooks and Members for owners and
 * admins only), the organization and Sign out.
 */
export function Layout() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { admin } = useAdminRole();
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
          {admin && <Link to="/webhooks">Webhooks</Link>}
          {admin && <Link to="/members">Members</Link>}
          <Link to="/account">Account</Link>
        </nav>
        <span className="topbar-spacer" />
        {org && <NotificationBell />}
        {org && <OrgSwitcher org={org} />}
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
