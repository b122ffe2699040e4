// VAT in a price. Every price the newspaper charges includes VAT (a gross price), so VAT is taken
// out of it, never added. The rule, for a line of `gross` cents at `rate`:
//
//   net = round(gross / (1 + rate)),   VAT = gross − net
//
// rounded half up (kaufmännisch) to whole cents, once per line; a receipt's VAT is the sum of its
// lines' VAT. The arithmetic stays in integers: a rate is whole hundredths of a percent (700 = 7 %,
// 550 = 5,5 %), as the database stores it (migration 029), so 1,50 € at 7 % is exactly 10 cents of
// VAT on every machine. The receipt, the back office and the API all ask this module.

/** A rate in hundredths of a percent: 700 is 7 %. */
export type VatRate = number;

/** The highest rate accepted: 100 %. */
export const maxVatRate: VatRate = 10000;

/** The newspaper's rate until staff choose one: Germany's reduced rate for newspapers. */
export const defaultVatRate: VatRate = 700;

/** The VAT included in `gross` cents at `rate` (see the rule above); negative for a negative amount. */
export function vatIncluded(gross: number, rate: VatRate): number {
  if (!Number.isSafeInteger(gross)) throw new RangeError(`${gross} is not a whole number of cents`);
  if (!Number.isInteger(rate) || rate < 0 || rate > maxVatRate) throw new RangeError(`${rate} is not a VAT rate`);
  const magnitude = Math.abs(gross);
  const divisor = 10000 + rate;
  // round(magnitude × 10000 / divisor), half up, without leaving whole numbers
  const net = Math.floor((2 * magnitude * 10000 + divisor) / (2 * divisor));
  return Math.sign(gross) * (magnitude - net);
}

/** 700 → 7; 550 → 5.5: the rate as the API and the screens give it, in percent. */
export const vatPercent = (rate: VatRate): number => rate / 100;

/** The VAT of several lines, each rounded on its own as above, summed per rate (highest rate first). */
export function vatByRate(lines: { gross: number; rate: VatRate }[]): { rate: VatRate; gross: number; vat: number }[] {
  const sums = new Map<VatRate, { rate: VatRate; gross: number; vat: number }>();
  for (const line of lines) {
    const sum = sums.get(line.rate) ?? { rate: line.rate, gross: 0, vat: 0 };
    sum.gross += line.gross;
    sum.vat += vatIncluded(line.gross, line.rate);
    sums.set(line.rate, sum);
  }
  return [...sums.values()].sort((a, b) => b.rate - a.rate);
}
