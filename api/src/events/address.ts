import dns from 'node:dns';
import net from 'node:net';
import type { Text } from '../language/messages.ts';
import { isLocalUrl } from '../safety.ts';

// Staff name the addresses the server calls, so an address inside the server's own network (the
// database, a cloud's metadata service, the admin port of a router) must never be one of them:
// refused when an endpoint is saved and again at every delivery, after the name is resolved, so a
// name that later points inside (DNS rebinding) is refused too. A local installation (development,
// tests: PUBLIC_URL on localhost) may call local receivers.

const internal = new net.BlockList();
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
  internal.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address lies in a private, loopback, link-local or otherwise non-public range. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped ? internal.check(mapped, 'ipv4') : internal.check(address, 'ipv6');
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
