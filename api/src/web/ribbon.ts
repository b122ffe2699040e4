import type { Middleware } from 'koa';

// Test mode chosen on purpose behind a public address (STRIPE_SANDBOX=true) must be impossible to
// miss: every HTML page the server sends (shop, back office, /me, the sandbox's card page) carries a
// ribbon across its top. It lets clicks through, so it never blocks the page under it. Where others
// reach the server it also says that test credit never leaves the till (ledger/test-credit.ts).

const ribbonHtml = (text: string) =>
  '<div id="test-mode-ribbon" role="status" style="position:fixed;top:0;left:0;right:0;z-index:2147483647;' +
  'pointer-events:none;background:#b00020;color:#fff;font:600 13px/1.6 system-ui,sans-serif;text-align:center;' +
  `opacity:.92">${text}</div>`;

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
  };
}
