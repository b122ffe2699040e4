// The load generator of `npm run bench -- purchases`, in a process of its own so that neither its
// work nor the Stripe sandbox's counts as the app's. Customers buy one after the other, all at the
// same time: the order through the app's API, the card on the sandbox's page (another process), then
// the receipt asked until it says paid, as often as the shop's receipt page asks. Reads its task as
// JSON from argv[2] and prints what happened as one JSON line.
import { payInSandbox } from '../tests/support/sandbox.ts';

export interface LoadTask {
  appUrl: string;
  sandboxUrl: string;
  customers: number;
  /** Customers keep starting purchases for this long; then each finishes the one it is in. */
  seconds: number;
  vendors: string[];
  item: number;
  /** How often a waiting customer asks the receipt. */
  pollMs: number;
}

export interface LoadResult {
  /** Whole purchases in ms, from the order to the receipt that says paid. */
  latencies: number[];
  failures: number;
  firstFailure?: string;
  tokens: string[];
  /** From the first order to the last receipt. */
  elapsedMs: number;
}

const purchaseTimeoutMs = 60_000;

async function purchase(task: LoadTask, customer: number): Promise<string> {
  const placed = await fetch(`${task.appUrl}/api/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      vendor: task.vendors[customer % task.vendors.length],
      entries: [{ item: task.item, quantity: 1 }],
      tip: 0,
    }),
  });
  if (placed.status !== 201)
    throw new Error(`POST /api/orders answered ${placed.status}: ${(await placed.text()).slice(0, 200)}`);
  const { order: token, checkoutUrl } = (await placed.json()) as { order: string; checkoutUrl: string };
  await payInSandbox(task.sandboxUrl, checkoutUrl);
  const givingUp = performance.now() + purchaseTimeoutMs;
  while (performance.now() < givingUp) {
    const receipt = await fetch(`${task.appUrl}/api/orders/${token}`);
    if (!receipt.ok) throw new Error(`GET /api/orders/:token answered ${receipt.status}`);
    if (((await receipt.json()) as { status: string }).status === 'paid') return token;
    await new Promise((resolve) => setTimeout(resolve, task.pollMs));
  }
  throw new Error(`order ${token} was not paid within ${purchaseTimeoutMs / 1000} s`);
}

async function run(task: LoadTask): Promise<LoadResult> {
  const started = performance.now();
  const end = started + task.seconds * 1000;
  const result: LoadResult = { latencies: [], failures: 0, tokens: [], elapsedMs: 0 };
  await Promise.all(
    Array.from({ length: task.customers }, async (_, customer) => {
      while (performance.now() < end) {
        const from = performance.now();
        try {
          result.tokens.push(await purchase(task, customer));
          result.latencies.push(performance.now() - from);
        } catch (error) {
          result.failures++;
          result.firstFailure ??= String(error);
        }
      }
    }),
  );
  result.elapsedMs = performance.now() - started;
  return result;
}

const task = JSON.parse(process.argv[2] ?? '{}') as LoadTask;
process.stdout.write(`${JSON.stringify(await run(task))}\n`);
