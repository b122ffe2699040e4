import { formatAmount } from '../money/currency.ts';
import { messagesDe } from './messages-de.ts';

// Messages for people are written in English in the code, where they also serve as gettext-style
// ids: the German catalog (messages-de.ts) maps each English sentence to its German one. Figures
// travel as named placeholders ("The credit is now {amount}.") and are filled in, formatted in the
// reader's language, only when the answer is written (errors.ts), so one sentence has one id.

export type Language = 'de' | 'en';

/**
 * An amount in the currency's minor unit inside a message, written for the reader: "12,50 €" for a
 * German reader, "€12.50" for an English one; "CHF 12.50", "¥500" in those currencies. Without a
 * currency of its own it is in the installation's, which the answer's writer passes to `translate`.
 */
export class Money {
  constructor(
    readonly cents: number,
    readonly currency?: string,
  ) {}
}

/** A calendar day (YYYY-MM-DD) inside a message: "10.10.2026" in German, "10/10/2026" in English. */
export class Day {
  constructor(readonly iso: string) {}
}

export type Param = string | number | Money | Day | Message | readonly (string | number)[];

/** A sentence for a person: its English text (the id) and the figures its placeholders name. */
export class Message {
  constructor(
    readonly id: string,
    readonly params: Readonly<Record<string, Param>> = {},
  ) {}

  /** The English sentence, for logs and for code that reads a refusal's message. */
  toString(): string {
    return translate(this, 'en');
  }
}

/** What may be said to a person: a plain English sentence, or one with placeholders. */
export type Text = string | Message;

/** A message with named placeholders, e.g. `tr('The credit is now {amount}.', { amount: money(cents) })`. */
export const tr = (id: string, params: Record<string, Param> = {}) => new Message(id, params);
/**
 * A Text as a Message, for a placeholder that holds a sentence: a plain string there is a figure and
 * is never translated, so a sentence given as a string would reach a German reader in English.
 */
export const asMessage = (text: Text): Message => (typeof text === 'string' ? new Message(text) : text);
export const money = (cents: number, currency?: string) => new Money(cents, currency);

/** Whether the text names an amount (its writer then needs the installation's currency). */
export function namesMoney(text: Text): boolean {
  if (typeof text === 'string') return false;
  return Object.values(text.params).some(
    (param) => param instanceof Money || (param instanceof Message && namesMoney(param)),
  );
}
export const day = (iso: string) => new Day(iso);

const dayFormats: Record<Language, Intl.DateTimeFormat> = {
  de: new Intl.DateTimeFormat('de-DE', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }),
};

function formatParam(param: Param, language: Language, currency: string): string {
  if (param instanceof Money)
    return formatAmount(param.cents, param.currency ?? currency, language).replace(/[\u00a0\u202f]/g, ' ');
  if (param instanceof Day) {
    const date = new Date(`${param.iso}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? param.iso : dayFormats[language].format(date);
  }
  if (param instanceof Message) return translate(param, language, currency);
  if (Array.isArray(param)) return param.join(', ');
  return String(param);
}

/**
 * The text in `language`: German from the catalog (English where it has none), placeholders filled
 * in; an amount without a currency of its own in `currency`, the installation's.
 */
export function translate(text: Text, language: Language, currency = 'EUR'): string {
  const message = typeof text === 'string' ? new Message(text) : text;
  const template = (language === 'de' && Object.hasOwn(messagesDe, message.id) && messagesDe[message.id]) || message.id;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(message.params, name) ? formatParam(message.params[name]!, language, currency) : whole,
  );
}

/**
 * The language an Accept-Language header asks for: the first of German or English by q-value
 * ("de-AT", "de-CH" → de, "en-GB" → en); German when it names neither, or nothing at all.
 */
export function languageOf(header: string | undefined): Language {
  let best: { language: Language; q: number } | undefined;
  for (const part of (header ?? '').slice(0, 1000).split(',')) {
    const [tag = '', ...options] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'de' && primary !== 'en') continue;
    const qOption = options.map((o) => o.trim()).find((o) => o.startsWith('q='));
    const q = qOption ? Number(qOption.slice(2)) : 1;
    if (!(q > 0) || q > 1) continue;
    if (!best || q > best.q) best = { language: primary, q };
  }
  return best?.language ?? 'de';
}
