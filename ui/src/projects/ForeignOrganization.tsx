import { Link } from 'react-router';
import { projectsPath } from '../paths';
import '../pages/notice-page.css';

/** The page for an address in another organization than the signed-in one. */
export function ForeignOrganization({ org, own }: { org: string; own: string }) {
  return (
    <section className="card notice-card" aria-labelledby="foreign-org-title">
      <h1 id="foreign-org-title">Not your organization</h1>
      <p>
        This address belongs to the organization <strong className="mono">{org}</strong>, but you are signed in to{' '}
        <strong className="mono">{own}</strong>. Its projects are not visible with your key.
      </p>
      <p>
        <Link to={projectsPath(own)}>Go to the projects of {own}</Link>
      </p>
      <p className="muted small-text">To see {org}, sign out and sign in with a key of that organization.</p>
    </section>
  );
}
