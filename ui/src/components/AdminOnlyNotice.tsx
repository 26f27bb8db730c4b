import { useAccount } from '../api/account-queries';

/**
 * Says that only owners and admins can do `action` (e.g. "change alert rules") and the
 * reader's own role, where a page would otherwise offer controls the API refuses.
 */
export function AdminOnlyNotice({ action }: { action: string }) {
  const account = useAccount();
  const organization = account.data?.organization;
  return (
    <p className="warning-note" role="note">
      Only owners and admins can {action}.
      {organization && ` You are a ${organization.role} of ${organization.slug}; ask an admin or owner.`}
    </p>
  );
}
