import { Link, useLocation } from 'react-router';
import { useSession } from '../api/session';
import { projectsPath } from '../paths';
import './notice-page.css';

/** A page for an address the dashboard does not know, with ways back. */
export function NotFoundPage() {
  const location = useLocation();
  const session = useSession();
  const org = session.data?.organization.slug;
  return (
    <section className="card notice-card" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code className="mono">{location.pathname}</code>. The link may be mistyped, or the page may
        have moved.
      </p>
      <ul className="notice-links">
        {org && (
          <li>
            <Link to={projectsPath(org)}>Your projects</Link>
          </li>
        )}
        <li>
          <Link to="/">Dashboard home</Link>
        </li>
      </ul>
    </section>
  );
}
