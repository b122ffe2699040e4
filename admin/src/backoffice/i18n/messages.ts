import raEnglish from 'ra-language-english';
import raGerman from 'ra-language-german';
import { de } from './de.ts';
import { en } from './en.ts';
import { germanForReactAdmin5 } from './react-admin-de.ts';
import * as booksTexts from '../accounting/messages.ts';
import * as counterTexts from '../counter/messages.ts';
import * as loginLockTexts from '../loginlocks/messages.ts';
import * as mapTexts from '../map/messages.ts';
import * as orderTexts from '../orders/messages.ts';
import * as outboxTexts from '../outbox/messages.ts';
import * as protocolTexts from '../protocol/messages.ts';
import * as qrTexts from '../qrcodes/messages.ts';
import * as statisticsTexts from '../statistics/messages.ts';

// German is built as English ← ra-language-german ← what that package lacks or words for react-admin 3
// ← our texts, so a key
// nobody translated still reads as English instead of showing its raw name. The unit test checks
// that the German translations alone cover exactly the English keys.

type Messages = { [key: string]: string | Messages };

function merge(...layers: Messages[]): Messages {
  const out: Messages = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const below = out[key];
      out[key] = typeof value === 'object' && typeof below === 'object' ? merge(below, value) : value;
    }
  }
  return out;
}

/** Only the keys that `reference` has: ra-language-german still carries texts react-admin dropped. */
function onlyKeysOf(reference: Messages, messages: Messages): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(messages)) {
    const wanted = reference[key];
    if (wanted === undefined) continue;
    out[key] = typeof value === 'object' && typeof wanted === 'object' ? onlyKeysOf(wanted, value) : value;
  }
  return out;
}

/** Every key as a dotted path, for the completeness test. */
export function keysOf(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** Texts a screen keeps next to itself (`<screen>/messages.ts`, `{ de, en }`), on top of de.ts and en.ts. */
const screens: { de: Messages; en: Messages }[] = [
  booksTexts,
  counterTexts,
  mapTexts,
  orderTexts,
  outboxTexts,
  protocolTexts,
  qrTexts,
  statisticsTexts,
  loginLockTexts,
];

export const englishMessages = merge(raEnglish as Messages, en, ...screens.map((screen) => screen.en));
export const germanTranslations = merge(
  onlyKeysOf(raEnglish as Messages, raGerman as Messages),
  germanForReactAdmin5,
  de,
  ...screens.map((screen) => screen.de),
);
export const germanMessages = merge(englishMessages, germanTranslations);
