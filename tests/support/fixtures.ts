import { crc32, deflateSync } from 'node:zlib';
import type supertest from 'supertest';

// Small but real files for upload tests, built in code so no binary lives in the repository.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of one colour (RGB); different colours give different bytes. */
export function pngBytes(rgb: [number, number, number] = [200, 16, 46], size = 2): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter, no interlace
  const row = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]); // filter byte 0, then pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
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
    0xff, 0xd8, // start of image
    ...jpegSegment(0xdb, [0x00, ...new Array(64).fill(1)]), // quantisation table 0, all ones
    ...jpegSegment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // baseline, 8×8, one component
    ...jpegSegment(0xc4, oneSymbolTable(0x00)), // DC table 0
    ...jpegSegment(0xc4, oneSymbolTable(0x10)), // AC table 0
    ...jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]), // start of scan
    0x3f, // scan data: DC code 0, AC end-of-block 0, padding
    0xff, 0xd9, // end of image
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

/** A valid one-page PDF showing `title`, with a correct cross-reference table. */
export function pdfBytes(title = 'Test edition'): Buffer {
  const text = title.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A file for `withForm`: bytes alone (named after the field) or bytes with the name the browser would send. */
export type FormFile = Buffer | { bytes: Buffer; name: string };

/** Sends `fields` (as the strings a browser form sends) and `files` as multipart/form-data. */
export function withForm(request: supertest.Test, fields: Record<string, string | number | boolean>, files: Record<string, FormFile> = {}): supertest.Test {
  for (const [name, value] of Object.entries(fields)) request.field(name, String(value));
  for (const [name, file] of Object.entries(files)) {
    const { bytes, name: filename } = Buffer.isBuffer(file) ? { bytes: file, name: `${name}.bin` } : file;
    request.attach(name, bytes, filename);
  }
  return request;
}
