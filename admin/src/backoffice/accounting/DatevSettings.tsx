import { Button, Typography } from '@mui/material';
import {
  Edit,
  NumberInput,
  RadioButtonGroupInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { Section, wide } from '../common/Section.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { type DatevRole, datevRoles } from '../../../../api/src/ledger/postings.ts';

/** Where the DATEV settings are edited; the export dialog and the settings screen link here. */

const months = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `app.datev.month_${i + 1}` }));
const lengths = [4, 5, 6, 7, 8].map((n) => ({ id: n, name: String(n) }));
const charts = [
  { id: 'SKR03', name: 'SKR 03' },
  { id: 'SKR04', name: 'SKR 04' },
];

/** Fills the account numbers with the chosen chart's usual ones (the tax adviser may want others). */
function ChartDefaultsButton() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const [chart, defaults] = useWatch({ name: ['chart', 'chartDefaults'] }) as [
    string,
    Record<string, Record<DatevRole, string>> | undefined,
  ];
  const accounts = defaults?.[chart];
  return (
    <Button
      variant="outlined"
      size="small"
      sx={{ justifySelf: 'start', mb: 2, ...wide }}
      disabled={!accounts}
      id="datev-chart-defaults"
      onClick={() => {
        if (!accounts) return;
        for (const role of datevRoles) setValue(`accounts.${role}`, accounts[role], { shouldDirty: true });
      }}
    >
      {translate('app.datev.use_chart_defaults', { chart })}
    </Button>
  );
}

/**
 * /settings/datev: what the DATEV export needs to know: the adviser's and the client's number, the
 * fiscal year, the chart of accounts and the account of each kind. Saved as one record; the API's
 * checks (digits only, lengths that fit) appear at the fields.
 */
export function DatevSettings() {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <Edit
      resource="datevsettings"
      id={1}
      title={<PageTitle page="app.page.datev_settings" />}
      mutationMode="pessimistic"
      redirect={false}
      actions={false}
      mutationOptions={{ onSuccess: () => notify('app.datev.saved', { type: 'success' }) }}
    >
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <Typography variant="body2" sx={{ maxWidth: 760 }}>
          {translate('app.datev.settings_intro')}
        </Typography>
        <Section title="app.datev.section_client">
          <TextInput source="adviserNumber" slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
          <TextInput source="clientNumber" slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
          <SelectInput source="fiscalYearMonth" choices={months} />
          <NumberInput source="fiscalYearDay" min={1} max={31} />
        </Section>
        <Section title="app.datev.section_accounts">
          <SelectInput source="chart" choices={charts} />
          <SelectInput source="accountLength" choices={lengths} />
          <ChartDefaultsButton />
          {datevRoles.map((role) => (
            <TextInput key={role} source={`accounts.${role}`} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
          ))}
          <RadioButtonGroupInput
            source="vendorAccounts"
            choices={[
              { id: 'collective', name: 'app.datev.vendor_collective' },
              { id: 'personal', name: 'app.datev.vendor_personal' },
            ]}
            sx={wide}
          />
          <TextInput
            source="vendorBase"
            helperText="app.datev.vendor_base_help"
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            sx={wide}
          />
        </Section>
      </SimpleForm>
    </Edit>
  );
}
