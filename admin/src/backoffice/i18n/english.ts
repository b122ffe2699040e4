import raEnglish from 'ra-language-english';
import { en } from './en.ts';
import { merge, type Messages } from './merge.ts';
import { en as booksTexts } from '../accounting/messages.ts';
import { en as counterTexts } from '../counter/messages.ts';
import { en as fiscalTexts } from '../counter/fiscal-messages.ts';
import { en as loginLockTexts } from '../loginlocks/messages.ts';
import { en as mapTexts } from '../map/messages.ts';
import { en as orderTexts } from '../orders/messages.ts';
import { en as outboxTexts } from '../outbox/messages.ts';
import { en as protocolTexts } from '../protocol/messages.ts';
import { en as qrTexts } from '../qrcodes/messages.ts';
import { en as reconciliationTexts } from '../reconciliation/messages.ts';
import { en as statementTexts } from '../statements/messages.ts';
import { en as statisticsTexts } from '../statistics/messages.ts';
import { en as webhookTexts } from '../webhooks/messages.ts';

/** The English interface: react-admin's texts, ours (en.ts) and each screen's own (`<screen>/messages.ts`). */
export const englishMessages = merge(
  raEnglish as Messages,
  en,
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
