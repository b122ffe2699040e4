import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  GlobalStyles,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useRef, useState, type ChangeEvent } from 'react';
import { Confirm, HttpError, Title, useDataProvider, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { saveBlob } from '../../../shared/save-file.ts';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { vendorPaths } from '../paths.ts';
import type { CreatedVendor } from '../record.ts';
import { readVendorFile, type ImportFile } from './vendorRows.ts';

type Outcome =
  | { status: 'created'; username: string; password: string }
  | { status: 'failed'; message: string; fields: [string, string][] };

/** The API's refusal of one row: the fields it names (react-admin's root entry aside), or its message when it names none. */
function failure(error: unknown): Outcome {
  const body =
    error instanceof HttpError
      ? (error.body as { message?: string; errors?: Record<string, unknown> } | undefined)
      : undefined;
  const fields = Object.entries(body?.errors ?? {}).filter(
    (entry): entry is [string, string] => entry[0] !== 'root' && typeof entry[1] === 'string',
  );
  return { status: 'failed', message: body?.message ?? (error as Error).message, fields };
}

/** Only the passwords are printed, not the screen around them. */
const printOnlyPasswords = (
  <GlobalStyles
    styles={{
      '@media print': {
        'body *': { visibility: 'hidden' },
        '#import-passwords, #import-passwords *': { visibility: 'visible' },
        '#import-passwords': { position: 'absolute', left: 0, top: 0, width: '100%' },
        '#import-passwords .no-print': { display: 'none' },
      },
    }}
  />
);

/** The new logins as a spreadsheet file (";" and a BOM, as German spreadsheets open it). */
function passwordsCsv(
  rows: { licenseId: string; name: string; username: string; password: string }[],
  header: string[],
): Blob {
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const lines = [header, ...rows.map((row) => [row.licenseId, row.name, row.username, row.password])].map((cells) =>
    cells.map(quote).join(';'),
  );
  return new Blob(['\uFEFF' + lines.join('\r\n') + '\r\n'], { type: 'text/csv;charset=utf-8' });
}

/**
 * /vendorsummary/import: a CSV file of vendors, previewed, then created one after another through
 * POST /api/vendors with a progress bar; each row shows the API's answer, and the new logins'
 * one-time passwords are listed once to print or download.
 */
export function VendorImport() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const [name, setName] = useState('');
  const [file, setFile] = useState<ImportFile | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [running, setRunning] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setOutcomes([]);
    setReadError(null);
    try {
      setFile(readVendorFile(await chosen.text()));
      setName(chosen.name);
    } catch (error) {
      setFile(null);
      setReadError(translate('app.import.unreadable', { message: (error as Error).message }));
    }
  };

  // One after another: the order of the file, and a clear progress for staff.
  const run = async () => {
    if (!file) return;
    setConfirming(false);
    setRunning(true);
    const done: Outcome[] = [];
    for (const row of file.rows) {
      try {
        const { data } = await dataProvider.create<CreatedVendor>('vendorsummary', { data: row.vendor });
        const login = data.login;
        done.push({ status: 'created', username: login?.username ?? '', password: login?.oneTimePassword ?? '' });
      } catch (error) {
        done.push(failure(error));
      }
      setOutcomes([...done]);
    }
    setRunning(false);
  };

  const reset = () => {
    setFile(null);
    setOutcomes([]);
    setName('');
  };

  const ready = file && file.rows.length > 0 && file.missingColumns.length === 0;
  const finished = !!file && outcomes.length === file.rows.length && !running;
  const logins = file
    ? file.rows.flatMap((row, index) => {
        const outcome = outcomes[index];
        return outcome?.status === 'created'
          ? [
              {
                licenseId: row.cells.licenseId ?? '',
                name: `${row.cells.firstName ?? ''} ${row.cells.lastName ?? ''}`.trim(),
                username: outcome.username,
                password: outcome.password,
              },
            ]
          : [];
      })
    : [];
  const failed = outcomes.filter((outcome) => outcome.status === 'failed').length;
  const loginHeader = [
    translate('resources.vendorsummary.fields.licenseId'),
    translate('app.qr.vendor'),
    translate('app.import.username'),
    translate('app.import.password'),
  ];

  return (
    <Box sx={{ display: 'grid', gap: 2, py: 2, maxWidth: '100%' }}>
      {printOnlyPasswords}
      <Title title={<PageTitle page="app.page.vendor_import" />} />
      <Card>
        <CardContent sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('app.import.hint')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <Button variant="contained" disabled={running} id="import-pick" onClick={() => fileInput.current?.click()}>
              {translate('app.import.pick')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv,text/plain"
              hidden
              onChange={(event) => void pick(event)}
              id="import-file"
            />
            <Button component={Link} to={vendorPaths.list}>
              {translate('ra.action.back')}
            </Button>
          </Box>
          {readError && <Alert severity="error">{readError}</Alert>}
          {file && (
            <Typography variant="body2" id="import-file-summary">
              {translate('app.import.file', { name, count: file.rows.length })}
            </Typography>
          )}
          {file && file.rows.length === 0 && <Alert severity="warning">{translate('app.import.empty')}</Alert>}
          {file && file.missingColumns.length > 0 && (
            <Alert severity="error">
              {translate('app.import.missing_columns', { columns: file.missingColumns.join(', ') })}
            </Alert>
          )}
          {file && file.unknownColumns.length > 0 && (
            <Alert severity="info">
              {translate('app.import.unknown_columns', { columns: file.unknownColumns.join(', ') })}
            </Alert>
          )}
        </CardContent>
      </Card>

      {file && file.rows.length > 0 && (
        <Card>
          <CardContent sx={{ display: 'grid', gap: 1 }}>
            {!finished && (
              <Box>
                <Button
                  variant="contained"
                  disabled={!ready || running || outcomes.length > 0}
                  onClick={() => setConfirming(true)}
                  id="import-start"
                >
                  {translate('app.import.start', { count: file.rows.length })}
                </Button>
              </Box>
            )}
            {(running || outcomes.length > 0) && (
              <Box role="status" id="import-progress">
                <Typography variant="body2">
                  {finished
                    ? translate('app.import.summary', { created: outcomes.length - failed, failed })
                    : translate('app.import.progress', { done: outcomes.length, total: file.rows.length })}
                </Typography>
                <LinearProgress
                  variant="determinate"
                  value={(outcomes.length / file.rows.length) * 100}
                  aria-label={translate('app.import.status')}
                />
              </Box>
            )}
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" id="import-preview">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('app.import.row')}</TableCell>
                    <TableCell>{translate('app.import.status')}</TableCell>
                    {file.columns.map((column) => (
                      <TableCell key={column}>
                        {translate(`resources.vendorsummary.fields.${column}`, { _: column })}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {file.rows.map((row, index) => {
                    const outcome = outcomes[index];
                    return (
                      <TableRow
                        key={row.line}
                        data-line={row.line}
                        className={outcome ? `import-${outcome.status}` : undefined}
                      >
                        <TableCell>{row.line}</TableCell>
                        <TableCell sx={{ minWidth: 200 }}>
                          {!outcome && <Chip size="small" label={translate('app.import.waiting')} />}
                          {outcome?.status === 'created' && (
                            <Chip size="small" color="success" label={translate('app.import.created')} />
                          )}
                          {outcome?.status === 'failed' && (
                            <Box className="import-error" sx={{ color: 'error.main' }}>
                              {outcome.fields.length === 0 && (
                                <Typography variant="body2">{outcome.message}</Typography>
                              )}
                              {outcome.fields.map(([field, message]) => (
                                <Typography variant="body2" key={field}>
                                  {translate(`resources.vendorsummary.fields.${field}`, { _: field })}: {message}
                                </Typography>
                              ))}
                            </Box>
                          )}
                        </TableCell>
                        {file.columns.map((column) => (
                          <TableCell key={column}>{row.cells[column]}</TableCell>
                        ))}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          </CardContent>
        </Card>
      )}

      {finished && logins.length > 0 && (
        <Card id="import-passwords">
          <CardContent sx={{ display: 'grid', gap: 1 }}>
            <Typography variant="h6">{translate('app.import.passwords_title')}</Typography>
            <Alert severity="warning" className="no-print">
              {translate('app.import.passwords_once')}
            </Alert>
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    {loginHeader.map((title) => (
                      <TableCell key={title}>{title}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {logins.map((login) => (
                    <TableRow key={login.username} className="import-login">
                      <TableCell>{login.licenseId}</TableCell>
                      <TableCell>{login.name}</TableCell>
                      <TableCell>{login.username}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{login.password}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <Box className="no-print" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button variant="contained" onClick={() => window.print()}>
                {translate('app.import.print')}
              </Button>
              <Button
                variant="outlined"
                onClick={() => saveBlob(passwordsCsv(logins, loginHeader), 'vendor-logins.csv')}
                id="import-download"
              >
                {translate('app.import.download')}
              </Button>
            </Box>
          </CardContent>
        </Card>
      )}
      {finished && (
        <Box>
          <Button onClick={reset}>{translate('app.import.again')}</Button>
        </Box>
      )}
      <Confirm
        isOpen={confirming}
        title="app.import.confirm_title"
        content="app.import.confirm_content"
        translateOptions={{ count: file?.rows.length ?? 0 }}
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
