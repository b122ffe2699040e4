import net from 'node:net';
import type { Context } from 'koa';
import { trustedProxies, type Config } from '../config.ts';

// Who is on the other end. Behind a load balancer every request comes from the balancer; it names the
// client in X-Forwarded-For and the scheme in X-Forwarded-Proto. Anyone can send those headers, so
// they count only when the direct peer is one of the proxies the operator listed in TRUST_PROXY.

type Request = Pick<Context, 'req' | 'get'>;
type Trust = Pick<Config, 'trustProxy'>;

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is the same client as `10.0.0.1`. */
function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

// Built once per list; a config object keeps its list for its whole life.
const built = new WeakMap<string[], net.BlockList>();

function isTrusted(config: Trust, address: string): boolean {
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
  const hops = ctx.get('X-Forwarded-For').split(',').map((hop) => plainAddress(hop.trim()));
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
