import path from 'node:path';
import { ConfigError } from '../config.js';
import { option } from './args.js';
import { isRole, narrower, ROLES } from '../domain/roles.js';
import { createApiKey, hashApiKey } from '../services/api-keys.js';
import { openStores } from '../store/open-stores.js';

/** Options that take no value. */
const FLAGS = new Set(['--admin']);

function positional(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (FLAGS.has(args[i]!)) continue;
    if (args[i]!.startsWith('--')) i++;
    else out.push(args[i]!);
  }
  return out;
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

/**
 * `stepwise keys create|list|revoke --data DIR ...` (`create --admin` also makes the user its
 * organization's owner, who may list and revoke every key of it; `--role R` gives the user
 * role R there, a new user being a member otherwise; `--key-role R` caps the key at R) (or `--database-url URL`, or
 * STEPWISE_DATABASE_URL, for a shared PostgreSQL database). Works while servers run on the
 * same store (SQLite WAL + busy timeout; PostgreSQL as usual). Returns the exit code.
 */
export async function keys(args: readonly string[], out: (line: string) => void): Promise<number> {
  const [verb, ...rest] = args;
  const dataDir = path.resolve(option(rest, 'data') ?? process.env.STEPWISE_DATA_DIR ?? 'stepwise-data');
  const databaseUrl = option(rest, 'database-url') ?? (process.env.STEPWISE_DATABASE_URL || undefined);
  const stores = await openStores({ dataDir, databaseUrl });
  try {
    if (verb === 'create') {
      const org = option(rest, 'org');
      if (!org) throw new ConfigError('keys create needs --org SLUG');
      const expires = option(rest, 'expires');
      const expiresAt = expires === undefined ? null : Date.parse(expires);
      if (expiresAt !== null && Number.isNaN(expiresAt)) throw new ConfigError('--expires must be an ISO 8601 time');
      const role = option(rest, 'role');
      if (role !== undefined && !isRole(role)) throw new ConfigError(`--role must be one of ${ROLES.join(', ')}`);
      const keyRole = option(rest, 'key-role');
      if (keyRole !== undefined && !isRole(keyRole)) {
        throw new ConfigError(`--key-role must be one of ${ROLES.join(', ')}`);
      }
      const created = await createApiKey(stores.metadata, {
        orgSlug: org,
        userName: option(rest, 'user') ?? 'admin',
        name: option(rest, 'name') ?? 'cli',
        expiresAt,
        admin: rest.includes('--admin'),
        role,
        keyRole,
      });
      const admin = rest.includes('--admin') ? ' (its user is the organization’s admin)' : '';
      out(`Created key ${created.id} for organization ${org}${admin}. It is shown only now:`);
      out(created.key);
      return 0;
    }
    if (verb === 'list') {
      const list = await stores.metadata.listApiKeys(option(rest, 'org'));
      out('id\torg\tuser\trole\tname\tprefix\tcreated\texpires\trevoked\tlast used');
      for (const k of list) {
        out(
          [
            k.id,
            k.orgSlug,
            k.userName,
            k.userRole === null ? '-' : narrower(k.userRole, k.role),
            k.name,
            `${k.prefix}…`,
            iso(k.createdAt),
            iso(k.expiresAt),
            iso(k.revokedAt),
            iso(k.lastUsedAt),
          ].join('\t'),
        );
      }
      return 0;
    }
    if (verb === 'revoke') {
      const target = positional(rest)[0];
      if (!target) throw new ConfigError('keys revoke needs a key id or the key itself');
      const idOrHash = /^\d+$/.test(target) ? Number(target) : hashApiKey(target);
      const done = await stores.metadata.revokeApiKey(idOrHash, Date.now());
      out(done ? `Revoked ${typeof idOrHash === 'number' ? `key ${idOrHash}` : 'the key'}.` : 'No such key.');
      return done ? 0 : 1;
    }
    throw new ConfigError('usage: stepwise keys create|list|revoke --data DIR ...');
  } finally {
    await stores.close();
  }
}
