import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reconcilePending } from '../../api/src/orders/reconcile.ts';
import { sweepStripeChanges } from '../../api/src/orders/stripe-sweep.ts';
import { sweepStripePayouts } from '../../api/src/stripe-balance/bank-transfers.ts';
import { reconcileStripe } from '../../api/src/stripe-balance/reconciliation.ts';
import { STRIPE_API_VERSION, Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { doBankActions } from '../../api/src/stripe/sandbox/later.ts';
import { SANDBOX_COUNTERED_DISPUTE_FEE, SANDBOX_DISPUTE_FEE } from '../../api/src/stripe/sandbox/lifecycle.ts';
import { setupWebhookEndpoint } from '../../api/src/stripe/setup.ts';
import { describeApi } from '../support/env.ts';
import { eventually, placeMainOrder } from '../support/orders.ts';
import { sell } from '../support/sales.ts';
import {
  bankActsNow,
  closedAccountIban,
  dashboardRefund,
  disputeCharge,
  finishRefund,
  payInSandbox,
  payOutBalance,
  sandboxAction,
  settlePayout,
  stripeParamsProblems,
  stripeParamsType,
  stripeRequestProblems,
  stripeShapeProblems,
} from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The sandbox's lifecycle of a payment after it is paid, through the official SDK, as Stripe's test
// cards make it happen (https://docs.stripe.com/testing): refunds (whole, in parts, pending, failing
// later), disputes (one, several, inquiries, won and lost), early fraud warnings, the balance and
// its payouts. The sandbox's events go to a receiver of the test's (the shop's PUBLIC_URL), which
// sees each as the shop's webhook route would. The shop's own Stripe client (and the test's) reaches
// the sandbox through a proxy of the test's that records every request and its answer.

const cards = {
  plain: '4242424242424242',
  refundPending: '4000000000007726',
  refundFails: '4000000000005126',
  dispute: '4000000000000259',
  multipleDisputes: '4000000404000079',
  inquiry: '4000000000001976',
  fraudWarning: '4000000000005423',
};

/** Receives the sandbox's webhook deliveries. */
async function eventReceiver() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Exchange {
  method: string;
  /** Path and query string. */
  url: string;
  body: string;
  status: number;
  /** The answer's body, as JSON when it is. */
  answer: unknown;
}

/** Passes every request on to `target` (set once the shop listens) and records it with its answer. */
async function recordingProxy() {
  const exchanges: Exchange[] = [];
  const proxy = { target: '', origin: '', exchanges, close: () => Promise.resolve() };
  const read = (stream: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', reject);
    });
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const target = new URL(req.url!, proxy.target);
      // Uncompressed, so that the answer can be read here (fetch asks for gzip).
      const headers = { ...req.headers, host: target.host, 'accept-encoding': 'identity' };
      const forwarded = http.request(target, { method: req.method, headers });
      forwarded.end(body);
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
        forwarded.on('response', resolve).on('error', reject),
      );
      const text = await read(answer);
      const json = /^application\/json/.test(answer.headers['content-type'] ?? '');
      exchanges.push({
        method: req.method!,
        url: req.url!,
        body: body.toString('utf8'),
        status: answer.statusCode!,
        answer: json ? JSON.parse(text.toString('utf8')) : text.toString('utf8'),
      });
      res.writeHead(answer.statusCode!, answer.headers).end(text);
    })().catch((error: unknown) => {
      res.statusCode = 502;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

const unixNow = () => Math.floor(Date.now() / 1000);

/** A Stripe error the SDK throws, as a predicate for assert.rejects. */
const stripeError =
  (expected: { status?: number; code?: string; param?: string; message?: RegExp | string }) => (error: unknown) => {
    assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
    assert.equal(error.statusCode, expected.status ?? 400);
    assert.equal(error.type, 'StripeInvalidRequestError');
    if (expected.code !== undefined) assert.equal(error.code, expected.code);
    if (expected.param !== undefined) assert.equal(error.param, expected.param);
    if (typeof expected.message === 'string') assert.equal(error.message, expected.message);
    else if (expected.message) assert.match(error.message, expected.message);
    return true;
  };

describeApi('local Stripe sandbox: refunds, disputes, fraud warnings, the balance and payouts', (t) => {
  let receiver: Awaited<ReturnType<typeof eventReceiver>>;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let shop: ListeningShop;
  let stripe: Stripe;

  before(async () => {
    receiver = await eventReceiver();
    proxy = await recordingProxy();
    shop = await listenShop(t, (config) => {
      proxy.target = config.publicUrl;
      // Its PUBLIC_URL is the receiver; its Stripe (STRIPE_API_URL) the proxy to itself.
      return {
        publicUrl: receiver.origin,
        sandboxWebhookRetryMs: 20,
        stripe: { ...config.stripe, apiUrl: proxy.origin },
      };
    });
    // The adapter's client, the one the shop's own code uses.
    stripe = stripeClient(t.db, shop.config);
  });
  after(async () => {
    await shop.close();
    await proxy.close();
    await receiver.close();
  });

  /** Every event delivered since the last call, once nothing is left to send. */
  let seen = 0;
  async function newEvents(): Promise<Stripe.Event[]> {
    await eventually(
      async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
      'nothing left to send',
    );
    const fresh = receiver.bodies.slice(seen).map((body) => JSON.parse(body) as Stripe.Event);
    seen = receiver.bodies.length;
    return fresh;
  }
  /** The types of `events`, sorted: Stripe does not promise the order of its deliveries, nor does the sandbox. */
  const typesOf = (events: Stripe.Event[]) => events.map((event): string => event.type).sort();
  const only = (events: Stripe.Event[], type: string) => {
    const found = events.filter((event) => event.type === type);
    assert.equal(found.length, 1, `one ${type}`);
    return found[0];
  };
  // Each test sees only its own events.
  beforeEach(() => newEvents());

  /**
   * A payment with `card` on the sandbox's page, of 7,00 € (two papers and a tip) unless `amount`
   * says otherwise: the session, its payment intent and charge.
   */
  async function pay(card: string, client = stripe, amount?: number) {
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: amount
        ? [{ price_data: { currency: 'eur', unit_amount: amount, product_data: { name: 'Jahresabo' } }, quantity: 1 }]
        : [
            { price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } }, quantity: 2 },
            { price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'Trinkgeld' } }, quantity: 1 },
          ],
      metadata: { test: 'sandbox-lifecycle' },
      success_url: `${receiver.origin}/success?session_id={CHECKOUT_SESSION_ID}`,
    });
    await payInSandbox(shop.url, session.url!, card);
    const paid = await client.checkout.sessions.retrieve(session.id, { expand: ['payment_intent.latest_charge'] });
    const intent = paid.payment_intent as Stripe.PaymentIntent;
    return { session: paid, intent, charge: intent.latest_charge as Stripe.Charge };
  }

  it('4000 0000 0000 5126: the refund begins succeeded, later fails; the money comes back with a refund_failure balance transaction', async () => {
    const { intent, charge } = await pay(cards.refundFails);
    await newEvents();
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: `r-${charge.id}` });
    assert.equal(refund.status, 'succeeded', 'it begins as succeeded');
    assert.equal(refund.amount, 700);
    const refundTxn = await stripe.balanceTransactions.retrieve(refund.balance_transaction as string);
    assert.deepEqual(
      [refundTxn.type, refundTxn.amount, refundTxn.fee, refundTxn.net, refundTxn.source, refundTxn.reporting_category],
      ['refund', -700, 0, -700, refund.id, 'refund'],
    );
    assert.equal((await stripe.charges.retrieve(charge.id)).amount_refunded, 700);
    assert.deepEqual(typesOf(await newEvents()), ['charge.refunded', 'refund.created'].sort());

    const failed = (await finishRefund(t.db, shop.url, refund.id)) as unknown as Stripe.Refund;
    assert.deepEqual([failed.status, failed.failure_reason], ['failed', 'expired_or_canceled_card']);
    const read = await stripe.refunds.retrieve(refund.id, { expand: ['failure_balance_transaction'] });
    assert.equal(read.status, 'failed');
    const failure = read.failure_balance_transaction as Stripe.BalanceTransaction;
    assert.deepEqual(
      [failure.type, failure.amount, failure.net, failure.source, failure.reporting_category],
      ['refund_failure', 700, 700, refund.id, 'refund_failure'],
    );
    const after = await stripe.charges.retrieve(charge.id);
    assert.deepEqual([after.amount_refunded, after.refunded], [0, false], 'the charge’s refunded amount goes back');
    const events = await newEvents();
    assert.deepEqual(typesOf(events), ['refund.updated', 'charge.refund.updated', 'refund.failed'].sort());
    assert.deepEqual(only(events, 'refund.updated').data.previous_attributes, { status: 'succeeded' });
    assert.equal((only(events, 'refund.failed').data.object as Stripe.Refund).status, 'failed');

    await assert.rejects(finishRefund(t.db, shop.url, refund.id), /has nothing to finish/);
    // A new refund of the charge is possible again.
    const again = await stripe.refunds.create({ charge: charge.id, amount: 200 });
    assert.equal(again.status, 'succeeded');
  });

  it('4000 0000 0000 7726: the refund is pending until the sandbox finishes it, then succeeds (refund.updated)', async () => {
    const { intent } = await pay(cards.refundPending);
    await newEvents();
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    assert.equal(refund.status, 'pending');
    await newEvents();
    const done = (await finishRefund(t.db, shop.url, refund.id)) as unknown as Stripe.Refund;
    assert.equal(done.status, 'succeeded');
    assert.equal((await stripe.refunds.retrieve(refund.id)).status, 'succeeded');
    const events = await newEvents();
    assert.deepEqual(typesOf(events), ['refund.updated', 'charge.refund.updated'].sort());
    assert.deepEqual(only(events, 'refund.updated').data.previous_attributes, { status: 'pending' });
    await assert.rejects(finishRefund(t.db, shop.url, refund.id), /has nothing to finish/);

    // Any other card's refund succeeds at once and has nothing to finish.
    const plain = await pay(cards.plain);
    const other = await stripe.refunds.create({ payment_intent: plain.intent.id });
    assert.equal(other.status, 'succeeded');
    await assert.rejects(finishRefund(t.db, shop.url, other.id), /has nothing to finish/);
  });

  it('refunds in parts: each with its own balance transaction and events, never beyond what is left (Stripe’s message)', async () => {
    const { intent, charge } = await pay(cards.plain);
    await newEvents();
    const first = await stripe.refunds.create({
      payment_intent: intent.id,
      amount: 300,
      reason: 'requested_by_customer',
    });
    assert.deepEqual([first.amount, first.status, first.reason], [300, 'succeeded', 'requested_by_customer']);
    let events = await newEvents();
    assert.deepEqual(typesOf(events), ['charge.refunded', 'refund.created'].sort());
    const refunded = only(events, 'charge.refunded');
    assert.deepEqual(refunded.data.previous_attributes, { amount_refunded: 0, refunded: false });
    const chargeNow = refunded.data.object as Stripe.Charge;
    assert.deepEqual([chargeNow.amount_refunded, chargeNow.refunded], [300, false]);

    await assert.rejects(
      stripe.refunds.create({ payment_intent: intent.id, amount: 500 }),
      stripeError({
        param: 'amount',
        message: 'Refund amount (€5.00) is greater than unrefunded amount on charge (€4.00)',
      }),
    );
    // Someone in Stripe's Dashboard refunds 1,00 € of it (a JSON body), then the rest (a form body).
    const dashboard = await dashboardRefund(t.db, shop.url, intent.id, 100);
    assert.deepEqual([dashboard.amount, dashboard.metadata], [100, {}]);
    const rest = await shop.http
      .post(`/stripe-sandbox/payment_intents/${intent.id}/dashboard-refund`)
      .set('Authorization', `Bearer ${(await sandboxCredentials(t.db)).secretKey}`)
      .type('form')
      .send({ amount: '300' });
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    events = await newEvents();
    assert.deepEqual(
      typesOf(events),
      ['charge.refunded', 'refund.created', 'charge.refunded', 'refund.created'].sort(),
    );

    const after = await stripe.charges.retrieve(charge.id);
    assert.deepEqual([after.amount_refunded, after.refunded], [700, true]);
    await assert.rejects(
      stripe.refunds.create({ payment_intent: intent.id }),
      stripeError({ code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` }),
    );
    const refunds = await stripe.refunds.list({ charge: charge.id });
    assert.deepEqual(
      refunds.data.map((r) => r.amount),
      [300, 100, 300],
      'newest first',
    );
    const txns = await Promise.all(
      refunds.data.map((r) => stripe.balanceTransactions.retrieve(r.balance_transaction as string)),
    );
    assert.deepEqual(
      txns.map((txn) => [txn.type, txn.amount, txn.source]),
      refunds.data.map((r) => ['refund', -r.amount, r.id]),
    );
    assert.equal(new Set(txns.map((txn) => txn.id)).size, 3, 'one balance transaction per refund');
    const paged = await stripe.refunds.list({ charge: charge.id, limit: 2, starting_after: refunds.data[0].id });
    assert.deepEqual(
      paged.data.map((r) => r.id),
      refunds.data.slice(1).map((r) => r.id),
    );
  });

  it('the card’s bank acts a minute after the payment, not with it: 0259’s dispute and 5423’s fraud warning come later, or at once when the clock is hurried', async () => {
    const disputed = await pay(cards.dispute);
    const warned = await pay(cards.fraudWarning);
    assert.deepEqual(typesOf(await newEvents()), ['checkout.session.completed', 'checkout.session.completed']);
    assert.deepEqual((await stripe.disputes.list({ charge: disputed.charge.id })).data, [], 'no dispute yet');
    assert.deepEqual((await stripe.radar.earlyFraudWarnings.list({ charge: warned.charge.id })).data, []);
    assert.equal(await doBankActions(t.db, shop.config), 0, 'nothing is due within the minute');

    // A minute passes for the dispute (its due time set back): the running server's round opens it.
    await t.db.raw(
      `update stripe_sandbox_objects set data = jsonb_set(data, '{due}', to_jsonb((data->>'due')::int - 60))
        where type = 'sandbox_scheduled' and data->>'charge' = ?`,
      [disputed.charge.id],
    );
    assert.equal(await doBankActions(t.db, shop.config), 1);
    const [dispute] = (await stripe.disputes.list({ charge: disputed.charge.id })).data;
    assert.equal(dispute?.status, 'needs_response');
    assert.deepEqual(typesOf(await newEvents()), ['charge.dispute.created', 'charge.dispute.funds_withdrawn'].sort());

    // A test hurries the sandbox's clock instead of waiting.
    assert.equal(await bankActsNow(t.db, shop.url), 1);
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ charge: warned.charge.id })).data;
    assert.equal(warning?.actionable, true);
    assert.deepEqual(typesOf(await newEvents()), ['radar.early_fraud_warning.created']);
    assert.equal(await bankActsNow(t.db, shop.url), 0, 'each bank acts once');
  });

  it('4000 0000 0000 0259: a chargeback takes the amount and the fee; no refund while it stands; won, the amount and the countered-dispute fee come back, the dispute fee does not', async () => {
    const { intent, charge } = await pay(cards.dispute);
    await bankActsNow(t.db, shop.url);
    assert.deepEqual(
      typesOf(await newEvents()),
      ['checkout.session.completed', 'charge.dispute.created', 'charge.dispute.funds_withdrawn'].sort(),
    );
    const [dispute] = (await stripe.disputes.list({ payment_intent: intent.id })).data;
    assert.ok(dispute);
    assert.deepEqual(
      [dispute.status, dispute.amount, dispute.charge, dispute.is_charge_refundable],
      ['needs_response', 700, charge.id, false],
    );
    assert.equal((await stripe.charges.retrieve(charge.id)).disputed, true);
    const [withdrawal] = dispute.balance_transactions;
    assert.deepEqual(
      [
        withdrawal?.type,
        withdrawal?.reporting_category,
        withdrawal?.amount,
        withdrawal?.fee,
        withdrawal?.net,
        withdrawal?.source,
      ],
      ['adjustment', 'dispute', -700, SANDBOX_DISPUTE_FEE, -700 - SANDBOX_DISPUTE_FEE, dispute.id],
    );
    assert.deepEqual(
      await stripe.balanceTransactions.retrieve(withdrawal.id),
      withdrawal,
      'a balance transaction of its own',
    );

    await assert.rejects(
      stripe.refunds.create({ payment_intent: intent.id }),
      stripeError({
        code: 'charge_disputed',
        message: `Charge ${charge.id} has been charged back; cannot issue a refund.`,
      }),
    );

    const won = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: 'winning_evidence' },
      submit: true,
    });
    assert.equal(won.status, 'won');
    const [, countered, reinstated] = won.balance_transactions;
    assert.deepEqual(
      [countered?.reporting_category, countered?.amount, countered?.fee, countered?.source],
      ['dispute', 0, SANDBOX_COUNTERED_DISPUTE_FEE, dispute.id],
      'countering costs the countered-dispute fee',
    );
    assert.deepEqual(
      [reinstated?.type, reinstated?.reporting_category, reinstated?.amount, reinstated?.fee, reinstated?.net],
      ['adjustment', 'dispute_reversal', 700, -SANDBOX_COUNTERED_DISPUTE_FEE, 700 + SANDBOX_COUNTERED_DISPUTE_FEE],
      'the amount and the countered-dispute fee back; the fee for receiving the dispute stays taken',
    );
    assert.deepEqual(reinstated.fee_details, [
      {
        amount: -SANDBOX_COUNTERED_DISPUTE_FEE,
        application: null,
        currency: 'eur',
        description: 'Countered dispute fee refund',
        type: 'stripe_fee',
      },
    ]);
    assert.equal(
      won.balance_transactions.reduce((sum, txn) => sum + txn.net, 0),
      -SANDBOX_DISPUTE_FEE,
      'a dispute won costs the fee for receiving it',
    );
    const events = await newEvents();
    assert.deepEqual(
      typesOf(events),
      ['charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_reinstated'].sort(),
    );
    await assert.rejects(
      stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'losing_evidence' }, submit: true }),
      /already closed/,
    );
    // Won, the money is back: the charge can be refunded again.
    assert.equal((await stripe.refunds.create({ payment_intent: intent.id, amount: 100 })).status, 'succeeded');

    // Lost (or accepted): the money stays gone.
    const lost = await pay(cards.dispute);
    await bankActsNow(t.db, shop.url);
    const [second] = (await stripe.disputes.list({ charge: lost.charge.id })).data;
    const closed = await stripe.disputes.close(second.id);
    assert.deepEqual([closed.status, closed.balance_transactions.length], ['lost', 1]);
  });

  it('a request Stripe refused answers the same error under its idempotency key for a day, even once it would succeed; a parameter error keeps no key', async () => {
    const { intent, charge } = await pay(cards.dispute);
    await bankActsNow(t.db, shop.url);
    const [dispute] = (await stripe.disputes.list({ charge: charge.id })).data;
    const key = `refund-${charge.id}`;
    const refused = stripeError({ code: 'charge_disputed' });
    await assert.rejects(stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key }), refused);
    await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'winning_evidence' }, submit: true });
    await assert.rejects(stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: key }), (error) => {
      refused(error);
      assert.equal((error as Stripe.errors.StripeError).headers?.['idempotent-replayed'], 'true');
      return true;
    });
    await assert.rejects(
      stripe.refunds.create({ payment_intent: intent.id, amount: 100 }, { idempotencyKey: key }),
      (error) => error instanceof Stripe.errors.StripeIdempotencyError && error.statusCode === 400,
    );
    const fresh = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: `${key}-again` });
    assert.equal(fresh.status, 'succeeded', 'a new key is a new request');

    const other = await pay(cards.plain);
    const invalid = `refund-${other.charge.id}`;
    await assert.rejects(
      stripe.refunds.create({}, { idempotencyKey: invalid }),
      stripeError({ param: 'payment_intent' }),
    );
    const valid = await stripe.refunds.create({ payment_intent: other.intent.id }, { idempotencyKey: invalid });
    assert.equal(valid.status, 'succeeded', 'parameters that failed validation left the key free');
  });

  it('4000 0004 0400 0079: several disputes on one charge, each with its own id and withdrawal', async () => {
    const { charge } = await pay(cards.multipleDisputes);
    await bankActsNow(t.db, shop.url);
    const disputes = (await stripe.disputes.list({ charge: charge.id })).data;
    assert.ok(disputes.length >= 2, `${disputes.length} disputes`);
    assert.equal(new Set(disputes.map((d) => d.id)).size, disputes.length);
    for (const dispute of disputes) {
      assert.equal(dispute.status, 'needs_response');
      assert.deepEqual(
        dispute.balance_transactions.map((txn) => [txn.amount, txn.fee, txn.source]),
        [[-dispute.amount, SANDBOX_DISPUTE_FEE, dispute.id]],
      );
    }
    const types = typesOf(await newEvents()).filter((type) => type.startsWith('charge.dispute.'));
    assert.deepEqual(
      types,
      disputes.flatMap(() => ['charge.dispute.created', 'charge.dispute.funds_withdrawn']).sort(),
    );
  });

  it('4000 0000 0000 1976: an inquiry withdraws nothing and closes as warning_closed; escalated, it becomes a chargeback', async () => {
    const { charge } = await pay(cards.inquiry);
    await bankActsNow(t.db, shop.url);
    const [inquiry] = (await stripe.disputes.list({ charge: charge.id })).data;
    assert.deepEqual(
      [inquiry?.status, inquiry?.balance_transactions, inquiry?.is_charge_refundable],
      ['warning_needs_response', [], true],
    );
    assert.deepEqual(typesOf(await newEvents()), ['checkout.session.completed', 'charge.dispute.created'].sort());
    const closed = await stripe.disputes.update(inquiry.id, {
      evidence: { uncategorized_text: 'winning_evidence' },
      submit: true,
    });
    assert.deepEqual([closed.status, closed.balance_transactions], ['warning_closed', []]);
    assert.deepEqual(typesOf(await newEvents()), ['charge.dispute.updated', 'charge.dispute.closed'].sort());

    // The bank asks about another charge (the sandbox's action), then escalates it.
    const other = await pay(cards.plain);
    await newEvents();
    const asked = (await disputeCharge(t.db, shop.url, other.charge.id, {
      inquiry: true,
    })) as unknown as Stripe.Dispute;
    assert.equal(asked.status, 'warning_needs_response');
    const escalated = await stripe.disputes.update(asked.id, {
      evidence: { uncategorized_text: 'escalate_inquiry_evidence' },
      submit: true,
    });
    assert.equal(escalated.status, 'needs_response');
    assert.deepEqual(
      escalated.balance_transactions.map((txn) => [txn.amount, txn.fee]),
      [[-700, SANDBOX_DISPUTE_FEE]],
    );
    assert.deepEqual(
      typesOf(await newEvents()),
      ['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.funds_withdrawn'].sort(),
    );

    // Refunding a charge under an inquiry in full resolves it.
    const third = await pay(cards.inquiry);
    await bankActsNow(t.db, shop.url);
    await stripe.refunds.create({ payment_intent: third.intent.id });
    const [resolved] = (await stripe.disputes.list({ charge: third.charge.id })).data;
    assert.equal(resolved?.status, 'warning_closed');
  });

  it('a refunded charge can still be disputed (the sandbox’s dispute action); a dispute of part of it, with its reason', async () => {
    const { intent, charge } = await pay(cards.plain);
    await stripe.refunds.create({ payment_intent: intent.id });
    await newEvents();
    const dispute = (await disputeCharge(t.db, shop.url, charge.id)) as unknown as Stripe.Dispute;
    assert.deepEqual([dispute.status, dispute.amount, dispute.charge], ['needs_response', 700, charge.id]);
    assert.deepEqual(typesOf(await newEvents()), ['charge.dispute.created', 'charge.dispute.funds_withdrawn'].sort());
    const part = (await disputeCharge(t.db, shop.url, charge.id, {
      amount: 200,
      reason: 'product_not_received',
    })) as unknown as Stripe.Dispute;
    assert.deepEqual([part.amount, part.reason], [200, 'product_not_received']);
    await assert.rejects(disputeCharge(t.db, shop.url, charge.id, { amount: 701 }), /HTTP 400/);
    await assert.rejects(disputeCharge(t.db, shop.url, 'ch_missing'), /HTTP 404.*No such charge/);
  });

  it('4000 0000 0000 5423: an early fraud warning (issfr_…), retrievable and listed; a full refund makes it not actionable', async () => {
    const { intent, charge } = await pay(cards.fraudWarning);
    await bankActsNow(t.db, shop.url);
    const events = await newEvents();
    assert.deepEqual(typesOf(events), ['checkout.session.completed', 'radar.early_fraud_warning.created'].sort());
    const sent = only(events, 'radar.early_fraud_warning.created').data.object as Stripe.Radar.EarlyFraudWarning;
    assert.match(sent.id, /^issfr_[A-Za-z0-9]{24}$/);
    assert.deepEqual([sent.actionable, sent.charge, sent.payment_intent], [true, charge.id, intent.id]);
    assert.ok(sent.fraud_type);
    const read = await stripe.radar.earlyFraudWarnings.retrieve(sent.id);
    assert.deepEqual(read, sent);
    assert.deepEqual(
      (await stripe.radar.earlyFraudWarnings.list({ charge: charge.id })).data.map((w) => w.id),
      [sent.id],
    );
    assert.equal((await pay(cards.plain)).charge.paid, true);
    await newEvents();
    assert.equal((await stripe.disputes.list({ charge: charge.id })).data.length, 0, 'a warning is no dispute');

    await stripe.refunds.create({ payment_intent: intent.id });
    assert.equal((await stripe.radar.earlyFraudWarnings.retrieve(sent.id)).actionable, false);
    assert.deepEqual(
      typesOf(await newEvents()),
      ['charge.refunded', 'refund.created', 'radar.early_fraud_warning.updated'].sort(),
    );
  });

  it('the balance, its transactions and an automatic payout of all of it', async () => {
    await t.reset();
    const before = unixNow();
    await assert.rejects(payOutBalance(t.db, shop.url), /nothing to pay out/);
    const one = await pay(cards.plain, stripe, 10_000);
    const two = await pay(cards.plain);
    const refund = await stripe.refunds.create({ payment_intent: two.intent.id, amount: 200 });
    const disputed = await pay(cards.dispute);
    await bankActsNow(t.db, shop.url);
    await newEvents();

    const all = await stripe.balanceTransactions.list({ limit: 100 });
    assert.deepEqual(
      all.data.map((txn) => [txn.type, txn.amount]),
      [
        ['adjustment', -700],
        ['charge', 700],
        ['refund', -200],
        ['charge', 700],
        ['charge', 10_000],
      ],
      'every movement, newest first',
    );
    assert.deepEqual(
      all.data.filter((txn) => txn.type === 'charge').map((txn) => [txn.fee, txn.status]),
      [
        [36, 'pending'],
        [36, 'pending'],
        [175, 'pending'],
      ],
      '1.5 % + 0,25 €, available in two days',
    );
    const balance = await stripe.balance.retrieve();
    const chargesNet = 10_000 - 175 + 2 * (700 - 36);
    assert.deepEqual(balance.pending, [{ amount: chargesNet, currency: 'eur', source_types: { card: chargesNet } }]);
    const availableNow = -200 - 700 - SANDBOX_DISPUTE_FEE;
    assert.deepEqual(balance.available, [
      { amount: availableNow, currency: 'eur', source_types: { card: availableNow } },
    ]);

    // Filters and pages, as Stripe has them.
    assert.deepEqual(
      (await stripe.balanceTransactions.list({ type: 'charge' })).data.map((txn) => txn.source),
      [disputed.charge.id, two.charge.id, one.charge.id],
    );
    assert.deepEqual(
      (await stripe.balanceTransactions.list({ source: refund.id })).data.map((txn) => txn.id),
      [refund.balance_transaction],
    );
    assert.equal((await stripe.balanceTransactions.list({ created: { gte: before } })).data.length, 5);
    assert.equal((await stripe.balanceTransactions.list({ created: { lt: before } })).data.length, 0);
    const firstPage = await stripe.balanceTransactions.list({ limit: 2 });
    assert.equal(firstPage.has_more, true);
    const secondPage = await stripe.balanceTransactions.list({ limit: 2, starting_after: firstPage.data[1].id });
    assert.deepEqual(
      [...firstPage.data, ...secondPage.data].map((txn) => txn.id),
      all.data.slice(0, 4).map((txn) => txn.id),
    );

    // Stripe creates the payout pending and takes the money from the balance at once.
    const created = (await payOutBalance(t.db, shop.url, { settle: false })) as unknown as Stripe.Payout;
    const total = chargesNet + availableNow;
    assert.match(created.id, /^po_/);
    assert.deepEqual(
      [created.object, created.amount, created.currency, created.status, created.automatic],
      ['payout', total, 'eur', 'pending', true],
    );
    assert.ok(created.arrival_date > unixNow(), 'it arrives on a later day');
    assert.deepEqual(typesOf(await newEvents()), ['payout.created']);
    const leaving = await stripe.balance.retrieve();
    assert.deepEqual([leaving.available[0]?.amount, leaving.pending[0]?.amount], [0, 0], 'the balance is on its way');
    assert.equal(await doBankActions(t.db, shop.config), 0, 'nothing happens to it within the hour');
    assert.equal((await stripe.payouts.list({ status: 'pending' })).data.length, 1);

    // The bank has it, then it arrives: pending → in_transit → paid.
    const payout = (await settlePayout(t.db, shop.url, created.id)) as unknown as Stripe.Payout;
    assert.deepEqual([payout.status, payout.reconciliation_status], ['paid', 'completed']);
    const lifecycle = await newEvents();
    assert.deepEqual(typesOf(lifecycle), [
      'payout.paid',
      'payout.reconciliation_completed',
      'payout.updated',
      'payout.updated',
    ]);
    assert.deepEqual(
      lifecycle
        .filter((event) => event.type === 'payout.updated')
        .map((event) => [(event.data.previous_attributes as { status?: string }).status, event.data.object.status])
        .sort(),
      [
        ['in_transit', 'paid'],
        ['pending', 'in_transit'],
      ],
    );
    const payoutTxn = await stripe.balanceTransactions.retrieve(payout.balance_transaction as string);
    assert.deepEqual([payoutTxn.type, payoutTxn.amount, payoutTxn.source], ['payout', -total, payout.id]);
    const paidOut = await stripe.balanceTransactions.list({ payout: payout.id, limit: 100 });
    assert.deepEqual(
      paidOut.data.map((txn) => txn.id).sort(),
      [...all.data.map((txn) => txn.id), payoutTxn.id].sort(),
      'what the payout settled, and the payout itself',
    );
    assert.equal(
      paidOut.data.reduce((sum, txn) => sum + txn.net, 0),
      0,
      'it pays out exactly their net',
    );
    assert.ok(paidOut.data.every((txn) => txn.status === 'available'));
    const after = await stripe.balance.retrieve();
    assert.deepEqual([after.available[0]?.amount, after.pending[0]?.amount], [0, 0], 'nothing left');
    assert.deepEqual(await stripe.payouts.retrieve(payout.id), payout);
    assert.deepEqual(
      (await stripe.payouts.list()).data.map((p) => p.id),
      [payout.id],
    );
    await assert.rejects(payOutBalance(t.db, shop.url), /nothing to pay out/);
    await assert.rejects(
      stripe.balanceTransactions.list({ payout: 'po_missing' }),
      stripeError({ code: 'resource_missing', param: 'payout' }),
    );

    // Later money goes into the next payout, not the first one's list.
    await pay(cards.plain);
    const next = (await payOutBalance(t.db, shop.url)) as unknown as Stripe.Payout;
    assert.equal(next.amount, 700 - 36);
    assert.equal((await stripe.balanceTransactions.list({ payout: payout.id, limit: 100 })).data.length, 6);
    assert.deepEqual(
      (await stripe.payouts.list()).data.map((p) => p.id),
      [next.id, payout.id],
    );
  });

  it('a payout to Stripe’s test IBAN of a closed account fails on its arrival day and its money comes back', async () => {
    await t.reset();
    await pay(cards.plain, stripe, 10_000);
    const created = (await payOutBalance(t.db, shop.url, {
      iban: closedAccountIban,
      settle: false,
    })) as unknown as Stripe.Payout;
    assert.equal(created.status, 'pending');
    await newEvents();
    const failed = (await settlePayout(t.db, shop.url, created.id)) as unknown as Stripe.Payout;
    assert.deepEqual(
      [failed.status, failed.failure_code, failed.failure_message],
      ['failed', 'account_closed', 'The bank account has been closed.'],
    );
    assert.deepEqual(typesOf(await newEvents()), ['payout.failed', 'payout.updated', 'payout.updated']);
    const returned = await stripe.balanceTransactions.retrieve(failed.failure_balance_transaction as string);
    assert.deepEqual(
      [returned.type, returned.reporting_category, returned.amount, returned.source],
      ['payout_failure', 'payout_reversal', failed.amount, failed.id],
    );
    const balance = await stripe.balance.retrieve();
    assert.equal(balance.available[0]?.amount, failed.amount, 'the money is back in the balance');
    assert.equal((await stripe.payouts.list({ status: 'failed' })).data.length, 1);

    // It goes out with the next payout, to a bank account that takes it.
    const next = (await payOutBalance(t.db, shop.url)) as unknown as Stripe.Payout;
    assert.deepEqual([next.status, next.amount], ['paid', failed.amount]);
    assert.deepEqual((await stripe.balanceTransactions.list({ payout: next.id })).data.map((txn) => txn.type).sort(), [
      'payout',
      'payout_failure',
    ]);
    await assert.rejects(payOutBalance(t.db, shop.url, { iban: 'not an iban' }), /Invalid IBAN/);
  });

  it('Checkout’s ui_mode as the pinned API version has it: hosted_page by default and on request; others refused', async () => {
    const params = {
      mode: 'payment' as const,
      line_items: [
        { price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } }, quantity: 1 },
      ],
      success_url: `${receiver.origin}/success`,
    };
    assert.equal((await stripe.checkout.sessions.create(params)).ui_mode, 'hosted_page');
    assert.equal((await stripe.checkout.sessions.create({ ...params, ui_mode: 'hosted_page' })).ui_mode, 'hosted_page');
    await assert.rejects(
      stripe.checkout.sessions.create({ ...params, ui_mode: 'hosted' }),
      stripeError({
        param: 'ui_mode',
        message: 'Invalid ui_mode: must be one of elements, embedded_page, form, or hosted_page',
      }),
    );
    await assert.rejects(
      stripe.checkout.sessions.create({ ...params, ui_mode: 'embedded_page' }),
      stripeError({ param: 'ui_mode', message: /shows only the hosted page/ }),
    );
  });

  it('every object it answers or sends, and every request the SDK sends it, in the whole lifecycle fits the pinned stripe-node types', async function () {
    this.timeout(120_000);
    // Everything from here on goes through the proxy: the test's SDK (with the fetch client), the
    // shop's own client (Node's http) and the sandbox's actions.
    const from = proxy.exchanges.length;
    const { hostname, port } = new URL(proxy.origin);
    const key = (await sandboxCredentials(t.db)).secretKey;
    const sdk = new Stripe(key, {
      host: hostname,
      port: Number(port),
      protocol: 'http',
      apiVersion: STRIPE_API_VERSION,
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 0,
      telemetry: false,
    });
    await newEvents();
    const action = (path: string, body: Record<string, string | number | boolean> = {}) =>
      sandboxAction(t.db, proxy.origin, path, body);
    const expandAll = { expand: ['payment_intent.latest_charge.balance_transaction'] };

    // Every card and action of the lifecycle, and a payment large enough that there is money to pay out.
    await pay(cards.plain, sdk, 100_000);
    const failing = await pay(cards.refundFails, sdk);
    const refund = await sdk.refunds.create({ payment_intent: failing.intent.id, amount: 300 });
    await action(`/stripe-sandbox/refunds/${refund.id}/finish`);
    await sdk.refunds.retrieve(refund.id, { expand: ['failure_balance_transaction', 'balance_transaction', 'charge'] });
    const pending = await pay(cards.refundPending, sdk);
    const pendingRefund = await sdk.refunds.create({ payment_intent: pending.intent.id });
    await action(`/stripe-sandbox/refunds/${pendingRefund.id}/finish`);
    await action(`/stripe-sandbox/payment_intents/${failing.intent.id}/dashboard-refund`, { amount: 100 });
    await sdk.refunds.list({ charge: failing.charge.id });
    const disputed = await pay(cards.dispute, sdk);
    await bankActsNow(t.db, shop.url);
    const [dispute] = (await sdk.disputes.list({ charge: disputed.charge.id })).data;
    await sdk.disputes.update(dispute.id, { evidence: { uncategorized_text: 'winning_evidence' }, submit: true });
    const several = await pay(cards.multipleDisputes, sdk);
    await bankActsNow(t.db, shop.url);
    const [, second] = (await sdk.disputes.list({ charge: several.charge.id, expand: ['data.charge'] })).data;
    await sdk.disputes.close(second.id);
    const inquiry = await pay(cards.inquiry, sdk);
    await bankActsNow(t.db, shop.url);
    const [asked] = (await sdk.disputes.list({ charge: inquiry.charge.id })).data;
    await sdk.disputes.update(asked.id, {
      evidence: { uncategorized_text: 'escalate_inquiry_evidence' },
      submit: true,
    });
    const warned = await pay(cards.fraudWarning, sdk);
    await bankActsNow(t.db, shop.url);
    const [warning] = (await sdk.radar.earlyFraudWarnings.list({ charge: warned.charge.id })).data;
    await sdk.radar.earlyFraudWarnings.retrieve(warning.id, { expand: ['charge', 'payment_intent'] });
    await sdk.refunds.create({ payment_intent: warned.intent.id });
    const plain = await pay(cards.plain, sdk);
    await sdk.refunds.create({ payment_intent: plain.intent.id });
    await action(`/stripe-sandbox/charges/${plain.charge.id}/dispute`);
    await action(`/stripe-sandbox/charges/${warned.charge.id}/dispute`, { inquiry: true });
    await sdk.checkout.sessions.retrieve(plain.session.id, expandAll);
    await sdk.paymentIntents.retrieve(plain.intent.id, { expand: ['latest_charge'] });
    await sdk.charges.retrieve(plain.charge.id, { expand: ['balance_transaction'] });
    await sdk.balanceTransactions.retrieve(plain.charge.balance_transaction as string);
    await sdk.balance.retrieve();
    const bounced = (await action('/stripe-sandbox/payouts', { iban: closedAccountIban })) as { id: string };
    await settlePayout(t.db, shop.url, bounced.id);
    const payout = (await action('/stripe-sandbox/payouts')) as { id: string };
    await sdk.payouts.retrieve(payout.id, { expand: ['balance_transaction'] });
    await settlePayout(t.db, shop.url, payout.id);
    await sdk.payouts.retrieve(payout.id, { expand: ['balance_transaction', 'failure_balance_transaction'] });
    await sdk.payouts.retrieve(bounced.id, { expand: ['failure_balance_transaction'] });
    await sdk.payouts.list();
    await sdk.balanceTransactions.list({ payout: payout.id, limit: 100 });
    const txns = await sdk.balanceTransactions.list({ limit: 100, expand: ['data.source'] });
    assert.deepEqual([...new Set(txns.data.map((txn) => txn.type))].sort(), [
      'adjustment',
      'charge',
      'payout',
      'payout_failure',
      'refund',
      'refund_failure',
    ]);

    // The requests our own code builds: an order placed (its Checkout Session), paid and settled
    // (the session read back), refunded by staff; an unpaid order whose time is up (its session
    // expired); the sweeps of refunds, disputes and payouts; the reconciliation with Stripe's balance.
    const office = await t.office();
    const order = await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 1 }, tip: 100 });
    const refunded = await shop.http.post(`/api/orders/${order.id}/refund/`).set('Authorization', office);
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    const unpaid = await placeMainOrder(shop, t.db);
    await t
      .db('orders')
      .where({ id: unpaid.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    await reconcilePending(t.db, shop.config, { startedAt: new Date() });
    assert.equal((await t.db('orders').where({ id: unpaid.id }).first()).status, 'expired');
    assert.equal((await sweepStripeChanges(t.db, shop.config)).failed, 0);
    assert.equal((await sweepStripePayouts(t.db, shop.config)).failed, 0);
    const day = 24 * 60 * 60 * 1000;
    await reconcileStripe(t.db, shop.config, { from: new Date(Date.now() - day), to: new Date(Date.now() + day) });

    const events = await newEvents();
    for (const type of [
      'refund.failed',
      'charge.refund.updated',
      'charge.dispute.funds_withdrawn',
      'charge.dispute.funds_reinstated',
      'radar.early_fraud_warning.created',
      'radar.early_fraud_warning.updated',
      'payout.created',
      'payout.updated',
      'payout.paid',
      'payout.failed',
    ])
      assert.ok(typesOf(events).includes(type), `${type} was sent`);
    // The shop's webhook route gets them all, as Stripe would send them: it reads refunds, a charge's
    // refunds, disputes, fraud warnings and payouts back.
    const { webhookSecret } = await sandboxCredentials(t.db);
    for (const event of events) {
      const payload = JSON.stringify(event);
      const res = await shop.http
        .post('/api/webhooks/stripe')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }))
        .send(payload);
      assert.ok(res.status < 300, `${event.type}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    }
    // `npm run stripe-setup` (created, then brought back in line), and the endpoint's own calls.
    const app = stripeClient(t.db, shop.config);
    const made = await setupWebhookEndpoint(app, shop.config.publicUrl);
    assert.equal(made.action, 'created');
    await sdk.webhookEndpoints.update(made.endpoint.id, { disabled: true });
    assert.equal((await setupWebhookEndpoint(app, shop.config.publicUrl)).action, 'updated');
    await sdk.webhookEndpoints.retrieve(made.endpoint.id);
    await sdk.webhookEndpoints.del(made.endpoint.id);
    await shop.idle();
    const exchanges = proxy.exchanges.slice(from);

    const problems: string[] = [];
    for (const { method, url, answer } of exchanges)
      if (typeof answer === 'object') problems.push(...(await stripeShapeProblems(answer, `${method} ${url}`)));
    for (const event of events) problems.push(...(await stripeShapeProblems(event, `event ${event.type}`)));
    assert.deepEqual(problems, [], 'fields the pinned types do not have');

    // The lifecycle's own objects have every field their type requires, too.
    const lifecycle = [
      'refund',
      'dispute',
      'balance_transaction',
      'payout',
      'radar.early_fraud_warning',
      'balance',
      'charge',
    ];
    const missing: string[] = [];
    for (const { method, url, answer } of exchanges)
      if (typeof answer === 'object')
        missing.push(...(await stripeShapeProblems(answer, `${method} ${url}`, lifecycle)));
    for (const event of events) missing.push(...(await stripeShapeProblems(event, `event ${event.type}`, lifecycle)));
    assert.deepEqual([...new Set(missing)], [], 'fields their types require');

    // Every request to Stripe's API, the SDK's parameters by the type of the method that sent them:
    // no parameter the type does not name (at any depth), none it requires missing, numbers and
    // booleans as the form encoding writes them. The sandbox's own routes (/stripe-sandbox/…, not
    // Stripe's: its page and its actions) are not checked.
    const wrong: string[] = [];
    const skipped: string[] = [];
    for (const exchange of exchanges) {
      const found = await stripeRequestProblems(exchange);
      if (found) wrong.push(...found);
      else skipped.push(`${exchange.method} ${new URL(exchange.url, proxy.origin).pathname}`);
    }
    assert.deepEqual(wrong, [], 'requests that do not fit the pinned parameters types');
    // The staff refund's request as our code sent it is found out with one parameter more (the
    // sandbox itself refuses unknown parameters, so none can go over the wire).
    const staffRefund = exchanges.find(
      ({ url, body }) => url === '/v1/refunds' && body.includes('metadata[requested_by]'),
    );
    assert.ok(staffRefund, 'the refund route asked Stripe');
    assert.deepEqual(await stripeRequestProblems({ ...staffRefund, body: `${staffRefund.body}&colour=red` }), [
      'POST /v1/refunds (Stripe.RefundCreateParams): colour: not a parameter of RefundCreateParams',
    ]);
    assert.ok(skipped.length > 0 && skipped.every((request) => / \/stripe-sandbox\//.test(request)), String(skipped));
    const checked = new Set(
      exchanges.map(({ method, url }) => stripeParamsType(method, new URL(url, proxy.origin).pathname)),
    );
    checked.delete(undefined);
    assert.deepEqual([...checked].sort(), [
      'Stripe.BalanceRetrieveParams',
      'Stripe.BalanceTransactionListParams',
      'Stripe.BalanceTransactionRetrieveParams',
      'Stripe.ChargeRetrieveParams',
      'Stripe.Checkout.SessionCreateParams',
      'Stripe.Checkout.SessionExpireParams',
      'Stripe.Checkout.SessionRetrieveParams',
      'Stripe.DisputeCloseParams',
      'Stripe.DisputeListParams',
      'Stripe.DisputeRetrieveParams',
      'Stripe.DisputeUpdateParams',
      'Stripe.PaymentIntentRetrieveParams',
      'Stripe.PayoutListParams',
      'Stripe.PayoutRetrieveParams',
      'Stripe.Radar.EarlyFraudWarningListParams',
      'Stripe.Radar.EarlyFraudWarningRetrieveParams',
      'Stripe.RefundCreateParams',
      'Stripe.RefundListParams',
      'Stripe.RefundRetrieveParams',
      'Stripe.WebhookEndpointCreateParams',
      'Stripe.WebhookEndpointDeleteParams',
      'Stripe.WebhookEndpointListParams',
      'Stripe.WebhookEndpointRetrieveParams',
      'Stripe.WebhookEndpointUpdateParams',
    ]);
  });

  it('the request check finds a parameter the pinned type does not have, a missing required one and a value of the wrong type', async () => {
    assert.deepEqual(await stripeParamsProblems({ colour: 'red' }, 'Stripe.RefundCreateParams', 'planted'), [
      'planted: colour: not a parameter of RefundCreateParams',
    ]);
    assert.deepEqual(
      await stripeRequestProblems({
        method: 'POST',
        url: '/v1/checkout/sessions',
        body: 'mode=payment&line_items[0][price_data][currency]=eur&line_items[0][price_data][unit_amount]=3.00%20%E2%82%AC&line_items[0][price_data][product_data][colour]=red&line_items[0][quantity]=1',
      }),
      [
        'POST /v1/checkout/sessions (Stripe.Checkout.SessionCreateParams): line_items[0][price_data][unit_amount]: "3.00 €" is not a number',
        'POST /v1/checkout/sessions (Stripe.Checkout.SessionCreateParams): line_items[0][price_data][product_data][colour]: not a parameter of ProductData',
        'POST /v1/checkout/sessions (Stripe.Checkout.SessionCreateParams): line_items[0][price_data][product_data][name]: missing, ProductData requires it',
      ],
    );
    assert.deepEqual(
      await stripeRequestProblems({ method: 'GET', url: '/v1/disputes?created[gte]=soon&expand[]=data.charge' }),
      ['GET /v1/disputes (Stripe.DisputeListParams): created[gte]: "soon" is not a number'],
    );
    assert.deepEqual(await stripeRequestProblems({ method: 'POST', url: '/v1/disputes/dp_1', body: 'submit=yes' }), [
      'POST /v1/disputes/dp_1 (Stripe.DisputeUpdateParams): submit: "yes" is not a boolean',
    ]);
    assert.deepEqual(await stripeRequestProblems({ method: 'GET', url: '/v1/customers' }), [
      'GET /v1/customers: no parameters type known for this route',
    ]);
    assert.equal(await stripeRequestProblems({ method: 'POST', url: '/stripe-sandbox/payouts' }), undefined);
  });
});
