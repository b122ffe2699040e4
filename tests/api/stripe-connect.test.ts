import assert from 'node:assert/strict';
import type { Db } from '../../api/src/db/connection.ts';
import { stripeClient, Stripe } from '../../api/src/stripe/adapter.ts';
import { createConnectedAccount, onboardingLink, useConnectedAccount } from '../../api/src/stripe/connect.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { DomainError } from '../../api/src/foundations/errors.ts';
import { describeApi } from '../support/env.ts';
import { assertBalanced, bookedRows, eventually, placeMainOrder, postEvent } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Stripe Connect, Standard accounts and direct charges: a paper whose settings name its connected
// account sells on that account (the Stripe-Account header on every call), the sandbox keeps that
// account's objects apart from the platform's as Stripe does, and the webhook books only the
// events of the paper's own account.

/** The rejection of an SDK call, for assertions on Stripe's error shape. */
async function refusal(request: Promise<unknown>): Promise<InstanceType<typeof Stripe.errors.StripeError>> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof Stripe.errors.StripeError, String(error));
    return error;
  }
  return assert.fail('the request was not refused');
}

/** A signed delivery of `type` about `object`, as Stripe sends an event of `account` (none: the platform's). */
async function connectEvent(db: Db, shop: ListeningShop, type: string, object: object, account: string | undefined) {
  const { webhookSecret } = await sandboxCredentials(db);
  const payload = JSON.stringify({
    id: `evt_test_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    ...(account ? { account } : {}),
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
  });
  return postEvent(shop, {
    payload,
    header: Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
  });
}

const ledgerRows = async (db: Db) => Number((await db('ledger_rows').count({ n: '*' }))[0].n);

describeApi('Stripe Connect: direct charges on the paper’s connected account', (t) => {
  let shop: ListeningShop;
  let stripe: Stripe;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());
  beforeEach(async () => {
    await t.reset();
    stripe = stripeClient(t.db, shop.config);
  });

  /** A Standard account of `country`, onboarded by visiting its account link as its owner would. */
  async function onboardedAccount(country = 'DE'): Promise<Stripe.Account> {
    const account = await stripe.accounts.create({ type: 'standard', country, email: 'office@paper.example' });
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: `${shop.url}/backoffice/#/stripe/refresh`,
      return_url: `${shop.url}/backoffice/#/stripe/return`,
    });
    const visit = await fetch(link.url, { redirect: 'manual' });
    assert.equal(visit.status, 303);
    assert.equal(visit.headers.get('location'), `${shop.url}/backoffice/#/stripe/return`);
    return stripe.accounts.retrieve(account.id);
  }

  it('creates a Standard account that cannot charge until its owner went through the account link (single-use)', async () => {
    const account = await stripe.accounts.create({ type: 'standard', country: 'DE' });
    assert.match(account.id, /^acct_/);
    assert.equal(account.type, 'standard');
    assert.equal(account.charges_enabled, false);
    assert.equal(account.default_currency, 'eur');
    assert.equal(account.requirements?.disabled_reason, 'requirements.past_due');

    const early = await refusal(
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          success_url: `${shop.url}/success`,
          line_items: [
            { quantity: 1, price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } } },
          ],
        },
        { stripeAccount: account.id },
      ),
    );
    assert.equal(early.statusCode, 400);
    assert.match(early.message, /cannot currently make charges/);

    // Stripe makes no account_update links for accounts with their own Dashboard.
    const update = await refusal(
      stripe.accountLinks.create({
        account: account.id,
        type: 'account_update',
        refresh_url: `${shop.url}/backoffice`,
        return_url: `${shop.url}/backoffice`,
      }),
    );
    assert.equal(update.param, 'type');

    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: `${shop.url}/backoffice/#/refresh`,
      return_url: `${shop.url}/backoffice/#/return`,
    });
    assert.ok(link.expires_at > link.created);
    const first = await fetch(link.url, { redirect: 'manual' });
    assert.equal(first.headers.get('location'), `${shop.url}/backoffice/#/return`);
    const again = await fetch(link.url, { redirect: 'manual' });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), `${shop.url}/backoffice/#/refresh`, 'a used link refreshes');

    const forged = await fetch(new URL('/stripe-sandbox/onboard/alu_forged', shop.url), { redirect: 'manual' });
    assert.equal(forged.status, 404);

    const onboarded = await stripe.accounts.retrieve(account.id);
    assert.equal(onboarded.charges_enabled, true);
    assert.equal(onboarded.payouts_enabled, true);
    assert.equal(onboarded.details_submitted, true);

    const unknown = await refusal(
      stripe.accountLinks.create({
        account: 'acct_0000000000000000',
        type: 'account_onboarding',
        refresh_url: `${shop.url}/backoffice`,
        return_url: `${shop.url}/backoffice`,
      }),
    );
    assert.equal(unknown.code, 'resource_missing');
  });

  it('sells on the paper’s account: the session exists only there, the webhook carries the account and books the order', async () => {
    const account = await onboardedAccount();
    const other = await onboardedAccount();
    await t.db('settings').update({ stripe_account: account.id });

    const order = await placeMainOrder(shop, t.db);
    const onAccount = await stripe.checkout.sessions.retrieve(order.sessionId, {}, { stripeAccount: account.id });
    assert.equal(onAccount.id, order.sessionId);

    // The platform and every other account see nothing of it, as on Stripe.
    for (const options of [{}, { stripeAccount: other.id }]) {
      const missing = await refusal(stripe.checkout.sessions.retrieve(order.sessionId, {}, options));
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.code, 'resource_missing');
      assert.equal(missing.message, `No such checkout.session: '${order.sessionId}'`);
    }
    // An account that is not the platform's is refused before anything is looked at.
    const stranger = await refusal(
      stripe.checkout.sessions.retrieve(order.sessionId, {}, { stripeAccount: 'acct_0000000000000000' }),
    );
    assert.equal(stranger.statusCode, 403);
    assert.equal(stranger.code, 'account_invalid');
    assert.ok(stranger instanceof Stripe.errors.StripePermissionError);

    await payInSandbox(shop.url, order.checkoutUrl);
    await eventually(
      async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
      'the webhook settles the order',
    );
    const completed = await t.db('stripe_events').where({ type: 'checkout.session.completed' }).first('payload');
    assert.equal(completed.payload.account, account.id);
    assert.equal(completed.payload.data.object.id, order.sessionId);
    const rows = await bookedRows(t.db, order.id);
    assert.deepEqual(
      rows.slice(0, 2).map((row) => row.kind),
      ['sale', 'tip'],
    );

    // The payment and its charge are the account's too: the paper is the merchant of record.
    const paid = await stripe.checkout.sessions.retrieve(
      order.sessionId,
      { expand: ['payment_intent'] },
      { stripeAccount: account.id },
    );
    const intent = paid.payment_intent as Stripe.PaymentIntent;
    assert.equal((await refusal(stripe.paymentIntents.retrieve(intent.id))).code, 'resource_missing');
    const balance = await stripe.balanceTransactions.list({}, { stripeAccount: account.id });
    assert.ok(balance.data.length > 0);
    assert.equal((await stripe.balanceTransactions.list()).data.length, 0, 'nothing on the platform');
    await assertBalanced(t.db);
  });

  it('leaves an event of another account, or the platform’s own, unbooked (200, nothing stored)', async () => {
    const account = await onboardedAccount();
    await t.db('settings').update({ stripe_account: account.id });
    const order = await placeMainOrder(shop, t.db);
    const session = await stripe.checkout.sessions.retrieve(order.sessionId, {}, { stripeAccount: account.id });
    const rows = await ledgerRows(t.db);
    const status = (await t.db('orders').where({ id: order.id }).first('status')).status;
    const events = Number((await t.db('stripe_events').count({ n: '*' }))[0].n);

    for (const from of ['acct_1OtherPaper000000', undefined]) {
      const res = await connectEvent(
        t.db,
        shop,
        'checkout.session.completed',
        { ...session, status: 'complete' },
        from,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { received: true, ignored: true });
    }
    assert.equal(await ledgerRows(t.db), rows, 'no ledger row');
    assert.equal(Number((await t.db('stripe_events').count({ n: '*' }))[0].n), events, 'no event recorded');
    assert.equal((await t.db('orders').where({ id: order.id }).first('status')).status, status, 'the order unchanged');

    // A paper without a connected account takes no connected account's events either.
    await t.db('settings').update({ stripe_account: null });
    const res = await connectEvent(t.db, shop, 'checkout.session.completed', session, account.id);
    assert.deepEqual(res.body, { received: true, ignored: true });
    assert.equal(await ledgerRows(t.db), rows);
  });

  it('connects a paper only to an account that may charge, in the currency of its books (npm run stripe-connect)', async () => {
    const account = await createConnectedAccount(stripe, 'DE', 'office@paper.example');
    await assert.rejects(useConnectedAccount(t.db, stripe, account.id), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.match(error.message, /finishes the onboarding first/);
      return true;
    });
    const link = await onboardingLink(stripe, account.id, shop.url);
    assert.equal((await fetch(link.url, { redirect: 'manual' })).headers.get('location'), `${shop.url}/backoffice`);
    await useConnectedAccount(t.db, stripe, account.id);
    assert.equal((await t.db('settings').first('stripe_account')).stripe_account, account.id);

    const swiss = await onboardedAccount('CH');
    await assert.rejects(useConnectedAccount(t.db, stripe, swiss.id), /settles in CHF, the paper’s books are in EUR/);
    assert.equal((await t.db('settings').first('stripe_account')).stripe_account, account.id, 'unchanged');
    await useConnectedAccount(t.db, stripe, null);
    assert.equal((await t.db('settings').first('stripe_account')).stripe_account, null);
    const entries = await t.db('protocol_entries').where({ action: 'stripe.account_connected' }).orderBy('id');
    assert.deepEqual(
      entries.map((entry) => entry.details),
      [
        { from: null, to: account.id },
        { from: account.id, to: null },
      ],
    );
  });

  it('refuses a Checkout Session in a currency the connected account does not settle in', async () => {
    const swiss = await onboardedAccount('CH');
    assert.equal(swiss.default_currency, 'chf');
    const refused = await refusal(
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          success_url: `${shop.url}/success`,
          line_items: [
            { quantity: 1, price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } } },
          ],
        },
        { stripeAccount: swiss.id },
      ),
    );
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.message, 'Invalid currency: eur. Your account currently supports these currencies: chf.');

    // The shop (in euro) on that account: the order is refused, nothing booked.
    await t.db('settings').update({ stripe_account: swiss.id });
    const rows = await ledgerRows(t.db);
    const res = await shop.http.post('/api/orders').send({
      vendor: 'DEMO-1',
      entries: [{ item: (await t.db('items').where({ name: 'Zeitung' }).first('id')).id, quantity: 1 }],
      tip: 0,
    });
    assert.notEqual(res.status, 201);
    assert.equal(await ledgerRows(t.db), rows);
  });
});
