import raGerman from 'ra-language-german';
import { de } from './de.ts';
import { merge, type Messages } from './merge.ts';
import { germanForReactAdmin5 } from './react-admin-de.ts';
import { de as booksTexts } from '../accounting/messages-de.ts';
import { de as counterTexts } from '../counter/messages-de.ts';
import { de as fiscalTexts } from '../counter/fiscal-messages-de.ts';
import { de as loginLockTexts } from '../loginlocks/messages-de.ts';
import { de as mapTexts } from '../map/messages-de.ts';
import { de as orderTexts } from '../orders/messages-de.ts';
import { de as outboxTexts } from '../outbox/messages-de.ts';
import { de as protocolTexts } from '../protocol/messages-de.ts';
import { de as qrTexts } from '../qrcodes/messages-de.ts';
import { de as reconciliationTexts } from '../reconciliation/messages-de.ts';
import { de as statementTexts } from '../statements/messages-de.ts';
import { de as statisticsTexts } from '../statistics/messages-de.ts';
import { de as webhookTexts } from '../webhooks/messages-de.ts';

// German is ra-language-german ← what that package lacks or words for react-admin 3 ← our texts.
// It carries no English below it: the German screen loads only German (the first screen's budget),
// and tests/unit/admin-i18n.test.ts checks that German alone covers every English key.

/** Our German texts and react-admin 5's that ra-language-german lacks. */
export const germanTranslations = merge(
  germanForReactAdmin5,
  de,
  booksTexts,
  counterTexts,
  fiscalTexts,
  loginLockTexts,
  mapTexts,
  orderTexts,
  outboxTexts,
  protocolTexts,
  qrTexts,
  reconciliationTexts,
  statementTexts,
  statisticsTexts,
  webhookTexts,
);

export const germanMessages = merge(raGerman as Messages, germanTranslations);
