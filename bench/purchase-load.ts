// The load generator of `npm run bench -- purchases`, in a process of its own so that neither its
// work nor the Stripe sandbox's counts as the app's. Customers buy one after the other, all at the
// same time: the order through the app's API, the card on the sandbox's page (another process), then
// the receipt asked until it says paid. Reads its task as
// JSON from argv[2] and prints what happened as one JSON line.
import { buyInShop } from '../tests/e2e/purchase.ts';

export interface LoadTask {
  appUrl: string;
  sandboxUrl: string;
  customers: number;
  /** Customers keep starting purchases for this long; then each finishes the one it is in. */
  seconds: number;
  vendors: string[];
  item: number;
  /** How often a customer asks a receipt again that answered "pending" without waiting. */
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

/** One purchase of the customer: a copy of the task's item from one of the task's vendors. */
const purchase = (task: LoadTask, customer: number) =>
  buyInShop(
    task.appUrl,
    { vendor: task.vendors[customer % task.vendors.length], entries: [{ item: task.item, quantity: 1 }], tip: 0 },
    { sandboxUrl: task.sandboxUrl, pollMs: task.pollMs },
  );

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
