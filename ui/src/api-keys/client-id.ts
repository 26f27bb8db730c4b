/** Characters of a client id kept when it is shortened: enough to tell a person's few apps apart. */
const KEEP = 8;

/**
 * A client id as a table shows it: whole when short (12 characters or fewer), else its first
 * eight characters and an ellipsis (the full id goes in a title and an aria-description).
 */
export function shortClientId(clientId: string): string {
  return clientId.length <= KEEP + 4 ? clientId : `${clientId.slice(0, KEEP)}…`;
}
