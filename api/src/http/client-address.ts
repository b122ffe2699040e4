import net from 'node:net';
import type { Context } from 'koa';
import { trustedProxies, type Config } from '../foundations/config.ts';

// Who is on the other end. Behind a load balancer every request comes from the balancer; it names the
// client in X-Forwarded-For and the scheme in X-Forwarded-Proto. Anyone can send those headers, so
// they count only when the direct peer is one of the proxies the operator listed in TRUST_PROXY.

type Request = Pick<Context, 'req' | 'get'>;
type Trust = Pick<Config, 'trustProxy'>;

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is the same client as `10.0.0.1`. */
export function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

// Built once per list; a config object keeps its list for its whole life.
const built = new WeakMap<string[], net.BlockList>();

export function isTrusted(config: Trust, address: string): boolean {
  if (config.trustProxy.length === 0) return false;
  let blocks = built.get(config.trustProxy);
  if (!blocks) built.set(config.trustProxy, (blocks = trustedProxies(config.trustProxy)));
  const family = net.isIP(address);
  return family !== 0 && blocks.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const peerOf = (ctx: Request) => plainAddress(ctx.req.socket.remoteAddress ?? '');

/**
 * The client's address: the socket's peer, or, when that peer is a trusted proxy, the nearest address
 * in X-Forwarded-For that is not one (walking from the right, past trusted hops). Entries left of it
 * were written by the client itself and are never believed.
 */
export function clientAddress(ctx: Request, config: Trust): string {
  let address = peerOf(ctx);
  if (!isTrusted(config, address)) return address;
  const hops = ctx
    .get('X-Forwarded-For')
    .split(',')
    .map((hop) => plainAddress(hop.trim()));
  for (const hop of hops.reverse()) {
    if (!isTrusted(config, address)) break;
    // Garbage in the header: the last proxy we trust is as far as we can see.
    if (!net.isIP(hop)) break;
    address = hop;
  }
  return address;
}

/** Whether the browser's connection was encrypted: our own TLS, or a trusted proxy saying so. */
export function cameOverTls(ctx: Request, config: Trust): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!isTrusted(config, peerOf(ctx))) return false;
  // The nearest proxy's word is the last one in the list.
  const proto = ctx.get('X-Forwarded-Proto').split(',').pop()?.trim().toLowerCase();
  return proto === 'https';
}

/**
 * The address as rate limits and login throttling count it. An IPv6 client owns at least a whole /64
 * (usually more) and can pick any address in it, so IPv6 is counted by its first `prefix` bits
 * (`2001:db8:1:2::/64`); an IPv4 address is its own bucket.
 */
export function addressBucket(address: string, prefix: number): string {
  if (net.isIP(address) !== 6) return address;
  const words = expandIpv6(address);
  const bits = Math.min(prefix, 128);
  const kept = words.map((word, i) => {
    const from = i * 16;
    if (bits >= from + 16) return word;
    if (bits <= from) return 0;
    return word & (0xffff << (16 - (bits - from)));
  });
  return `${new net.SocketAddress({ address: kept.map((w) => w.toString(16)).join(':'), family: 'ipv6' }).address}/${bits}`;
}

/** The eight 16-bit words of an IPv6 address (with `::` and a trailing dotted IPv4 part resolved). */
function expandIpv6(address: string): number[] {
  const plain = address.replace(/%.*$/, '');
  const [head, tail] = plain.includes('::') ? plain.split('::') : [plain, undefined];
  const words = (part: string | undefined): number[] =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (group.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(group, 16)];
    });
  const left = words(head);
  const right = words(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * What the cap of open connections per client counts a socket under: its peer, IPv6 by the
 * configured prefix; undefined for a trusted proxy, whose connections carry many clients.
 */
export function connectionBucket(
  remoteAddress: string,
  config: Trust & Pick<Config, 'ipv6Prefix'>,
): string | undefined {
  const peer = plainAddress(remoteAddress);
  return isTrusted(config, peer) ? undefined : addressBucket(peer, config.ipv6Prefix);
}

/** This request's rate-limit bucket: its client address, IPv6 by the configured prefix. */
export const clientBucket = (ctx: Request, config: Trust & Pick<Config, 'ipv6Prefix'>) =>
  addressBucket(clientAddress(ctx, config), config.ipv6Prefix);
