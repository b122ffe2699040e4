import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describeApi } from '../support/env.ts';
import { jpegBytes, pdfBytes, pngBytes, webpBytes, withForm } from '../support/fixtures.ts';

describeApi('files', (t) => {
  let office = '';
  let image: { id: string; bytes: Buffer };
  let pdf: { id: string; bytes: Buffer };

  before(async () => {
    office = await t.office();
    const imageBytes = pngBytes([7, 8, 9]);
    const pdfFile = pdfBytes('Ausgabe 7');
    const res = await withForm(
      t.http.post('/api/items').set('Authorization', office),
      { name: 'Digital 7', price: 50, isLicenseItem: true, isPdfItem: true },
      {
        image: { bytes: imageBytes, name: 'cover.png' },
        pdf: { bytes: pdfFile, name: 'ausgabe-7.pdf' },
      },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    image = { id: res.body.image.split('/').pop(), bytes: imageBytes };
    pdf = { id: res.body.pdf.url.split('/').pop(), bytes: pdfFile };
  });

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  describe('GET /files/:id (public images)', () => {
    it('serves a stored image with its type, a long immutable cache and its hash as ETag', async () => {
      const res = await t.http.get(`/files/${image.id}`).buffer(true);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(res.headers.etag, `"${sha256(image.bytes)}"`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.ok(Buffer.from(res.body).equals(image.bytes));

      const again = await t.http.get(`/files/${image.id}/`).set('If-None-Match', res.headers.etag);
      assert.equal(again.status, 304);
    });

    it('serves JPEG and WebP images with their types', async () => {
      for (const [bytes, type] of [
        [jpegBytes(), 'image/jpeg'],
        [webpBytes(), 'image/webp'],
      ] as const) {
        const item = await withForm(
          t.http.post('/api/items').set('Authorization', office),
          { name: type, price: 1 },
          { image: bytes },
        );
        const res = await t.http.get(item.body.image).buffer(true);
        assert.equal(res.headers['content-type'], type);
        assert.ok(Buffer.from(res.body).equals(bytes));
      }
    });

    it('never serves a PDF: paid editions go out through download links only', async () => {
      const res = await t.http.get(`/files/${pdf.id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.message, 'There is no such file.');
      assert.doesNotMatch(res.headers['content-type'], /pdf/);
    });

    it('answers 404 with a message for unknown and malformed ids', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '1', `${image.id}x`, '..%2F..%2Fetc%2Fpasswd']) {
        const res = await t.http.get(`/files/${id}`);
        assert.equal(res.status, 404, id);
        assert.equal(res.body.message, 'There is no such file.', id);
      }
    });
  });

  describe('GET /api/files/:id (back office)', () => {
    it('serves any stored file, PDFs included, as a download', async () => {
      const res = await t.http.get(`/api/files/${pdf.id}`).set('Authorization', office).buffer(true);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${pdf.id}.pdf"`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.ok(Buffer.from(res.body).equals(pdf.bytes));
      const png = await t.http.get(`/api/files/${image.id}`).set('Authorization', office);
      assert.equal(png.status, 200);
      assert.equal(png.headers['content-type'], 'image/png');
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await t.http.get(`/api/files/${id}`).set('Authorization', office);
        assert.equal(res.status, 404, id);
        assert.equal(res.body.message, 'There is no such file.');
      }
    });

    it('is for the back office only', async () => {
      const anonymous = await t.http.get(`/api/files/${pdf.id}`);
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.body.message, /log in/);
      const vendor = await t.http.get(`/api/files/${pdf.id}`).set('Authorization', await t.auth(['vendor']));
      assert.equal(vendor.status, 403);
      assert.doesNotMatch(vendor.headers['content-type'], /pdf/);
    });
  });
});
