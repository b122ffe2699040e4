import { Box } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

type Changes = Record<string, { before: unknown; after: unknown }>;

/** A stored value as one short line: objects as JSON, long texts (CSS) cut. */
function shown(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Each changed field as "field: before → after"; an entry without changes shows its details. */
export function ProtocolChanges() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const changes = (record.changes ?? {}) as Changes;
  const empty = translate('app.protocol.empty_value');
  const fields = Object.entries(changes);
  if (!fields.length)
    return record.details ? (
      <Box component="code" sx={{ fontSize: 12, wordBreak: 'break-word' }}>
        {shown(record.details, '')}
      </Box>
    ) : null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, fontSize: 13, wordBreak: 'break-word' }} className="protocol-changes">
      {fields.map(([field, { before, after }]) => (
        <li key={field}>
          <strong>{field}</strong>: {shown(before, empty)} → {shown(after, empty)}
        </li>
      ))}
    </Box>
  );
}
