// Windows-1252 ("ANSI"), the encoding DATEV reads: Latin-1 plus typographic signs in 0x80–0x9F.
// Node's Buffer knows Latin-1 but not those 27 signs (the euro sign, dashes, quotes), and a whole
// dependency for one table is not worth it.

const extra: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

// What Latin-1 does not hold as Windows-1252 does: its control block, every character above it (a
// pair of surrogates is one character).
const notLatin1 = /[\ud800-\udbff][\udc00-\udfff]|[\u0080-\u009f\u0100-\uffff]/g;

/** The text in Windows-1252; a character it lacks (an emoji, Cyrillic) becomes "?". */
export function encodeWindows1252(text: string): Buffer {
  // The few other characters become the one Latin-1 character of their byte; then Node encodes the
  // whole text natively, instead of a loop over tens of thousands of lines.
  const latin1 = text.replace(notLatin1, (char) => String.fromCharCode(extra[char.codePointAt(0) ?? 0] ?? 0x3f));
  return Buffer.from(latin1, 'latin1');
}
