import { Box, Link as MuiLink } from '@mui/material';
import { useLocale, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { formatCents } from '../../shared/money.ts';
import { actionKey, centFields, humanised, recordKinds } from './records.ts';

type Changes = Record<string, { before: unknown; after: unknown }>;

/** A protocol entry as GET /api/protocol answers it. */
export interface ProtocolRecord {
  id: number;
  at: string;
  username: string | null;
  action: string;
  recordType: string | null;
  recordId: string | null;
  changes: Changes | null;
  details: Record<string, unknown> | null;
}

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Values as people read them: euros, yes/no, dates, lists and objects in words; long texts (CSS) cut. */
function useShown() {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const empty = translate('app.protocol.empty_value');
  const shown = (field: string, value: unknown, label: (field: string) => string): string => {
    if (value === null || value === undefined || value === '') return empty;
    if (typeof value === 'number' && centFields.has(field)) return formatCents(value, locale);
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (typeof value === 'string' && isoInstant.test(value)) return formatDateTime(value, locale);
    if (Array.isArray(value)) return value.map((each) => shown(field, each, label)).join(', ') || empty;
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

/** The action and the record in words, linked to the record's screen where it has one. */
export function ProtocolRecordName({ entry }: { entry: ProtocolRecord }) {
  const translate = useTranslate();
  const action = translate(actionKey(entry.action), { _: entry.action });
  if (!entry.recordType) return <>{action}</>;
  const type = translate(`app.protocol.type_${entry.recordType.replace(/-/g, '_')}`, { _: entry.recordType });
  const name = `${type} ${entry.recordId ?? ''}`.trim();
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

/** Each changed field as "label: before → after"; an entry without changes shows its details in words. */
export function ProtocolChanges() {
  const record = useRecordContext<ProtocolRecord>();
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
  return (
    <Box component="ul" sx={list} className="protocol-changes">
      {fields.map(([field, { before, after }]) => (
        <li key={field}>
          <strong>{label(field)}</strong>: {shown(field, before, label)} → {shown(field, after, label)}
        </li>
      ))}
    </Box>
  );
}
