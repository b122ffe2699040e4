import { crc32, deflateSync } from 'node:zlib';

// Small, valid binary files made in code, so neither the demo newspaper nor the tests need binary
// blobs in the repository: PNG images (the logo) and one-page PDFs (the digital edition).

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export type Rgba = [r: number, g: number, b: number, a: number];

/** An RGBA PNG whose pixels come from `pixel(x, y)`. */
export function makePng(width: number, height: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = pixel(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
      raw[o++] = a;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (colour: string): [number, number, number] => {
  const h = colour.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};

/**
 * A square logo: a rounded tile in `background` with a newspaper page drawn in `foreground`
 * (headline, text lines and a picture), anti-aliased at the tile's rounded corners.
 */
export function makeLogoPng(background: string, foreground: string, size = 96): Buffer {
  const bg = hex(background);
  const fg = hex(foreground);
  const s = size / 96; // the drawing is laid out on a 96 × 96 grid
  const radius = 18 * s;
  const inRect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) =>
    x >= x0 * s && x < x1 * s && y >= y0 * s && y < y1 * s;
  return makePng(size, size, (x, y) => {
    const cx = x + 0.5;
    const cy = y + 0.5;
    // rounded corners: distance from the nearest corner circle's centre
    const dx = Math.max(radius - cx, 0, cx - (size - radius));
    const dy = Math.max(radius - cy, 0, cy - (size - radius));
    const outside = Math.hypot(dx, dy) - radius;
    const alpha = Math.round(255 * Math.min(1, Math.max(0, 0.5 - outside)));
    if (alpha === 0) return [0, 0, 0, 0];
    const page = inRect(cx, cy, 24, 18, 72, 78);
    const ink =
      inRect(cx, cy, 30, 24, 66, 33) || // headline
      inRect(cx, cy, 30, 39, 46, 43) ||
      inRect(cx, cy, 30, 47, 46, 51) ||
      inRect(cx, cy, 30, 55, 46, 59) ||
      inRect(cx, cy, 50, 39, 66, 59) || // picture
      inRect(cx, cy, 30, 64, 66, 67) ||
      inRect(cx, cy, 30, 70, 58, 73);
    const [r, g, b] = page && !ink ? fg : bg;
    return [r, g, b, alpha];
  });
}

/** PDF string literal in WinAnsi (Latin-1 here): escape backslashes and parentheses, drop the rest. */
const pdfText = (text: string) =>
  text
    .replace(/[–—]/g, '-')
    .replace(/[„“”]/g, '"')
    .replace(/[‚‘’]/g, "'")
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '')
    .replace(/([\\()])/g, '\\$1');

/**
 * A valid one-page A4 PDF with a few lines of Helvetica text, a correct cross-reference table and
 * trailer, so any PDF viewer opens it.
 */
export function makePdf(lines: string[], title = lines[0] ?? ''): Buffer {
  const content = [
    'BT',
    '/F1 24 Tf',
    '72 760 Td',
    `(${pdfText(lines[0] ?? '')}) Tj`,
    '/F1 12 Tf',
    '18 TL',
    ...lines.slice(1).flatMap((line) => ['T*', `(${pdfText(line)}) Tj`]),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title (${pdfText(title)}) /Producer (street-paper-shop demo seed) >>`,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
