import dns from 'node:dns';
import net from 'node:net';
import type { Text } from '../language/messages.ts';
import { isLocalUrl } from '../safety.ts';

// Staff name the addresses the server calls, so an address inside the server's own network (the
// database, a cloud's metadata service, the admin port of a router) must never be one of them:
// refused when an endpoint is saved and again at every delivery, after the name is resolved, so a
// name that later points inside (DNS rebinding) is refused too. A local installation (development,
// tests: PUBLIC_URL on localhost) may call local receivers.

const internalV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internalV4.addSubnet(address, prefix, 'ipv4');

// A list of its own: net.BlockList matches an IPv4 address against an IPv6 rule as ::ffff:a.b.c.d,
// so with ::ffff:0:0/96 in one list with the IPv4 rules every IPv4 address would be refused.
const internalV6 = new net.BlockList();
for (const [address, prefix] of [
  // Every form that carries an IPv4 address inside is refused whole, whichever IPv4 address it
  // carries: the machine, or a gateway near it, turns it into that IPv4 address (127.0.0.1 as
  // [::127.0.0.1] or [::ffff:7f00:1]), and judging the address inside would miss the next form.
  // IPv4-compatible (RFC 4291 §2.5.5.1, deprecated); it holds :: (unspecified) and ::1 (loopback) too.
  ['::', 96],
  // IPv4-mapped (RFC 4291 §2.5.5.2): a dual-stack socket connects to the IPv4 address.
  ['::ffff:0:0', 96],
  // IPv4-translated, for stateless translation (SIIT, RFC 2765 §2.1).
  ['::ffff:0:0:0', 96],
  // NAT64, the well-known prefix (RFC 6052 §2.1) and the local-use one (RFC 8215).
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // 6to4 (RFC 3056): the next 32 bits are an IPv4 address the relay delivers to.
  ['2002::', 16],
  // Teredo (RFC 4380): server and client IPv4 addresses inside.
  ['2001::', 32],
  ['100::', 64],
  ['2001:db8::', 32],
  // Site-local (RFC 3879 deprecated it, but a network may still route it internally).
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internalV6.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address lies in a private, loopback, link-local or otherwise non-public range. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return internalV4.check(address, 'ipv4');
  return family !== 6 || internalV6.check(address, 'ipv6');
}

/** Whether this installation may call internal addresses: only one that runs on a local address itself. */
export const allowsInternal = (publicUrl: string) => isLocalUrl(publicUrl);

/** Why a URL cannot be an endpoint (a sentence for staff), or undefined when it can. */
export function endpointUrlProblem(text: string, publicUrl: string): Text | undefined {
  if (!URL.canParse(text)) return 'Please give a full address such as https://erp.example.org/hooks/shop.';
  const url = new URL(text);
  const local = allowsInternal(publicUrl);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:'))
    return 'The address must start with https://, so the events travel encrypted.';
  if (url.username || url.password)
    return 'The address must not contain a user name or password; the signature proves the sender.';
  if (url.hash) return 'The address must not contain a fragment (#…).';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    !local &&
    (net.isIP(host) ? isInternalAddress(host) : /^localhost$|\.localhost$|\.local$|\.internal$/i.test(host))
  )
    return 'The address points into a private network; events are only sent to public addresses.';
  return undefined;
}

/** Refuses an address the server must not call: an IP literal now, a name once it is resolved. */
export class InternalAddress extends Error {
  constructor(host: string) {
    super(`${host} is a private address; events are only sent to public addresses.`);
  }
}

/**
 * A `lookup` for http.request that resolves as usual but refuses names that lead to an internal
 * address, so the connection is only ever made to the address that was checked.
 */
export function publicLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((a) => isInternalAddress(a.address));
    if (refused) return callback(new InternalAddress(hostname), '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
