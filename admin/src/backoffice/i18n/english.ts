import raEnglish from 'ra-language-english';
import { en } from './en.ts';
import { merge, type Messages } from './merge.ts';
import { en as booksTexts } from '../accounting/messages-en.ts';
import { en as counterTexts } from '../counter/messages-en.ts';
import { en as fiscalTexts } from '../counter/fiscal-messages-en.ts';
import { en as loginLockTexts } from '../loginlocks/messages-en.ts';
import { en as mapTexts } from '../map/messages-en.ts';
import { en as orderTexts } from '../orders/messages-en.ts';
import { en as outboxTexts } from '../outbox/messages-en.ts';
import { en as protocolTexts } from '../protocol/messages-en.ts';
import { en as qrTexts } from '../qrcodes/messages-en.ts';
import { en as reconciliationTexts } from '../reconciliation/messages-en.ts';
import { en as statementTexts } from '../statements/messages-en.ts';
import { en as statisticsTexts } from '../statistics/messages-en.ts';
import { en as webhookTexts } from '../webhooks/messages-en.ts';

/** The English interface: react-admin's texts, ours (en.ts) and each screen's own (`<screen>/messages-en.ts`). */
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
