import type { Middleware } from 'koa';
import { isLoopback, type Config } from '../foundations/config.ts';
import { translate, tr } from '../language/messages.ts';
import { log } from '../foundations/log.ts';
import { isTrusted, plainAddress } from './client-address.ts';
import { HttpError } from './errors.ts';
import { isMachinePath } from './paths.ts';

// A local start (safety.ts isLocalStart) skips what protects a public shop: it seeds the demo logins,
// takes the sandbox's test cards as money staff pay out in cash, and lets webhooks reach this machine.
// That is safe only while nobody else reaches it, and listening on loopback does not ensure it: nginx,
// Caddy or a tunnel on this machine publish it anyway. Such requests show themselves by the headers a
// proxy adds or by a Host that is not this machine (a name pointed here, as DNS rebinding does too).
// They are refused with the one remedy, PUBLIC_URL, which turns the start into a public one and its
// checks on. A proxy named in TRUST_PROXY may forward, as long as every client it names is this machine
// (the test clusters' balancer does). A raw tunnel that rewrites nothing stays invisible here.

/** The headers by which a proxy names the client, the host or the scheme it was asked for. */
const proxyHeader = /^(forwarded|x-forwarded-[a-z-]+|x-real-ip)$/;

/** A host or address as a header writes it ("localhost:3000", "[::1]:80", "\"for=…\"") without port or quotes. */
function hostOf(value: string): string {
  const bare = value.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]*)\]/.exec(bare);
  if (bracketed) return bracketed[1] ?? '';
  return plainAddress(bare.split(':').length === 2 ? (bare.split(':')[0] ?? '') : bare).toLowerCase();
}

/** Every client and host the forwarding headers name; X-Forwarded-Proto and -Port name neither. */
function namedByProxies(headers: Record<string, string | string[] | undefined>): string[] {
  const named: string[] = [];
  const values = (name: string) => [headers[name] ?? []].flat().flatMap((value) => value.split(','));
  for (const name of ['x-forwarded-for', 'x-forwarded-host', 'x-real-ip']) named.push(...values(name));
  for (const pair of values('forwarded').flatMap((element) => element.split(';'))) {
    const [key = '', value = ''] = pair.split('=');
    if (/^\s*(for|host)\s*$/i.test(key)) named.push(value);
  }
  return named.map(hostOf);
}

/** Why a request is not from this machine to this machine, or undefined when it is. */
function arrivedFromElsewhere(ctx: Parameters<Middleware>[0], config: Pick<Config, 'trustProxy'>): string | undefined {
  const host = ctx.get('Host');
  if (!isLoopback(hostOf(host))) return `Host ${host || '(none)'}`;
  const forwarding = Object.keys(ctx.headers).filter((name) => proxyHeader.test(name));
  if (forwarding.length === 0) return undefined;
  if (!isTrusted(config, plainAddress(ctx.req.socket.remoteAddress ?? ''))) return forwarding.join(', ');
  const elsewhere = namedByProxies(ctx.headers).find((named) => !isLoopback(named));
  return elsewhere === undefined ? undefined : `forwarded for ${elsewhere}`;
}

const refusal = tr(
  'This shop was started for this computer only, as PUBLIC_URL names no public address, so it refuses requests that come through a proxy or for another address. To publish it, set PUBLIC_URL to the address people open (like https://shop.example.org) and start it again.',
);
const title = tr('For this computer only');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** The page, in German and English at once: whoever opened it through the proxy may read either. */
const page = (['de', 'en'] as const)
  .map(
    (language) =>
      `<h1 lang="${language}">${escapeHtml(translate(title, language))}</h1>` +
      `<p lang="${language}">${escapeHtml(translate(refusal, language))}</p>`,
  )
  .join('\n');
const pageHtml =
  '<!doctype html>\n<html lang="de"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${escapeHtml(translate(title, 'de'))} · ${escapeHtml(translate(title, 'en'))}</title></head>\n` +
  `<body><main>\n${page}\n</main></body></html>\n`;

/** Refuses, on a local start, every request that did not come from this machine for this machine. */
export function localOnly(config: Pick<Config, 'trustProxy'>): Middleware {
  let logged = false;
  return async (ctx, next) => {
    const why = arrivedFromElsewhere(ctx, config);
    if (why === undefined) {
      await next();
      return;
    }
    if (!logged) {
      logged = true;
      log.warn('request refused: a local start reached from elsewhere (set PUBLIC_URL to publish it)', { why });
    }
    if (isMachinePath(ctx.path)) throw new HttpError(403, refusal);
    ctx.status = 403;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = pageHtml;
  };
}
