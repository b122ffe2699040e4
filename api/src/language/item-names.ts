import type { Language } from './messages.ts';

// An item's name as a reader of `language` sees it, here rather than in items/: the ledger's
// statements and the orders' receipts name items too, and neither should lean on the catalogue's
// queries for it.

/** An item's name in `language`: German where English is empty. */
export const itemName = (item: { name: string; name_en: string }, language: Language): string =>
  (language === 'en' && item.name_en) || item.name;

/** An item's name in `language`, as SQL over the items table aliased `alias`: German where English is empty. */
export const itemNameSql = (alias: string, language: Language) =>
  language === 'en' ? `coalesce(nullif(${alias}.name_en, ''), ${alias}.name)` : `${alias}.name`;
