import PrintIcon from '@mui/icons-material/Print';
import { Alert, Box, Card, CardContent, GlobalStyles, Link as MuiLink, Typography } from '@mui/material';
import { Fragment } from 'react';
import { Button, Title, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { counterPaths } from './paths.ts';
import { useFiscalOverview, type FiscalTill } from './TillFiscal.tsx';

// What the office enters in ELSTER's "Mitteilung über elektronische Aufzeichnungssysteme", on one
// page. §146a (4) AO asks for: the taxpayer's name and tax number, the kind of certified TSE, the
// kind and number of recording systems, each system's serial number, the date it was acquired and
// the date it left service; the ELSTER form takes one notice per place of business (Betriebsstätte)
// with all of its systems, "Bruttomethode" (AEAO zu §146a Nr. 1.16.1.4; BMF, Ausfüllanleitung
// "Mitteilung über elektronische Aufzeichnungssysteme", https://www.bundesfinanzministerium.de →
// FAQ Mitteilungspflicht nach §146a Abs. 4 AO; https://www.elster.de, form "aufzeichnung146a").
// The TSE's and the till's serial numbers come from the newest signature of each till (GET /api/fiscal).

/** Only the notice is printed, not the screen around it. */
const printOnlyNotice = (
  <GlobalStyles
    styles={{
      '@media print': {
        'body *': { visibility: 'hidden' },
        '#elster-notice, #elster-notice *': { visibility: 'visible' },
        '#elster-notice': { position: 'absolute', left: 0, top: 0, width: '100%' },
        '#elster-notice .no-print': { display: 'none' },
      },
    }}
  />
);

function Rows({ rows }: { rows: [string, string, string?][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(12rem, max-content) 1fr' },
        columnGap: 2,
        rowGap: { xs: 0, sm: 0.5 },
        m: 0,
        '& dt': { fontWeight: 600 },
        '& dd': { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' },
      }}
    >
      {rows.map(([label, value, id]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd id={id}>{value}</dd>
        </Fragment>
      ))}
    </Box>
  );
}

/** /tills/elster: per till that signs, what the notice to the tax office asks. */
export function ElsterPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, error } = useFiscalOverview();
  const signing = data?.tills.filter((t) => t.effectiveMode !== 'off' && t.effectiveCountry === 'DE') ?? [];
  // The tills whose German TSE was taken out of service: the notice names the date it left service.
  const ended =
    data?.tills.flatMap((till) =>
      till.decommissions.filter((d) => d.country === 'DE').map((decommission) => ({ till, decommission })),
    ) ?? [];
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale as Locale) : '');
  const tillRows = (till: FiscalTill): [string, string, string?][] => [
    [translate('app.fiscal.mode'), translate(`app.fiscal.mode_${till.effectiveMode}`)],
    [
      translate('app.elster.tss_serial'),
      till.tssSerial ?? translate('app.elster.no_signature'),
      `elster-tss-serial-${till.tillId}`,
    ],
    [
      translate('app.elster.client_serial'),
      till.clientSerial ?? translate('app.elster.no_signature'),
      `elster-client-serial-${till.tillId}`,
    ],
    [translate('app.elster.kind_tse'), translate('app.elster.kind_tse_value')],
    [translate('app.elster.kind_system'), translate('app.elster.kind_system_value')],
    [
      translate('app.elster.software'),
      data ? `${data.installation.software.name} ${data.installation.software.version}` : '',
    ],
    [translate('app.elster.since'), when(till.signingSince), `elster-since-${till.tillId}`],
  ];
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={<PageTitle page="app.page.elster" />} />
      {printOnlyNotice}
      <Card sx={{ mt: 2 }}>
        <CardContent id="elster-notice">
          <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
            {translate('app.page.elster')}
          </Typography>
          <Typography sx={{ mb: 2 }}>{translate('app.elster.intro')}</Typography>
          {error && <Alert severity="error">{error.message}</Alert>}
          {data && (
            <>
              <Typography variant="h6" component="h3">
                {translate('app.elster.installation')}
              </Typography>
              <Rows
                rows={[
                  [translate('app.elster.name'), data.installation.name || translate('app.elster.missing')],
                  [translate('app.elster.address'), data.installation.address || translate('app.elster.missing')],
                  [translate('app.elster.tax_number'), translate('app.elster.tax_number_hint')],
                ]}
              />
              {signing.length === 0 ? (
                <Alert severity="info" id="elster-none" sx={{ mt: 2 }}>
                  {translate('app.elster.none')}{' '}
                  <MuiLink component={Link} to={counterPaths.tills}>
                    {translate('app.menu.tills')}
                  </MuiLink>
                </Alert>
              ) : (
                signing.map((till) => (
                  <Box key={till.tillId} id={`elster-till-${till.tillId}`} sx={{ mt: 2 }}>
                    <Typography variant="h6" component="h3">
                      {translate('app.elster.till')}: {till.name}
                    </Typography>
                    {till.effectiveMode === 'test' && (
                      <Typography color="text.secondary" sx={{ mb: 1 }}>
                        {translate('app.elster.test_note')}
                      </Typography>
                    )}
                    <Rows rows={tillRows(till)} />
                  </Box>
                ))
              )}
              {ended.length > 0 && (
                <Box component="section" aria-labelledby="elster-ended-heading" sx={{ mt: 3 }}>
                  <Typography variant="h6" component="h3" id="elster-ended-heading">
                    {translate('app.elster.ended')}
                  </Typography>
                  <Typography sx={{ mb: 1 }}>{translate('app.elster.ended_hint')}</Typography>
                  {ended.map(({ till, decommission }, n) => (
                    <Box key={n} id={`elster-ended-${till.tillId}-${n}`} sx={{ mt: 1 }}>
                      <Typography component="h4" sx={{ fontWeight: 600 }}>
                        {translate('app.elster.till')}: {till.name}
                      </Typography>
                      <Rows
                        rows={[
                          [translate('app.elster.tss_serial'), decommission.tssSerial ?? translate('app.elster.never')],
                          [
                            translate('app.elster.client_serial'),
                            decommission.clientSerial ?? translate('app.elster.never'),
                          ],
                          [translate('app.elster.ended_at'), when(decommission.at)],
                          [translate('app.elster.ended_reason'), decommission.reason],
                        ]}
                      />
                    </Box>
                  ))}
                </Box>
              )}
              <Box className="no-print" sx={{ mt: 2 }}>
                <Button label="app.elster.print" id="elster-print" variant="contained" onClick={() => window.print()}>
                  <PrintIcon />
                </Button>
              </Box>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
