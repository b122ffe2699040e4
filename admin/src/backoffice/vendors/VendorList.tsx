import CommentIcon from '@mui/icons-material/Comment';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import InfoIcon from '@mui/icons-material/Info';
import { Chip, IconButton, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import type { MouseEvent } from 'react';
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
  useListContext,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { filterParam, useDownload } from '../common/download.ts';
import { useFormatCents } from '../common/money.tsx';
import { MoneyQuickActions } from '../credits/MoneyQuickActions.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { QrQuickAction } from '../qrcodes/QrQuickAction.tsx';
import { ImportButton } from './import/ImportButton.tsx';
import { vendorPaths } from './paths.ts';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <NullableBooleanInput key="isDisabled" source="isDisabled" />,
];

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
      <FilterButton />
      <CreateButton to={vendorPaths.create} />
      <ImportButton />
      <ExportCsv />
    </TopToolbar>
  );
}

/** Info, edit, comments, the money actions and the QR code, without opening the row: the quick actions of the list. */
function QuickActions() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const stop = (event: MouseEvent) => event.stopPropagation();
  return (
    <>
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
    </>
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
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const formatCents = useFormatCents();
  const credit = (record: RaRecord) => (typeof record.credit === 'number' ? formatCents(record.credit) : '');
  return (
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
          primaryText={(record) => `${record.licenseId} · ${record.firstName} ${record.lastName}`}
          secondaryText={(record) => credit(record)}
          tertiaryText={(record) => <Deactivated key={record.id} />}
          rowClick={(id) => vendorPaths.show(id)}
          rowSx={greyedOut}
        />
      ) : (
        <DataTable rowClick={(id) => vendorPaths.show(id)} rowSx={greyedOut} bulkActionButtons={false}>
          <DataTable.Col source="licenseId" />
          <DataTable.Col source="firstName" />
          <DataTable.Col source="lastName" />
          <DataTable.Col source="credit" align="right" render={credit} />
          <DataTable.Col source="isDisabled" render={() => <Deactivated />} />
          <DataTable.Col label="app.vendor.actions" disableSort render={() => <QuickActions />} />
        </DataTable>
      )}
    </List>
  );
}
