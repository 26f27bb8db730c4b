/**
 * Migration 9 (organization admins) on an installation made before it: the bootstrap user
 * (`admin` of organization `default`) becomes the admin, and no other user does, on both
 * engines (PostgreSQL: an empty database of its own, not the migrated template); then
 * migration 15 makes that admin the owner and every other user a member.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import { openPostgres } from '../../src/store/postgres/postgres-db.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { postgresTestUrl, withDatabase } from '../helpers/test-database.js';

/** An empty database of each engine (PostgreSQL only when its tests run), and how to drop it. */
const engines: { name: string; open: () => Promise<{ db: SqlDb; done: () => Promise<void> }> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-admin-migration-'));
      return { db: openSqlite(path.join(dir, 'meta.db')), done: async () => fs.rmSync(dir, { recursive: true }) };
    },
  },
  ...(postgresTestUrl() === undefined
    ? []
    : [
        {
          name: 'postgres',
          open: async () => {
            const url = postgresTestUrl()!;
            const name = `admin_migration_${process.pid}`;
            const admin = new pg.Client({ connectionString: url });
            await admin.connect();
            await admin.query(`DROP DATABASE IF EXISTS ${name}`);
            await admin.query(`CREATE DATABASE ${name}`);
            const db = await openPostgres(withDatabase(url, name));
            return {
              db,
              done: async () => {
                await db.close();
                await admin.query(`DROP DATABASE ${name}`);
                await admin.end();
              },
            };
          },
        },
      ]),
];

describe.each(engines)('migration 9, organization admins ($name)', ({ open }) => {
  it('makes the bootstrap user of an older installation the admin, and nobody else', async () => {
    const { db, done } = await open();
    try {
      await migrate(db, { upTo: 8 });
      const store = new SqlMetadataStore(db);
      const users: [string, string][] = [
        ['default', 'admin'],
        ['default', 'ann'],
        ['acme', 'admin'],
      ];
      for (const [slug, name] of users) {
        const org = await store.ensureOrganization(slug, 1);
        // As a release before roles made users (ensureUser now also makes a membership).
        await db.run('INSERT INTO users (org_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
          org,
          name,
          1,
        ]);
        const user = Number(
          (await db.get<{ id: number }>('SELECT id FROM users WHERE org_id = ? AND name = ?', [org, name]))!.id,
        );
        await db.run(
          'INSERT INTO api_keys (org_id, user_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          [org, user, 'k', 'sw_', `${slug}/${name}`, 1],
        );
      }
      expect(await migrate(db)).toContain(9);
      const admins = (await store.listApiKeys()).map((k) => [k.orgSlug, k.userName, k.userAdmin]);
      expect(admins).toEqual([
        ['default', 'admin', true],
        ['default', 'ann', false],
        ['acme', 'admin', false],
      ]);
      // Migration 15 (roles): that admin is the owner, everyone else a member.
      expect((await store.listApiKeys()).map((k) => [k.orgSlug, k.userName, k.userRole, k.role])).toEqual([
        ['default', 'admin', 'owner', null],
        ['default', 'ann', 'member', null],
        ['acme', 'admin', 'member', null],
      ]);
    } finally {
      await done();
    }
  });
});
