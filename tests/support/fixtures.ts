import type { ShopItem } from '../../shop-widget/src/boot.ts';
import type supertest from 'supertest';
import { makePdf, makePng } from '../../seeds/assets/files.ts';

// Small but real files for upload tests, built in code so no binary lives in the repository.

/** A valid PNG of one colour; different colours give different bytes. */
export function pngBytes(rgb: [number, number, number] = [200, 16, 46], size = 2): Buffer {
  return makePng(size, size, () => [...rgb, 255]);
}

function jpegSegment(marker: number, data: number[]): number[] {
  const length = data.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...data];
}

/**
 * A valid baseline JPEG: one grey 8×8 block. Each Huffman table holds a single one-bit code (for
 * "DC difference 0" and "end of block"), so the whole scan is the two bits 00, padded with ones.
 */
export function jpegBytes(): Buffer {
  const oneSymbolTable = (tableClassAndId: number) => [tableClassAndId, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // start of image
    ...jpegSegment(0xdb, [0x00, ...new Array(64).fill(1)]), // quantisation table 0, all ones
    ...jpegSegment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // baseline, 8×8, one component
    ...jpegSegment(0xc4, oneSymbolTable(0x00)), // DC table 0
    ...jpegSegment(0xc4, oneSymbolTable(0x10)), // AC table 0
    ...jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]), // start of scan
    0x3f, // scan data: DC code 0, AC end-of-block 0, padding
    0xff,
    0xd9, // end of image
  ]);
}

/** A valid lossless WebP of one transparent pixel (the VP8L bitstream that browsers' feature tests use). */
export function webpBytes(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]);
  const chunkSize = 13; // the last byte above is the chunk's padding to an even length
  const riffBody = Buffer.concat([Buffer.from('WEBPVP8L', 'latin1'), le32(chunkSize), vp8l]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), le32(riffBody.length), riffBody]);
}

function le32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** A valid one-page PDF showing `title`. */
export function pdfBytes(title = 'Test edition'): Buffer {
  return makePdf([title]);
}

/** A file for `withForm`: bytes alone (named after the field) or bytes with the name the browser would send. */
export type FormFile = Buffer | { bytes: Buffer; name: string };

/** Sends `fields` (as the strings a browser form sends) and `files` as multipart/form-data. */
export function withForm(
  request: supertest.Test,
  fields: Record<string, string | number | boolean>,
  files: Record<string, FormFile> = {},
): supertest.Test {
  for (const [name, value] of Object.entries(fields)) request.field(name, String(value));
  for (const [name, file] of Object.entries(files)) {
    const { bytes, name: filename } = Buffer.isBuffer(file) ? { bytes: file, name: `${name}.bin` } : file;
    request.attach(name, bytes, filename);
  }
  return request;
}

/** An item for sale as GET /api/items/ answers it, for the shop widget's rules. */
export const shopItem = (id: number, name: string, price: number, extra: Partial<ShopItem> = {}): ShopItem => ({
  id,
  name,
  description: '',
  price,
  image: null,
  measure: 'Stück',
  order: 0,
  color: null,
  fontColor: null,
  maxOrderAmount: null,
  isMainProduct: false,
  isDigital: false,
  ...extra,
});
