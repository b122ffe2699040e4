import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Chip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  BooleanField,
  FunctionField,
  Labeled,
  ListButton,
  Button,
  SelectField,
  Show,
  TextField,
  TopToolbar,
  UrlField,
  useRecordContext,
  useLocale,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDate } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { ItemsSold } from '../accounting/ItemsSold.tsx';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { StatementButton } from '../statements/StatementDialog.tsx';
import { LastTransactions } from './LastTransactions.tsx';
import { vendorPaths } from './paths.ts';
import { VendorPrivacy } from './VendorPrivacy.tsx';
import { languageChoices } from './VendorFields.tsx';
import type { VendorRecord } from './record.ts';

function Panel({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const translate = useTranslate();
  return (
    <Card id={id} sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" sx={{ mb: 1 }}>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

const grid = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
  gap: 1,
};

function ProfileActions() {
  const record = useRecordContext<VendorRecord>();
  return (
    <TopToolbar>
      <ListButton to={vendorPaths.list} />
      {record && (
        <StatementButton
          vendorId={record.id}
          licenseId={record.licenseId}
          name={`${record.firstName} ${record.lastName}`.trim() || record.licenseId}
        />
      )}
      {record && (
        <Button component={Link} to={vendorPaths.edit(record.id)} label="ra.action.edit" id="vendor-edit-button">
          <EditIcon />
        </Button>
      )}
    </TopToolbar>
  );
}

function Profile() {
  const record = useRecordContext<VendorRecord>();
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const locale = useLocale();
  if (!record) return null;
  return (
    <>
      <Panel title="app.vendor.section_person" id="vendor-profile">
        <Typography variant="h5" id="vendor-profile-name" sx={{ mb: 1 }}>
          {record.licenseId} · {record.firstName} {record.lastName}{' '}
          {record.isDisabled && <Chip size="small" label={translate('app.vendor.deactivated')} />}
        </Typography>
        <Box sx={grid}>
          <Labeled source="language">
            <SelectField source="language" choices={languageChoices} />
          </Labeled>
          {(['email', 'telephone', 'address', 'postCode', 'debt'] as const).map((source) => (
            <Labeled key={source} source={source}>
              <TextField source={source} emptyText="—" />
            </Labeled>
          ))}
          <Labeled source="registrationDate">
            <FunctionField
              source="registrationDate"
              render={(vendor: VendorRecord) =>
                vendor.registrationDate ? formatDate(vendor.registrationDate, locale as Locale) : '—'
              }
            />
          </Labeled>
          <Labeled source="vendorSince">
            <FunctionField
              source="vendorSince"
              render={(vendor: VendorRecord) =>
                vendor.vendorSince ? formatDate(vendor.vendorSince, locale as Locale) : '—'
              }
            />
          </Labeled>
          <Labeled source="accountProofUrl">
            <UrlField source="accountProofUrl" emptyText="—" />
          </Labeled>
          {(['hasBankAccount', 'hasSmartphone', 'onlineMap'] as const).map((source) => (
            <Labeled key={source} source={source}>
              <BooleanField source={source} />
            </Labeled>
          ))}
        </Box>
      </Panel>
      <Panel title="app.vendor.section_money" id="vendor-money">
        <Box sx={grid}>
          <Labeled source="credit">
            <Typography id="vendor-credit">
              {typeof record.credit === 'number' ? formatMoney(record.credit) : '—'}
            </Typography>
          </Labeled>
          <Labeled source="lastPayout">
            <Typography>
              {record.lastPayout
                ? `${formatMoney(record.lastPayout.amount)} · ${formatDate(record.lastPayout.at, locale as Locale)}`
                : '—'}
            </Typography>
          </Labeled>
        </Box>
      </Panel>
      <Panel title="app.vendor.last_transactions">
        <LastTransactions vendor={record} />
      </Panel>
      <Panel title="app.books.items_sold" id="vendor-items">
        <ItemsSold vendor={record} />
      </Panel>
      <Panel title="app.vendor.section_privacy" id="vendor-privacy">
        <VendorPrivacy vendor={record} />
      </Panel>
    </>
  );
}

/** /userprofile/{id}: the vendor's data, money and last transactions. */
export function VendorShow() {
  return (
    <Show title={<PageTitle page="app.page.vendor_profile" />} actions={<ProfileActions />} component="div">
      <Profile />
    </Show>
  );
}
