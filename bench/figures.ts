// The common shape of what every bench part measures, so `npm run bench` can end with one table of
// all of them. A part prints its own details while it runs and returns its figures.

export interface Figure {
  part: string;
  name: string;
  value: number;
  unit: string;
  /** Digits after the decimal point when printed. */
  digits?: number;
  /** The most the issue or the specification allows; without it the figure is information only. */
  budget?: number;
  /** The least the issue allows (a share of a ceiling); without it, none. */
  minimum?: number;
}

export interface BenchOptions {
  /** A tiny history and one run per query: checks in the tests that the part runs, not its figures. */
  tiny?: boolean;
}

export type BenchPart = (options?: BenchOptions) => Promise<Figure[]>;

export const passes = (figure: Figure): boolean | undefined =>
  figure.budget === undefined && figure.minimum === undefined
    ? undefined
    : figure.value <= (figure.budget ?? Infinity) && figure.value >= (figure.minimum ?? -Infinity);

/** A plain-text table; the columns named in `left` are left-aligned (words), the others right-aligned (numbers). */
export function printTable(rows: string[][], left: number[]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (left.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** The one table of every figure: part, figure, value, unit, budget, pass/fail. */
export function printFigures(figures: Figure[]): void {
  // NaN: nothing to measure (a percentile of no purchase at all).
  const format = (value: number, figure: Figure) =>
    Number.isNaN(value)
      ? '-'
      : value.toLocaleString('en', {
          minimumFractionDigits: figure.digits ?? 0,
          maximumFractionDigits: figure.digits ?? 0,
        });
  printTable(
    [
      ['part', 'figure', 'value', 'unit', 'budget', 'result'],
      ...figures.map((figure) => {
        const verdict = passes(figure);
        const budget =
          figure.budget !== undefined
            ? `≤ ${format(figure.budget, figure)}`
            : figure.minimum !== undefined
              ? `≥ ${format(figure.minimum, figure)}`
              : '';
        return [
          figure.part,
          figure.name,
          format(figure.value, figure),
          figure.unit,
          budget,
          verdict === undefined ? '' : verdict ? 'pass' : 'FAIL',
        ];
      }),
    ],
    [0, 1, 3, 5],
  );
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The value below which `p` percent of the values lie (nearest rank); NaN when there are none. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
    : NaN;
};
