import { useAccount } from '../api/account-queries';
import { isAdminRole } from './roles';

/**
 * The signed-in principal's role here, from `GET /api/account`: `account` is the query (pending
 * until it answers), `admin` is true only once it says owner or admin.
 */
export function useAdminRole() {
  const account = useAccount();
  return { account, admin: account.data ? isAdminRole(account.data.organization.role) : false };
}
