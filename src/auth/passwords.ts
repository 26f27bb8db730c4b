/**
 * Password hashing with Node's memory-hard `crypto.scrypt` (N = 2^15, r = 8, p = 1: 32 MiB
 * and ~0.1 s a hash here), run on libuv's thread pool, never the event loop. A stored hash
 * names its parameters (`scrypt$N$r$p$salt$hash`, base64url), so they can grow later.
 * The cost (log2 N) of new hashes is 15 unless STEPWISE_PASSWORD_COST lowers it, which only
 * the tests do (N = 2^10: a sign-in loop of hundreds of tries then takes no minute of CPU).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { badRequest } from '../errors.js';

/** log2 of scrypt's N for new hashes (Config.passwordCost; lower values are for tests only). */
export const PASSWORD_COST = 15;
/** The lowest cost STEPWISE_PASSWORD_COST takes. */
export const PASSWORD_COST_MIN = 10;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

/** The shortest and longest password taken (characters); longer ones are refused, not cut. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const derive = (password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const maxmem = 256 * (o.N ?? 2 ** PASSWORD_COST) * (o.r ?? R) + 1024 * 1024;
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...o, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });

/** Throws BAD_REQUEST (never echoing the password) unless it is 10 to 256 characters. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw badRequest(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
}

/** The stored form of a password: parameters, random salt and scrypt hash (N = 2^cost). */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const N = 2 ** cost;
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Hashes of nothing anyone knows, by cost: checked for unknown accounts so they take as long as known ones. */
const dummies = new Map<number, Promise<string>>();

function dummyHash(cost: number): Promise<string> {
  let dummy = dummies.get(cost);
  if (dummy === undefined) dummies.set(cost, (dummy = hashPassword(randomBytes(16).toString('hex'), cost)));
  return dummy;
}

/**
 * True when `password` matches `stored` (compared in constant time). With `stored`
 * undefined (no such account, or no password set) it still spends one hash of `cost` (the
 * cost new hashes get), then answers false.
 */
export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  cost = PASSWORD_COST,
): Promise<boolean> {
  const parts = (stored ?? (await dummyHash(cost))).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && stored !== undefined && got.length === expected.length && timingSafeEqual(got, expected);
}
