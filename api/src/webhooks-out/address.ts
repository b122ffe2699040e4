import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import type { Text } from '../language/messages.ts';
import { isLocalUrl } from '../foundations/config.ts';

// Staff name the addresses the server calls, so an address inside the server's own network (the
// database, a cloud's metadata service, the admin port of a router) must never be one of them:
// refused when an endpoint is saved and again at every delivery, after the name is resolved, so a
// name that later points inside (DNS rebinding) is refused too. A local installation (development,
// tests: PUBLIC_URL on localhost) may call local receivers.

// Every block of IANA's special-purpose registries, IPv4
// (https://www.iana.org/assignments/iana-ipv4-special-registry/) and IPv6
// (https://www.iana.org/assignments/iana-ipv6-special-registry/), as of 2025: the globally reachable
// ones (AS112, AMT, the anycast services) too, since no newspaper's system listens there. Beside them
// multicast and, for IPv6, everything outside global unicast (2000::/3), which IANA has not allocated.
const internalV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space, carrier NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122)
  ['169.254.0.0', 16], // link-local, the clouds' metadata service (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments, DS-Lite, NAT64 discovery (RFC 6890, 7335, 7723, 8155, 8880)
  ['192.0.2.0', 24], // documentation TEST-NET-1 (RFC 5737)
  ['192.31.196.0', 24], // AS112-v4 (RFC 7535)
  ['192.52.193.0', 24], // AMT (RFC 7450)
  ['192.88.99.0', 24], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['192.175.48.0', 24], // direct delegation AS112 service (RFC 7534)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation TEST-NET-2 (RFC 5737)
  ['203.0.113.0', 24], // documentation TEST-NET-3 (RFC 5737)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 limited broadcast (RFC 1112, 919)
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
  // IETF protocol assignments (RFC 2928): Teredo (RFC 4380, IPv4 addresses inside), the anycast
  // services, benchmarking, AMT, AS112, ORCHID and drone remote ID.
  ['2001::', 23],
  ['100::', 64], // discard-only (RFC 6666)
  ['100:0:0:1::', 64], // dummy prefix (RFC 9780)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['3fff::', 20], // documentation (RFC 9637)
  ['2620:4f:8000::', 48], // direct delegation AS112 service (RFC 7534)
  ['5f00::', 16], // segment routing SIDs (RFC 9602)
  // Site-local (RFC 3879 deprecated it, but a network may still route it internally).
  ['fec0::', 10],
  ['fc00::', 7], // unique-local (RFC 4193)
  ['fe80::', 10], // link-local (RFC 4291)
  ['ff00::', 8], // multicast (RFC 4291)
] as const)
  internalV6.addSubnet(address, prefix, 'ipv6');

const globalUnicastV6 = new net.BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/** Whether an IP address lies in a private, loopback, link-local or otherwise non-public range. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return internalV4.check(address, 'ipv4');
  return family !== 6 || internalV6.check(address, 'ipv6') || !globalUnicastV6.check(address, 'ipv6');
}

/** Whether this installation may call internal addresses: only one that runs on a local address itself. */
export const allowsInternal = (publicUrl: string) => isLocalUrl(publicUrl);

const privateNetwork = 'The address points into a private network; events are only sent to public addresses.';

/** The names of this installation: its own address and the machine's name (which its network resolves inside). */
const ownNames = (publicUrl: string) => [new URL(publicUrl).hostname, os.hostname()].map((name) => name.toLowerCase());

/** Why a URL cannot be an endpoint (a sentence for staff), or undefined when it can. */
function endpointUrlProblem(text: string, publicUrl: string): Text | undefined {
  if (!URL.canParse(text)) return 'Please give a full address such as https://erp.example.org/hooks/shop.';
  const url = new URL(text);
  const local = allowsInternal(publicUrl);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:'))
    return 'The address must start with https://, so the events travel encrypted.';
  if (url.username || url.password)
    return 'The address must not contain a user name or password; the signature proves the sender.';
  if (url.hash) return 'The address must not contain a fragment (#…).';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // "localhost." is localhost to every resolver, but a different string to every rule below.
  if (host.endsWith('.')) return 'Please write the name of the address without a dot at its end.';
  if (local) return undefined;
  if (net.isIP(host) ? isInternalAddress(host) : /^localhost$|\.localhost$|\.local$|\.internal$/i.test(host))
    return privateNetwork;
  if (ownNames(publicUrl).includes(host.toLowerCase()))
    return 'The address is this shop’s own; events are only sent to other systems.';
  return undefined;
}

/** How long saving waits for a name to resolve; delivery checks each address again anyway. */
const saveLookupMs = 3000;

/**
 * As endpointUrlProblem, and a name that resolves to an internal address now is refused too, so staff
 * learn it when they save rather than from failed deliveries. A name that does not resolve (yet) is
 * saved: its receiver may not be set up yet, and delivery refuses it later if it points inside.
 */
export async function endpointAddressProblem(text: string, publicUrl: string): Promise<Text | undefined> {
  const problem = endpointUrlProblem(text, publicUrl);
  if (problem || allowsInternal(publicUrl)) return problem;
  const host = new URL(text).hostname;
  if (net.isIP(host.replace(/^\[|\]$/g, ''))) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => (timer = setTimeout(() => resolve([]), saveLookupMs))),
  ]).finally(() => clearTimeout(timer));
  return addresses.some((a) => isInternalAddress(a.address)) ? privateNetwork : undefined;
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
