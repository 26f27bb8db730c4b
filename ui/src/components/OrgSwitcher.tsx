import { useNavigate } from 'react-router';
import { useAccount, useSwitchOrganization } from '../api/account-queries';
import { projectsPath } from '../paths';

/**
 * The organization in the top bar: a switcher when the user signed in by password belongs to
 * several, else the organization's slug (a key acts in its own organization only).
 */
export function OrgSwitcher({ org }: { org: string }) {
  const account = useAccount();
  const switchTo = useSwitchOrganization();
  const navigate = useNavigate();
  const orgs = account.data?.organizations ?? [];
  if (!account.data || account.data.viaKey || orgs.length < 2) return <span className="muted org-slug">{org}</span>;
  return (
    <select
      className="org-switcher"
      aria-label="Organization"
      value={org}
      disabled={switchTo.isPending}
      onChange={(e) => {
        const slug = e.target.value;
        switchTo.mutate(slug, { onSuccess: () => void navigate(projectsPath(slug)) });
      }}
    >
      {orgs.map((o) => (
        <option key={o.id} value={o.slug}>
          {o.slug} ({o.role})
        </option>
      ))}
    </select>
  );
}
