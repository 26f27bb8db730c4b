/**
 * Organization admins, until there are roles: a user marked admin may list and revoke every
 * key of its organization. The bootstrap user (`admin` of organization `default`) is one;
 * the CLI marks others (`stepwise keys create --admin`).
 */
export const userAdminMigration = `
ALTER TABLE users ADD COLUMN admin SMALLINT NOT NULL DEFAULT 0;
UPDATE users SET admin = 1 WHERE name = 'admin' AND org_id IN (SELECT id FROM organizations WHERE slug = 'default')
`;
