import assert from 'node:assert/strict';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import raEnglish from 'ra-language-english';
import raGerman from 'ra-language-german';
import { englishMessages } from '../../admin/src/backoffice/i18n/english.ts';
import { germanMessages, germanTranslations as ours } from '../../admin/src/backoffice/i18n/german.ts';
import { keysOf, merge, onlyKeysOf, type Messages } from '../../admin/src/backoffice/i18n/merge.ts';

/**
 * The messages the provider takes (react-admin's TranslationMessages), named from its own signature:
 * importing the type from react-admin would load all of react-admin's and MUI's declarations into the
 * root's type check for this one line (about 1,000 files, a third of its time).
 */
type ProviderMessages = ReturnType<Parameters<typeof polyglotI18nProvider>[0]>;

// ra-language-german's texts for the keys react-admin 5 still has, then ours on top.
const germanTranslations = merge(onlyKeysOf(raEnglish as Messages, raGerman as Messages), ours);

const text = (messages: Messages, key: string) =>
  key.split('.').reduce<string | Messages>((node, part) => (node as Messages)[part], messages) as string;
const placeholders = (message: string) => [...message.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

// German and English are complete. German carries no English below it (each
// language loads on its own), so a missing German text would show as its raw key: these tests catch that.
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
    const shown = new Set(keysOf(germanMessages));
    assert.deepEqual(
      english.filter((key) => !shown.has(key)),
      [],
      'the German screen has a text for every key, without English below it',
    );
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
    assert.equal(text(germanMessages, 'app.location.none'), 'Noch keine Standorte');
    assert.equal(text(germanMessages, 'app.comment.none'), 'Keine Kommentare');
    assert.equal(text(englishMessages, 'app.location.none'), 'Vendor has no locations yet');
    assert.equal(text(englishMessages, 'app.user.none'), 'No user is logged in');
    assert.equal(text(germanMessages, 'app.page.elster'), 'Kassenmeldung (ELSTER)');
    assert.equal(text(englishMessages, 'app.page.elster'), 'Till registration (ELSTER)');
    assert.match(text(germanMessages, 'app.fiscal.counter_off'), /^Diese Kasse signiert nicht \(TSE aus\)/);
    // The specification's wording of the e-mail check (section 5), the API's own in German.
    assert.equal(text(englishMessages, 'ra.validation.email'), 'Please enter a valid email address.');
    assert.equal(text(germanMessages, 'ra.validation.email'), 'Bitte eine gültige E-Mail-Adresse eingeben.');
  });

  it('counts in words: one vendor is not "1 aktive Verkäufer·innen"', () => {
    const say = (messages: Messages, locale: string, count: number) =>
      polyglotI18nProvider(() => messages as ProviderMessages, locale).translate('app.qr.badges_hint', {
        smart_count: count,
      });
    assert.equal(
      say(germanMessages, 'de', 1),
      'Eine aktive Verkäuferin oder ein aktiver Verkäufer, A4, zum Ausschneiden.',
    );
    assert.equal(say(germanMessages, 'de', 12), '12 aktive Verkäufer·innen, A4, zum Ausschneiden.');
    assert.equal(say(englishMessages, 'en', 1), 'One active vendor, A4, to cut out.');
    assert.equal(say(englishMessages, 'en', 12), '12 active vendors, A4, to cut out.');
  });
});
