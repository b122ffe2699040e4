import { Box, Chip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { CreateButton, DataTable, List, TopToolbar, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle.tsx';
import { eventTypeLabel, type EndpointRecord } from './record.ts';

function Actions() {
  return (
    <TopToolbar>
      <CreateButton />
    </TopToolbar>
  );
}

/** The endpoints other systems listen at, with the deliveries each still waits for or gave up. */
export function WebhookList() {
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  return (
    <List
      title={<PageTitle page="app.page.webhooks" />}
      actions={<Actions />}
      exporter={false}
      empty={false}
      pagination={false}
      aside={undefined}
    >
      <Typography variant="body2" sx={{ p: 2 }}>
        {translate('app.webhooks.intro')}
      </Typography>
      <DataTable
        bulkActionButtons={false}
        rowClick="edit"
        empty={<p style={{ padding: 16 }}>{translate('app.webhooks.empty')}</p>}
      >
        <DataTable.Col
          source="url"
          render={(endpoint: EndpointRecord) => (
            <span style={{ overflowWrap: 'anywhere' }}>
              {endpoint.url}
              {endpoint.description ? ` – ${endpoint.description}` : ''}
            </span>
          )}
        />
        {!isSmall && (
          <DataTable.Col
            source="eventTypes"
            disableSort
            render={(endpoint: EndpointRecord) => (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {endpoint.eventTypes.map((type) => (
                  <Chip key={type} size="small" label={translate(eventTypeLabel(type))} />
                ))}
              </Box>
            )}
          />
        )}
        <DataTable.Col
          source="active"
          render={(endpoint: EndpointRecord) =>
            translate(endpoint.active ? 'app.webhooks.active_yes' : 'app.webhooks.active_no')
          }
        />
        <DataTable.Col source="pending" disableSort />
        <DataTable.Col source="failed" disableSort />
      </DataTable>
    </List>
  );
}
