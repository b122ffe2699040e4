import assert from 'node:assert/strict';
import type { Figure } from '../../bench/figures.ts';

/** Runs a bench part with its printed tables kept out of the test's output. */
export async function quietly(part: () => Promise<Figure[]>): Promise<Figure[]> {
  const log = console.log;
  console.log = () => {};
  try {
    return await part();
  } finally {
    console.log = log;
  }
}

/** Every figure named is among the part's, and every figure the part gives is a number. */
export function assertMeasured(figures: Figure[], names: string[]): void {
  const given = figures.map((figure) => figure.name);
  for (const name of names) assert.ok(given.includes(name), `${name} among ${given.join('; ')}`);
  for (const figure of figures) assert.ok(Number.isFinite(figure.value), `${figure.name}: ${figure.value}`);
}
