import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

// Test mode chosen on purpose behind a public address (STRIPE_SANDBOX=true) must be impossible to
// miss: every HTML page the server sends (shop, back office, /me, the login pages, the sandbox's card
// page) carries a ribbon across its top. It lets clicks through, so it never blocks the page under it.
// Where others reach the server it also says that test credit never leaves the till (ledger/test-credit.ts).

const ribbonCss =
  '#test-mode-ribbon{position:fixed;top:0;left:0;right:0;z-index:2147483647;pointer-events:none;' +
  'background:#b00020;color:#fff;font:600 13px/1.6 system-ui,sans-serif;text-align:center;opacity:.92}';

/**
 * The ribbon's style element by its hash. A page whose policy takes inline styles by nonce only (the
 * login pages) would block a style attribute whatever it is; a style element it takes by its hash.
 */
const ribbonStyleSource = `'sha256-${createHash('sha256').update(ribbonCss).digest('base64')}'`;

const ribbonHtml = (text: string) =>
  `<style>${ribbonCss}</style><div id="test-mode-ribbon" role="status">${text}</div>`;

/** A source list that lets inline styles only by nonce or hash: 'unsafe-inline' beside one counts for nothing. */
const inlineOnlyByName = (sources: string[]) =>
  !sources.includes("'unsafe-inline'") || sources.some((source) => /^'(nonce|sha256|sha384|sha512)-/.test(source));

/** The page's Content-Security-Policy, with the ribbon's style element allowed where it would not be. */
export function allowingRibbon(policy: string): string {
  const directives = policy
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .filter(([name]) => name);
  // Where a style element's sources come from: style-src-elem, else style-src, else default-src.
  const styles = ['style-src-elem', 'style-src']
    .map((name) => directives.find(([own]) => own?.toLowerCase() === name))
    .find(Boolean);
  if (styles) {
    if (inlineOnlyByName(styles.slice(1))) styles.push(ribbonStyleSource);
  } else {
    const fallback = directives.find(([name]) => name?.toLowerCase() === 'default-src');
    if (fallback && inlineOnlyByName(fallback.slice(1)))
      directives.push(['style-src', ...fallback.slice(1).filter((source) => source !== "'none'"), ribbonStyleSource]);
  }
  return directives.map((directive) => directive.join(' ')).join('; ');
}

export function testModeRibbon({ creditIsTestMoney }: { creditIsTestMoney: boolean }): Middleware {
  const ribbon = ribbonHtml(
    creditIsTestMoney
      ? 'TESTMODUS – keine echten Zahlungen, Guthaben wird nicht bar ausgezahlt · ' +
          'TEST MODE – no real payments, credit is not paid out in cash'
      : 'TESTMODUS – keine echten Zahlungen · TEST MODE – no real payments',
  );
  return async (ctx, next) => {
    await next();
    if (!ctx.response.is('html') || ctx.body == null) return;
    const body =
      typeof ctx.body === 'string' ? ctx.body : Buffer.isBuffer(ctx.body) ? ctx.body.toString('utf8') : undefined;
    if (body === undefined) return;
    const at = /<body[^>]*>/i.exec(body);
    const end = at ? at.index + at[0].length : 0;
    ctx.body = body.slice(0, end) + ribbon + body.slice(end);
    const policy = ctx.response.get('Content-Security-Policy');
    if (policy) ctx.set('Content-Security-Policy', allowingRibbon(policy));
  };
}
