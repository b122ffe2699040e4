import assert from 'node:assert/strict';
import {
  englishMessages,
  germanMessages,
  germanTranslations,
  keysOf,
} from '../../admin/src/backoffice/i18n/messages.ts';

type Messages = { [key: string]: string | Messages };

const text = (messages: Messages, key: string) =>
  key.split('.').reduce<string | Messages>((node, part) => (node as Messages)[part], messages) as string;
const placeholders = (message: string) => [...message.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

// Acceptance 3 of issue 7: German and English are complete. German is German's own translations on
// top of English, so a missing German text would silently read as English: these tests catch that.
describe('back-office texts in German and English', () => {
  const english = keysOf(englishMessages);
  const german = keysOf(germanTranslations);

  it('translates every English key (react-admin’s and ours) into German, and no key English lacks', () => {
    assert.ok(english.length > 300, `react-admin and our keys: ${english.length}`);
    assert.deepEqual(
      english.filter((key) => !german.includes(key)),
      [],
      'English keys without a German text',
    );
    assert.deepEqual(
      german.filter((key) => !english.includes(key)),
      [],
      'German keys that English does not have (typo or leftover)',
    );
    assert.deepEqual(keysOf(germanMessages).sort(), [...english].sort(), 'the German and English key sets are equal');
  });

  it('keeps the placeholders of every message, so names and numbers appear in both languages', () => {
    const different = english.filter(
      (key) => placeholders(text(englishMessages, key)).join() !== placeholders(text(germanMessages, key)).join(),
    );
    assert.deepEqual(different, []);
  });

  it('speaks German where it matters most', () => {
    assert.equal(text(germanMessages, 'ra.action.save'), 'Speichern');
    assert.equal(text(germanMessages, 'ra.navigation.previous'), 'Zur vorherigen Seite');
    assert.equal(text(germanMessages, 'app.location.none'), 'Verkäufer hat noch keine Standorte');
    assert.equal(text(germanMessages, 'app.comment.none'), 'Keine Kommentare');
    assert.equal(text(englishMessages, 'app.location.none'), 'Vendor has no locations yet');
    assert.equal(text(englishMessages, 'app.user.none'), 'No user is logged in');
  });
});
