import assert from 'node:assert/strict';
import { encodeWindows1252 } from '../../api/src/accounting/windows1252.ts';

// The DATEV file's encoding, against the platform's own Windows-1252 decoder.
describe('Windows-1252 encoder', () => {
  it('gives every character of Windows-1252 its one byte back', () => {
    const decoder = new TextDecoder('windows-1252');
    for (let byte = 0; byte < 256; byte++) {
      const char = decoder.decode(Uint8Array.of(byte));
      // 0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned: the decoder passes them through as C1 controls.
      if (byte >= 0x80 && byte <= 0x9f && char.codePointAt(0) === byte) continue;
      assert.deepEqual([...encodeWindows1252(char)], [byte], `byte ${byte.toString(16)} (${char})`);
    }
  });

  it('writes a character the encoding lacks as "?", one byte even for an emoji', () => {
    assert.equal(encodeWindows1252('Gebühr – 5 € 😀 Ж').toString('latin1'), 'Geb\u00fchr \u0096 5 \u0080 ? ?');
  });
});
