import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { errors, type Provider } from 'oidc-provider';
import { recordEvent } from '../../protocol/record.ts';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { addressBucket, clientAddress } from '../../http/client-address.ts';
import { readPublicSettings } from '../../settings/queries.ts';
import { findActiveAccountByUsername, subjectOf } from '../accounts/queries.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { providerPath } from '../issuer.ts';
import { loginPage, messagePage, pickLang, texts, type Brand, type Lang, type Page } from './pages.ts';
import { claimAttempt, forgetOldAttempts, limitsReached, loginSucceeded } from './throttle.ts';

export const interactionUrl = (uid: string) => `${providerPath}/interaction/${uid}`;
const interactionPath = new RegExp(`^${providerPath}/interaction/([A-Za-z0-9_-]{1,64})$`);

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export async function readBrand(db: Db, config: Config): Promise<Brand> {
  const { newspaperName, logo, favicon, color, fontColor } = await readPublicSettings(db, config);
  return { newspaperName, logo, favicon, color, fontColor };
}

function send(ctx: Context, page: Page, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set({
    'Cache-Control': 'no-store',
    'Content-Security-Policy': page.csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  ctx.body = page.html;
}

const readForm = bodyParser({ enableTypes: ['form'], formLimit: '16kb', encoding: 'utf-8' });

/** Text of a form field, cut to a sane length; anything else (arrays, absent) is empty. */
const field = (body: unknown, name: string, max: number): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/**
 * Our own pages at the provider's interaction URL: the login form, and for our first-party client
 * the consent that is implied (no page). The handler answers true when the request was one of them.
 */
export function interactions(provider: Provider, db: Db, config: Config) {
  async function details(ctx: Context, uid: string): Promise<Interaction | undefined> {
    try {
      const interaction = await provider.interactionDetails(ctx.req, ctx.res);
      return interaction.uid === uid ? interaction : undefined;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    }
  }

  async function expired(ctx: Context, lang: Lang): Promise<void> {
    const t = texts[lang];
    send(
      ctx,
      messagePage({
        lang,
        brand: await readBrand(db, config),
        title: t.login,
        message: t.expired,
        alert: true,
        link: { href: '/backoffice', text: t.toBackoffice },
      }),
      400,
    );
  }

  async function finish(
    ctx: Context,
    result: Parameters<Provider['interactionResult']>[2],
    merge: boolean,
  ): Promise<void> {
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
    ctx.status = 303;
    ctx.redirect(returnTo);
  }

  /** Our back office is our own client: what it asks for is granted without a consent page. */
  async function grantConsent(ctx: Context, interaction: Interaction): Promise<void> {
    const { prompt, params, session, grantId } = interaction;
    if (params.client_id !== config.oidc.clientId || !session)
      return expired(ctx, pickLang(undefined, params.ui_locales));
    const grant =
      (grantId && (await provider.Grant.find(grantId))) ||
      new provider.Grant({ accountId: session.accountId, clientId: config.oidc.clientId });
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    await finish(ctx, { consent: { grantId: await grant.save() } }, true);
  }

  async function showLogin(
    ctx: Context,
    interaction: Interaction,
    lang: Lang,
    status = 200,
    form: { username?: string; error?: string } = {},
  ) {
    const action = interactionUrl(interaction.uid);
    send(
      ctx,
      loginPage({
        lang,
        brand: await readBrand(db, config),
        action,
        switchHref: `${action}?lang=${texts[lang].other.lang}`,
        ...form,
      }),
      status,
    );
  }

  async function login(ctx: Context, interaction: Interaction): Promise<void> {
    await readForm(ctx, () => Promise.resolve());
    const body = ctx.request.body;
    const lang = pickLang(field(body, 'lang', 2), interaction.params.ui_locales);
    const username = field(body, 'username', 200).trim();
    const password = field(body, 'password', 1000);
    const t = texts[lang];
    if (!username || !password) return showLogin(ctx, interaction, lang, 200, { username, error: t.wrongCredentials });

    // Counted by the client's bucket (an IPv6 network as one), as the rate limits count; logged exactly.
    const ip = clientAddress(ctx, config);
    const address = addressBucket(ip, config.ipv6Prefix);
    const rules = config.loginThrottle;
    const claim = await claimAttempt(db, rules, username, address);
    if (!claim.allowed)
      return showLogin(ctx, interaction, lang, 429, { username, error: t.throttled(claim.waitSeconds) });

    const account = await findActiveAccountByUsername(db, username);
    const valid = await verifyPassword(password, account?.password_hash);
    if (!account || !valid) {
      await recordEvent(db, { action: 'login.failed', actor: username, details: { ip } });
      for (const scope of limitsReached(rules, claim)) {
        await recordEvent(db, {
          action: 'login.locked',
          actor: username,
          details: { ip, scope, attempts: claim[scope] },
        });
      }
      await forgetOldAttempts(db, rules);
      return showLogin(ctx, interaction, lang, 200, { username, error: t.wrongCredentials });
    }
    await loginSucceeded(db, username, address);
    await finish(ctx, { login: { accountId: subjectOf(account) } }, false);
  }

  return async (ctx: Context): Promise<boolean> => {
    const uid = interactionPath.exec(ctx.path)?.[1];
    if (!uid) return false;
    if (ctx.method !== 'GET' && ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, POST');
      return true;
    }
    const interaction = await details(ctx, uid);
    const lang = pickLang(ctx.query.lang, interaction?.params.ui_locales);
    if (!interaction) {
      await expired(ctx, lang);
    } else if (interaction.prompt.name === 'consent') {
      await grantConsent(ctx, interaction);
    } else if (interaction.prompt.name !== 'login') {
      await expired(ctx, lang);
    } else if (ctx.method === 'POST') {
      await login(ctx, interaction);
    } else {
      await showLogin(ctx, interaction, lang);
    }
    return true;
  };
}
