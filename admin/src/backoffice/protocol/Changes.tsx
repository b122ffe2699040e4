import { Box, Link as MuiLink } from '@mui/material';
import { useLocale, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import type { ProtocolEntry } from '../../../../api/src/protocol/queries.ts';
import { useFormatMoney } from '../common/money.tsx';
import { actionKey, isAmount, humanised, recordKinds } from './records.ts';

/** A line of a payout or a sale as the entry kept it. */
interface Line {
  kind?: unknown;
  itemName?: unknown;
  quantity?: unknown;
  amount?: unknown;
}
const isLine = (value: object): value is Line => 'itemName' in value && typeof (value as Line).amount === 'number';

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Values as people read them: amounts in the installation's currency, yes/no, dates, lists and objects in words; long texts (CSS) cut. */
function useShown() {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const empty = translate('app.protocol.empty_value');
  const shown = (field: string, value: unknown, label: (field: string) => string): string => {
    if (value === null || value === undefined || value === '') return empty;
    if (typeof value === 'number' && isAmount(field)) return formatMoney(value);
    if (field === 'kind' && typeof value === 'string') return translate(`app.vendor.kind_${value}`, { _: value });
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (typeof value === 'string' && isoInstant.test(value)) return formatDateTime(value, locale);
    if (Array.isArray(value)) return value.map((each) => shown(field, each, label)).join(', ') || empty;
    // A line reads as the payout page shows it: "Trinkgeld × 1: 1,00 €", its kind in the reader's language.
    if (typeof value === 'object' && isLine(value)) {
      const kind = typeof value.kind === 'string' ? value.kind : 'item';
      const name =
        kind === 'item' ? String(value.itemName) : translate(`app.vendor.kind_${kind}`, { _: value.itemName });
      const quantity = typeof value.quantity === 'number' ? ` × ${value.quantity}` : '';
      return `${name}${quantity}: ${formatMoney(value.amount as number)}`;
    }
    if (typeof value === 'object')
      return Object.entries(value as Record<string, unknown>)
        .map(([key, inner]) => `${label(key)}: ${shown(key, inner, label)}`)
        .join('; ');
    // What JSON leaves: a text or a number.
    const text = typeof value === 'string' ? value : `${value as number}`;
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  return shown;
}

/** A field's label as the record's own screens name it, else as the protocol names details. */
function useLabel(recordType: string | null) {
  const translate = useTranslate();
  const fields = recordType ? recordKinds[recordType]?.fields : undefined;
  return (field: string) => {
    const general = translate(`app.protocol.field_${field}`, { _: humanised(field) });
    return fields ? translate(`${fields}.${field}`, { _: general }) : general;
  };
}

/** The record as a person names it: "Maria Muster (DEMO-33)", "Zeitung", "12,50 € an Maria Muster (DEMO-3)". */
function useRecordName() {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  return (entry: ProtocolEntry): string => {
    const type = translate(`app.protocol.type_${(entry.recordType ?? '').replace(/-/g, '_')}`, { _: entry.recordType });
    const named = entry.recordName;
    const name = named?.name ? (named.licenseId ? `${named.name} (${named.licenseId})` : named.name) : null;
    if (entry.recordType === 'payout' && named?.amount != null && name)
      return translate('app.protocol.payout_to', { amount: formatMoney(named.amount), name });
    if (name && (entry.recordType === 'vendor' || entry.recordType === 'item')) return name;
    if (name) return translate('app.protocol.type_of', { type, name });
    return `${type} ${entry.recordId ?? ''}`.trim();
  };
}

/** The action and the record in words, linked to the record's screen where it has one. */
export function ProtocolRecordName({ entry }: { entry: ProtocolEntry }) {
  const translate = useTranslate();
  const recordName = useRecordName();
  const action = translate(actionKey(entry.action), { _: entry.action });
  if (!entry.recordType) return <>{action}</>;
  const name = recordName(entry);
  const link =
    entry.recordId !== null && entry.action !== 'delete'
      ? recordKinds[entry.recordType]?.link?.(entry.recordId, entry.details)
      : undefined;
  return (
    <>
      {action}
      {': '}
      {link ? (
        <MuiLink component={Link} to={link} onClick={(event) => event.stopPropagation()} className="protocol-link">
          {name}
        </MuiLink>
      ) : (
        name
      )}
    </>
  );
}

/**
 * Each changed field as a sentence: "Preis von Zeitung: 3,00 € → 3,50 €"; a created or deleted
 * record's fields with the one value they had; an entry without changes shows its details in words.
 */
export function ProtocolChanges() {
  const record = useRecordContext<ProtocolEntry>();
  const translate = useTranslate();
  const shown = useShown();
  const label = useLabel(record?.recordType ?? null);
  if (!record) return null;
  const fields = Object.entries(record.changes ?? {});
  const list = { m: 0, pl: 2, fontSize: 13, wordBreak: 'break-word' } as const;
  if (!fields.length)
    return record.details ? (
      <Box component="ul" sx={list} className="protocol-details">
        {Object.entries(record.details).map(([field, value]) => (
          <li key={field}>
            {label(field)}: {shown(field, value, label)}
          </li>
        ))}
      </Box>
    ) : null;
  // A product's fields name it ("Preis von Zeitung"); a vendor's do not ("Deaktiviert von Maria" would
  // read as who did it), the record column names them.
  const owner = record.action === 'update' && record.recordType === 'item' ? record.recordName?.name : undefined;
  const fieldName = (field: string) =>
    owner ? translate('app.protocol.field_of', { field: label(field), name: owner }) : label(field);
  // A deletion keeps what the record had, a creation (or payout) what it got: one value, no arrow.
  const single = (before: unknown, after: unknown) =>
    record.action === 'delete' ? before : before === null && record.action !== 'update' ? after : undefined;
  return (
    <Box component="ul" sx={list} className="protocol-changes">
      {fields.map(([field, { before, after }]) => {
        const one = single(before, after);
        return (
          <li key={field}>
            <strong>{fieldName(field)}</strong>:{' '}
            {one !== undefined
              ? shown(field, one, label)
              : `${shown(field, before, label)} → ${shown(field, after, label)}`}
          </li>
        );
      })}
    </Box>
  );
}
