/** Webhook targets: only public addresses, every address a name resolves to checked. */
import { describe, expect, it } from 'vitest';
import { checkTarget, isPublicAddress } from '../../src/events/address-guard.js';

describe('isPublicAddress', () => {
  const refused = [
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.3.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    'not an address',
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => expect(isPublicAddress(address)).toBe(false));
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
    it(`allows ${address}`, () => expect(isPublicAddress(address)).toBe(true));
  }
});

describe('checkTarget', () => {
  for (const url of [
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://localhost:3000/',
  ]) {
    it(`refuses ${url} (a name resolving to loopback too)`, async () => {
      await expect(checkTarget(url, false)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  }

  it('allows a private target when the server allows private ones, connecting to the address checked', async () => {
    await expect(checkTarget('http://localhost:3000/x', true)).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });

  it('refuses a host that does not resolve', async () => {
    await expect(checkTarget('http://no-such-host.invalid/', true)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
