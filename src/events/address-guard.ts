/**
 * Where a webhook may be sent: not into the network Stepwise runs in. A target's host is
 * resolved and every address it resolves to must be public; the delivery then connects to
 * an address that was checked (no second lookup a DNS answer could change in between).
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { badRequest } from '../errors.js';

/** Loopback, private, link-local, shared, documentation, multicast and reserved ranges. */
const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

const blocked = new net.BlockList();
for (const [address, prefix] of BLOCKED_V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of BLOCKED_V6) blocked.addSubnet(address, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64), or undefined. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True when an IP address (v4 or v6 text) is one a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedV4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !blocked.check(address, 'ipv6');
}

/** A webhook target: its URL and the checked address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The URL of a webhook target, or throws BAD_REQUEST: http(s), no credentials, at most 2,000 characters. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`url ${JSON.stringify(text.slice(0, 100))} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('url must start with http:// or https://');
  if (url.username !== '' || url.password !== '') throw badRequest('url must not hold a user name or password');
  return url;
}

/**
 * Resolves the target's host and checks every address it has; returns the first. Throws
 * BAD_REQUEST when the host does not resolve, or (unless `allowPrivate`) when any of its
 * addresses is loopback, private, link-local or otherwise not public.
 */
export async function checkTarget(text: string, allowPrivate: boolean): Promise<CheckedTarget> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (net.isIP(host) !== 0) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw badRequest(`the url's host ${JSON.stringify(host)} does not resolve`);
    }
  }
  if (addresses.length === 0) throw badRequest(`the url's host ${JSON.stringify(host)} does not resolve`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw badRequest(
        `the url's host ${JSON.stringify(host)} is ${refused.address}, a loopback, private, link-local or ` +
          'reserved address: webhooks go to public addresses only (STEPWISE_WEBHOOK_ALLOW_PRIVATE=1 allows others)',
      );
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
