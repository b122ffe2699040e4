import CommentIcon from '@mui/icons-material/Comment';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import InfoIcon from '@mui/icons-material/Info';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import PrintIcon from '@mui/icons-material/Print';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import WarningIcon from '@mui/icons-material/WarningAmber';
import { Box, Checkbox, Chip, IconButton, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import {
  Button,
  CreateButton,
  DataTable,
  List,
  NullableBooleanInput,
  SearchInput,
  SimpleList,
  TopToolbar,
  FilterButton,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';
import { filterParam, useDownload } from '../common/download.ts';
import { useFormatMoney } from '../common/money.tsx';
import { MoneyQuickActions } from '../credits/MoneyQuickActions.tsx';
import { loadable } from '../common/loadable.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { qrPaths } from '../qrcodes/paths.ts';
import { QrQuickAction, VendorQrDialogs } from '../qrcodes/QrQuickAction.tsx';
import { ImportButton } from './import/ImportButton.tsx';
import { vendorPaths } from './paths.ts';

// The statements dialog (year, print frame) loads when it is opened, not with the list.
const YearStatementsDialog = loadable(
  () => import('../statements/StatementDialog.tsx').then((module) => module.YearStatementsDialog),
  null,
);

/** The vendor list's "Statements of a year": every vendor's statement of a year as one printable document. */
function YearStatementsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="app.statements.year_open" onClick={() => setOpen(true)} id="year-statements-button">
        <ReceiptLongIcon />
      </Button>
      {open && <YearStatementsDialog onClose={() => setOpen(false)} />}
    </>
  );
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <NullableBooleanInput key="isDisabled" source="isDisabled" />,
  <NullableBooleanInput key="hasWarning" source="hasWarning" />,
];

/** A vendor with an open warning comment stands out in the list, before anyone opens the record. */
function WarningMarker({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const count = Number(record.openWarnings ?? 0);
  if (!count) return null;
  const label = translate('app.vendor.open_warnings', { smart_count: count });
  return (
    <Tooltip title={label}>
      <WarningIcon
        className="vendor-warning"
        color="warning"
        fontSize="small"
        role="img"
        aria-label={label}
        aria-hidden={false}
        sx={{ verticalAlign: 'text-bottom', mr: 0.5 }}
      />
    </Tooltip>
  );
}

function LicenceId() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <WarningMarker record={record} />
      {record.licenseId as string}
    </Box>
  );
}

/**
 * Deactivates the selected vendors one by one (PATCH, so each change has its protocol entry); a
 * deactivated vendor's shop page and login stop working, and reactivating is one click in the record.
 */
function DeactivateSelected() {
  const { selectedIds, onUnselectItems } = useListContext();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const deactivate = async () => {
    setBusy(true);
    try {
      for (const id of selectedIds)
        await dataProvider.call(`/api/vendors/${encodeURIComponent(String(id))}`, {
          method: 'PATCH',
          body: { isDisabled: true },
        });
      notify('app.vendor.deactivated_selected', { type: 'info', messageArgs: { smart_count: selectedIds.length } });
      onUnselectItems();
    } catch (error) {
      notify('app.vendor.deactivate_failed', { type: 'error', messageArgs: { message: (error as Error).message } });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <Button
      label="app.vendor.deactivate_selected"
      id="vendors-deactivate"
      disabled={busy}
      onClick={() => void deactivate()}
    >
      <PersonOffIcon />
    </Button>
  );
}

/** The badge sheet with only the selected vendors. */
function BadgesOfSelected() {
  const { selectedIds } = useListContext();
  const navigate = useNavigate();
  return (
    <Button
      label="app.vendor.badges_selected"
      id="vendors-badges"
      onClick={() =>
        void navigate(`${qrPaths.badges}?ids=${selectedIds.map((id) => encodeURIComponent(String(id))).join(',')}`)
      }
    >
      <PrintIcon />
    </Button>
  );
}

/**
 * A row's checkbox for the bulk actions, named after its vendor. react-admin's own selection column
 * puts its name on the wrapper instead of the checkbox, which screen readers then announce unnamed.
 */
function SelectVendor() {
  const record = useRecordContext();
  const { selectedIds, onToggleItem } = useListContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Checkbox
      size="small"
      className="vendor-select"
      checked={selectedIds.includes(record.id)}
      onClick={(event) => event.stopPropagation()}
      onChange={() => onToggleItem(record.id)}
      slotProps={{ input: { 'aria-label': translate('app.vendor.select', { id: record.licenseId as string }) } }}
    />
  );
}

/** The bulk actions, above the list while vendors are selected. */
function BulkActions() {
  const { selectedIds } = useListContext();
  if (!selectedIds.length) return null;
  return (
    <>
      <BadgesOfSelected />
      <DeactivateSelected />
    </>
  );
}

/** The API's CSV of the vendors the list's filter finds, every page of them. */
function ExportCsv() {
  const filterValues = useListContext().filterValues as Record<string, unknown>;
  const download = useDownload();
  return (
    <Button
      label="ra.action.export"
      id="vendors-csv"
      onClick={() => void download(`/api/vendors?format=csv&${filterParam(filterValues)}`, 'verkaeufer.csv')}
    >
      <DownloadIcon />
    </Button>
  );
}

function Actions() {
  return (
    <TopToolbar>
      <BulkActions />
      <FilterButton />
      <CreateButton to={vendorPaths.create} />
      <ImportButton />
      <ExportCsv />
      <YearStatementsButton />
    </TopToolbar>
  );
}

/** Info, edit, comments, the money actions and the QR code, without opening the row: the quick actions of the list. */
function QuickActions() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const stop = (event: MouseEvent) => event.stopPropagation();
  // One line of icons: where the table is wider than the screen it scrolls, instead of squeezing this
  // column into a stack of icons that makes every row several times as tall.
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'nowrap' }}>
      <Tooltip title={translate('app.vendor.info')}>
        <IconButton
          component={Link}
          to={vendorPaths.show(record.id)}
          onClick={stop}
          size="small"
          aria-label={translate('app.vendor.info')}
        >
          <InfoIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('ra.action.edit')}>
        <IconButton
          component={Link}
          to={vendorPaths.edit(record.id)}
          onClick={stop}
          size="small"
          aria-label={translate('ra.action.edit')}
        >
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('app.vendor.comments')}>
        <IconButton
          component={Link}
          to={`${vendorPaths.edit(record.id)}#vendor-comments`}
          onClick={stop}
          size="small"
          aria-label={translate('app.vendor.comments')}
        >
          <CommentIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <MoneyQuickActions vendor={record} />
      <QrQuickAction vendor={record} />
    </Box>
  );
}

function Deactivated() {
  const record = useRecordContext();
  const translate = useTranslate();
  return record?.isDisabled ? (
    <Chip size="small" color="default" label={translate('app.vendor.deactivated')} className="vendor-deactivated" />
  ) : null;
}

const greyedOut = (record: RaRecord) => (record.isDisabled ? { opacity: 0.55 } : {});

export function VendorList() {
  // The table, with the selection and the quick actions, from a tablet's width up (it scrolls in its
  // own box where it is wider than the screen); a phone gets the simple list.
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const formatMoney = useFormatMoney();
  const credit = (record: RaRecord) => (typeof record.credit === 'number' ? formatMoney(record.credit) : '');
  return (
    <VendorQrDialogs>
      <List
        title={<PageTitle page="app.page.vendors" />}
        filters={filters}
        actions={<Actions />}
        exporter={false}
        sort={{ field: 'licenseId', order: 'ASC' }}
        perPage={25}
      >
        {isSmall ? (
          <SimpleList
            primaryText={(record) => (
              <>
                <WarningMarker record={record} />
                {`${record.licenseId} · ${record.firstName} ${record.lastName}`}
              </>
            )}
            secondaryText={(record) => credit(record)}
            tertiaryText={(record) => <Deactivated key={record.id} />}
            rowClick={(id) => vendorPaths.show(id)}
            rowSx={greyedOut}
          />
        ) : (
          <DataTable rowClick={(id) => vendorPaths.show(id)} rowSx={greyedOut} bulkActionButtons={false}>
            <DataTable.Col label="app.vendor.selection" disableSort render={() => <SelectVendor />} />
            <DataTable.Col source="licenseId" render={() => <LicenceId />} />
            <DataTable.Col source="firstName" />
            <DataTable.Col source="lastName" />
            <DataTable.Col source="credit" align="right" render={credit} />
            <DataTable.Col source="isDisabled" render={() => <Deactivated />} />
            <DataTable.Col label="app.vendor.actions" disableSort render={() => <QuickActions />} />
          </DataTable>
        )}
      </List>
    </VendorQrDialogs>
  );
}
