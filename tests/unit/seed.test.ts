import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { toBuffer, type Db } from '../../api/src/db/connection.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import {
  DEMO_MAP_CENTRE,
  DEMO_NEWSPAPER_NAME,
  DEMO_VENDOR_COUNT,
  DEMO_VENDOR_EMAIL_POSTFIX,
} from '../../seeds/demo.ts';
import { describeApi } from '../support/env.ts';

/** Great-circle distance in metres. */
function distance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(a));
}

async function fileBytes(db: Db, id: string): Promise<{ contentType: string; data: Buffer }> {
  const row = await db('files').where({ id }).first('content_type', 'data');
  assert.ok(row, `file ${id} exists`);
  return { contentType: row.content_type, data: toBuffer(row.data) };
}

/** Walks a PNG's chunks, checking each CRC, and inflates the image data. */
function readPng(data: Buffer): { width: number; height: number; pixels: Buffer } {
  assert.deepEqual([...data.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('ascii', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    const crc = data.readUInt32BE(offset + 8 + length);
    assert.equal(crc, crc32(data.subarray(offset + 4, offset + 8 + length)), `CRC of chunk ${type}`);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') ended = true;
    offset += 12 + length;
  }
  assert.ok(ended, 'PNG ends with IEND');
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Every row of the seeded tables, bytes as hashes; `volatile` columns left out. */
async function snapshot(db: Db, volatile: string[] = []): Promise<Record<string, unknown[]>> {
  const tables: [string, string][] = [
    ['system_state', 'key'],
    ['settings', 'id'],
    ['files', 'sha256'],
    ['items', 'id'],
    ['vendors', 'id'],
    ['vendor_locations', 'id'],
    ['vendor_comments', 'id'],
  ];
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of tables) {
    if (volatile.length && table === 'system_state') continue;
    const rows = (await db(table).orderBy(order)) as Record<string, unknown>[];
    out[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([column]) => !volatile.includes(column))
          .map(([column, value]) => [
            column,
            value instanceof Uint8Array ? `${value.length} bytes` : JSON.stringify(value),
          ]),
      ),
    );
  }
  return out;
}

/** Empties the database the way a fresh install is: migrated, the settings row, nothing else. */
async function emptyDatabase(db: Db): Promise<void> {
  const { rows } = await db.raw<{ rows: { tablename: string }[] }>(
    `select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%'`,
  );
  await db.raw(`truncate table ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`);
  await db('settings').insert({ id: 1 });
}

describeApi('demo seed', (t) => {
  it(`has ${DEMO_VENDOR_COUNT + 1} vendors: DEMO-1 first, DEMO-1 … DEMO-${DEMO_VENDOR_COUNT} active, DEMO-OFF deactivated`, async () => {
    const vendors = await t.db('vendors').orderBy('id').select<
      {
        license_id: string;
        is_disabled: boolean;
        first_name: string;
        email: string | null;
      }[]
    >('id', 'license_id', 'is_disabled', 'first_name', 'email');
    assert.equal(vendors.length, DEMO_VENDOR_COUNT + 1);
    assert.equal(vendors[0].license_id, 'DEMO-1');
    const active = vendors.filter((v) => !v.is_disabled).map((v) => v.license_id);
    assert.deepEqual(
      active,
      Array.from({ length: DEMO_VENDOR_COUNT }, (_, i) => `DEMO-${i + 1}`),
    );
    const off = vendors.find((v) => v.license_id === 'DEMO-OFF');
    assert.equal(off?.is_disabled, true);
    for (const v of vendors) {
      assert.ok(v.first_name.trim(), `${v.license_id} has a first name`);
      assert.equal(v.email, `${v.license_id.toLowerCase()}${DEMO_VENDOR_EMAIL_POSTFIX}`);
    }
  });

  it('gives every active demo vendor a location within 5 km of the map centre, with a valid working time', async () => {
    const settings = await t.db('settings').where({ id: 1 }).first('map_center_lat', 'map_center_long');
    assert.equal(settings.map_center_lat, DEMO_MAP_CENTRE.lat);
    assert.equal(settings.map_center_long, DEMO_MAP_CENTRE.long);
    const rows = await t
      .db('vendor_locations as l')
      .join('vendors as v', 'v.id', 'l.vendor_id')
      .where('v.is_disabled', false)
      .select<
        {
          license_id: string;
          name: string;
          latitude: number;
          longitude: number;
          working_time: { kind: string; ranges?: { day: string; from: string; to: string }[] };
        }[]
      >('v.license_id', 'l.name', 'l.latitude', 'l.longitude', 'l.working_time');
    for (let n = 1; n <= DEMO_VENDOR_COUNT; n++) {
      const own = rows.filter((r) => r.license_id === `DEMO-${n}`);
      assert.ok(own.length >= 1 && own.length <= 2, `DEMO-${n} has one or two locations`);
      const nearest = Math.min(
        ...own.map((r) => distance(r.latitude, r.longitude, settings.map_center_lat, settings.map_center_long)),
      );
      assert.ok(nearest <= 5000, `DEMO-${n} is ${Math.round(nearest)} m from the centre`);
    }
    for (const r of rows) {
      assert.ok(['allDay', 'mornings', 'afternoons', 'weekly'].includes(r.working_time.kind), r.name);
      if (r.working_time.kind === 'weekly') {
        assert.ok(r.working_time.ranges?.length, `${r.name} has weekly ranges`);
        for (const range of r.working_time.ranges) assert.ok(range.from < range.to, `${r.name} ${range.day}`);
      }
    }
  });

  it('has comments, some of them warnings and one resolved', async () => {
    const comments = await t.db('vendor_comments').select('warning', 'resolved_at', 'created_at');
    assert.ok(comments.length >= 3);
    assert.ok(comments.some((c) => c.warning));
    const resolved = comments.filter((c) => c.resolved_at);
    assert.equal(resolved.length, 1);
    assert.ok(new Date(resolved[0].resolved_at) >= new Date(resolved[0].created_at));
  });

  it('has Zeitung as the main product at 3,00 €, first by order', async () => {
    const items = await t
      .db('items')
      .whereNull('deleted_at')
      .orderBy('item_order', 'desc')
      .select('name', 'price', 'is_main_product');
    assert.equal(items[0].name, 'Zeitung');
    assert.equal(items[0].price, 300);
    assert.equal(items[0].is_main_product, true);
    assert.equal(items.filter((i) => i.is_main_product).length, 1);
    assert.ok(items.some((i) => i.name === 'Kalender 2027' && i.price === 1000));
  });

  it('links the digital edition to a PDF licence item of 0,50 € whose file is a real PDF', async () => {
    const edition = await t.db('items').where({ name: 'Digitale Ausgabe' }).first();
    assert.equal(edition.price, 300);
    assert.ok(edition.license_item_id, 'the digital edition has a licence item');
    const licence = await t.db('items').where({ id: edition.license_item_id }).first();
    assert.equal(licence.price, 50);
    assert.equal(licence.is_license_item, true);
    assert.equal(licence.is_pdf_item, true);
    const pdf = await fileBytes(t.db, licence.pdf_file_id);
    assert.equal(pdf.contentType, 'application/pdf');
    const text = pdf.data.toString('latin1');
    assert.ok(text.startsWith('%PDF-'), 'starts with %PDF-');
    assert.ok(text.trimEnd().endsWith('%%EOF'), 'ends with %%EOF');
    // the cross-reference table points at each object, and startxref at the table
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
    assert.ok(text.startsWith('xref', startxref), 'startxref points at the xref table');
    const [, first, count] = /^xref\s+(\d+) (\d+)/.exec(text.slice(startxref))!.map(Number);
    const entries = text
      .slice(startxref)
      .split('\n')
      .slice(2, 2 + count);
    entries.forEach((entry, i) => {
      if (entry.endsWith('n ') || / n\s*$/.test(entry)) {
        const at = Number(entry.slice(0, 10));
        assert.ok(text.startsWith(`${first + i} 0 obj`, at), `xref entry ${first + i} points at its object`);
      }
    });
    assert.match(text, /\/Type \/Page\b/);
  });

  it('stores a PNG logo in the settings', async () => {
    const settings = await t.db('settings').where({ id: 1 }).first();
    assert.equal(settings.newspaper_name, DEMO_NEWSPAPER_NAME);
    assert.equal(settings.qr_code_url, '', 'no QR code address of its own: PUBLIC_URL is used');
    assert.equal(settings.max_order_amount, 15000);
    const logo = await fileBytes(t.db, settings.logo_file_id);
    assert.equal(logo.contentType, 'image/png');
    const png = readPng(logo.data);
    assert.ok(png.width >= 32 && png.height >= 32);
    assert.equal(png.pixels.length, (png.width * 4 + 1) * png.height, 'RGBA rows with filter bytes');
  });

  it('stores the vendor e-mail postfix', async () => {
    const settings = await t.db('settings').where({ id: 1 }).first('vendor_email_postfix');
    assert.equal(settings.vendor_email_postfix, DEMO_VENDOR_EMAIL_POSTFIX);
  });

  it('seeds once through seedOnFirstStart: a second start changes nothing, and the data is reproducible', async () => {
    const volatile = ['created_at', 'updated_at', 'id', 'logo_file_id', 'pdf_file_id'];
    const direct = await snapshot(t.db, volatile); // as resetDatabase seeded it
    try {
      await emptyDatabase(t.db);
      assert.equal(await seedOnFirstStart(t.db), true, 'the first start seeds');
      const first = await snapshot(t.db);
      assert.equal(await seedOnFirstStart(t.db), false, 'the second start does not');
      assert.deepEqual(await snapshot(t.db), first);
      assert.deepEqual(await snapshot(t.db, volatile), direct, 'the same data as the previous seed run');
    } finally {
      await t.reset();
    }
  });
});
