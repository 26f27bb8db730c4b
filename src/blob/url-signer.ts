import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks URLs with an installation secret (HMAC-SHA256 over method, path and
 * expiry), so links need no API key and any change to path or query invalidates them.
 */
export class UrlSigner {
  constructor(private readonly secret: string) {}

  private mac(method: string, path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${method}\n${path}\n${expires}`).digest('base64url');
  }

  /** The query string (without `?`) that makes `method path` valid until `expiresAt` (epoch ms). */
  sign(method: string, path: string, expiresAt: number): string {
    const expires = Math.floor(expiresAt / 1000);
    return `expires=${expires}&sig=${this.mac(method, path, expires)}`;
  }

  /**
   * Checks a request: returns 'ok', 'expired' or 'invalid'. The raw query must be exactly
   * what sign() produced (extra or reordered parameters are invalid).
   */
  verify(method: string, path: string, rawQuery: string, now: number): 'ok' | 'expired' | 'invalid' {
    const match = /^expires=(\d{1,12})&sig=([A-Za-z0-9_-]{43})$/.exec(rawQuery);
    if (!match) return 'invalid';
    const expires = Number(match[1]);
    const expected = Buffer.from(this.mac(method, path, expires));
    const given = Buffer.from(match[2]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return expires * 1000 < now ? 'expired' : 'ok';
  }
}
