/**
 * A value bound to a `?` placeholder, on every engine. In a file of its own so the query
 * layer (db.ts) and the dialects (search-dialect.ts) both take it without importing each other.
 */
export type SqlValue = string | number | bigint | null | Buffer;
