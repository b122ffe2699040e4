import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import { Button } from '@mui/material';
import {
  BooleanInput,
  ImageField,
  ImageInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  maxLength,
  required,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { datevSettingsPath } from '../accounting/paths.ts';
import { ColourInput } from '../common/ColourInput.tsx';
import { asFileValue } from '../common/files.ts';
import { MoneyInput, toMinorUnits, useCurrency } from '../common/money.tsx';
import { Section, wide } from '../common/Section.tsx';
import { useVatRateFormat } from '../common/vatRate.ts';
import { qrPaths } from '../qrcodes/paths.ts';
import { SettingsForm } from './SettingsForm.tsx';
import { StyleEditor } from './StyleEditor.tsx';

/** How German mails write a date; the shop and the back office show dates their own way. */
const germanVariants = [
  { id: 'de-DE', name: 'app.settings.german_de' },
  { id: 'de-AT', name: 'app.settings.german_at' },
];

/** Map centre: a decimal with comma or point (the API takes both). */
const coordinate = (value: string | number | null | undefined) => (value == null ? '' : String(value));

/**
 * /settings/update: every general setting (money in the installation's currency), logo and favicon, then the shop's custom
 * CSS. A save waits for the server (pessimistic): its messages appear at the fields, and success is
 * announced only after it answered.
 */
export function SettingsEdit() {
  const translate = useTranslate();
  const vatRateFormat = useVatRateFormat();
  const currency = useCurrency();
  return (
    <>
      <SettingsForm
        page="app.page.settings"
        savedMessage="app.settings.saved"
        transform={(values: RaRecord) => toMinorUnits(values, ['maxOrderAmount'], currency)}
      >
        <Section title="app.settings.section_newspaper">
          <TextInput source="newspaperName" sx={wide} />
          <TextInput source="newspaperAddress" multiline minRows={2} sx={wide} />
          <TextInput source="vatRate" format={vatRateFormat} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          <SelectInput source="germanVariant" choices={germanVariants} validate={required()} />
          <ColourInput source="color" />
          <ColourInput source="fontColor" />
          <ImageInput
            inputProps={{ 'aria-label': translate('resources.settings.fields.logo') }}
            source="logo"
            accept={{ 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.svg'] }}
            format={asFileValue}
          >
            <ImageField source="src" title="title" />
          </ImageInput>
          <ImageInput
            inputProps={{ 'aria-label': translate('resources.settings.fields.favicon') }}
            source="favicon"
            accept={{ 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.svg'] }}
            format={asFileValue}
          >
            <ImageField source="src" title="title" />
          </ImageInput>
        </Section>
        <Section title="app.settings.section_tax">
          <TextInput source="companyStreet" sx={wide} />
          <TextInput source="companyPostcode" />
          <TextInput source="companyTown" />
          <TextInput source="companyCountry" helperText="app.settings.company_country_help" />
          <TextInput source="taxNumber" />
          <TextInput source="vatId" helperText="app.settings.tax_id_help" />
        </Section>
        <Section title="app.settings.section_shop">
          <ReferenceInput
            source="mainItemId"
            reference="productsettings"
            filter={{ isLicenseItem: false, disabled: false }}
          >
            <SelectInput optionText="name" emptyText="app.settings.no_main_item" />
          </ReferenceInput>
          <MoneyInput source="maxOrderAmount" validate={required()} />
          <BooleanInput source="webshopIsClosed" />
          <BooleanInput source="useVendorLicenseIdInShop" />
          <BooleanInput source="useTipInsteadOfDonation" />
          <BooleanInput source="orgaCoversTransactionCosts" />
          <TextInput
            source="metaDescription"
            multiline
            minRows={2}
            sx={wide}
            helperText="app.settings.meta_description_help"
            validate={maxLength(300)}
          />
        </Section>
        <Section title="app.settings.section_links">
          <TextInput source="agbUrl" type="url" sx={wide} />
          <TextInput source="maintainanceModeHelpUrl" type="url" sx={wide} />
          <TextInput source="vendorNotFoundHelpUrl" type="url" sx={wide} />
          <TextInput source="qrCodeUrl" type="url" sx={wide} />
          <Button
            component={Link}
            to={qrPaths.settings}
            startIcon={<QrCodeIcon />}
            sx={{ justifySelf: 'start', mb: 2 }}
            id="settings-qrcodes"
          >
            {translate('app.qr.open_settings')}
          </Button>
        </Section>
        <Section title="app.datev.section_books">
          <Button
            component={Link}
            to={datevSettingsPath}
            startIcon={<AccountBalanceIcon />}
            sx={{ justifySelf: 'start', mb: 2 }}
            id="settings-datev"
          >
            {translate('app.datev.open_settings')}
          </Button>
        </Section>
        <Section title="app.settings.section_vendors">
          <TextInput source="vendorEmailPostfix" />
          <span />
          <TextInput source="mapCenterLat" format={coordinate} />
          <TextInput source="mapCenterLong" format={coordinate} />
        </Section>
      </SettingsForm>
      <StyleEditor />
    </>
  );
}
