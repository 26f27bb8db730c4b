/**
 * Password hashing with Node's memory-hard `crypto.scrypt` (N = 2^15, r = 8, p = 1: 32 MiB
 * and ~0.1 s a hash here), run on libuv's thread pool, never the event loop. A stored hash
 * names its parameters (`scrypt$N$r$p$salt$hash`, base64url), so they can grow later.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { badRequest } from '../errors.js';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

/** The shortest and longest password taken (characters); longer ones are refused, not cut. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

const derive = (password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const maxmem = 256 * (o.N ?? N) * (o.r ?? R) + 1024 * 1024;
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

/** The stored form of a password: parameters, random salt and scrypt hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of nothing anyone knows: checked for unknown accounts so they take as long as known ones. */
let dummy: Promise<string> | undefined;

/**
 * True when `password` matches `stored` (compared in constant time). With `stored`
 * undefined (no such account, or no password set) it still spends one hash, then answers false.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? (await (dummy ??= hashPassword(randomBytes(16).toString('hex'))))).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && stored !== undefined && got.length === expected.length && timingSafeEqual(got, expected);
}
