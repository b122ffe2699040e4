import { setImmediate } from 'node:timers/promises';

// Every request of a server shares one thread: work on thousands of rows is cut into slices, and
// the event loop serves the other requests (and timers, and PostgreSQL's answers) between them.

/** Rows formatted in one turn of the event loop: a few milliseconds of work. */
export const sliceSize = 500;

/** Waits until the event loop has served what was waiting. */
export const nextTurn = (): Promise<void> => setImmediate();

/** `items` in slices of `size`, the event loop turning before every slice after the first. */
export async function* slicesOf<T>(items: readonly T[], size = sliceSize): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn();
    yield items.slice(start, start + size);
  }
}
