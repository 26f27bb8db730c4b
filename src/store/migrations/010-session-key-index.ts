/**
 * Sessions by key, oldest first: signing in ends the key's oldest sessions past
 * STEPWISE_MAX_SESSIONS_PER_KEY, found through this index.
 */
export const sessionKeyIndexMigration = `
CREATE INDEX sessions_key_created ON sessions (api_key_id, created_at)
`;
