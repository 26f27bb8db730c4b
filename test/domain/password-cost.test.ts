/**
 * STEPWISE_PASSWORD_COST (docs/configuration.md): the scrypt cost of new password hashes is
 * N = 2^15 unless set (10 to 20; only the tests lower it), and a stored hash keeps its own N.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.js';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('STEPWISE_PASSWORD_COST', () => {
  it('is 15 by default and takes 10 to 20', () => {
    expect(loadConfig([], {}).passwordCost).toBe(15);
    expect(loadConfig([], { STEPWISE_PASSWORD_COST: '10' }).passwordCost).toBe(10);
    expect(loadConfig([], { STEPWISE_PASSWORD_COST: '20' }).passwordCost).toBe(20);
  });

  it.each(['9', '21', '12.5', 'high', ''])('refuses %j', (cost) => {
    expect(() => loadConfig([], { STEPWISE_PASSWORD_COST: cost })).toThrow(ConfigError);
  });
});

describe('password hashes', () => {
  it('are scrypt with N = 2^15 by default, and with the cost given otherwise', async () => {
    expect((await hashPassword('a long enough password')).split('$').slice(0, 4)).toEqual([
      'scrypt',
      '32768',
      '8',
      '1',
    ]);
    const cheap = await hashPassword('a long enough password', 10);
    expect(cheap.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    // Verification reads N from the stored hash, whatever the cost of new ones.
    expect(await verifyPassword('a long enough password', cheap)).toBe(true);
    expect(await verifyPassword('another password', cheap, 10)).toBe(false);
    expect(await verifyPassword('a long enough password', undefined, 10)).toBe(false);
  });
});
