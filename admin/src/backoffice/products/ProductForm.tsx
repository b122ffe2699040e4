import { Link as MuiLink } from '@mui/material';
import type { ReactElement } from 'react';
import {
  BooleanInput,
  FileField,
  FileInput,
  ImageField,
  ImageInput,
  NumberInput,
  ReferenceInput,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useDataProvider,
  useNotify,
  useRecordContext,
  useTranslate,
  type Toolbar,
} from 'react-admin';
import { ColourInput } from '../common/ColourInput.tsx';
import { asFileValue } from '../common/files.ts';
import { MoneyInput, toMinorUnits, useCurrency } from '../common/money.tsx';
import { Section, wide } from '../common/Section.tsx';
import { useVatRateFormat } from '../common/vatRate.ts';
import { useSettings } from '../SettingsContext.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

/**
 * The stored PDF is paid content behind the login, so a plain link would be refused: it is fetched
 * with the token and opened from memory. A file just chosen opens from the browser directly.
 */
function PdfPreview() {
  const file = useRecordContext<{ src?: string; title?: string; rawFile?: File }>();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  if (!file?.src) return null;
  if (file.rawFile) return <FileField source="src" title="title" target="_blank" />;
  const src = file.src;
  const open = async () => {
    try {
      window.open(await dataProvider.fileUrl(src), '_blank');
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <MuiLink component="button" type="button" onClick={() => void open()} id="product-pdf-open">
      {translate('app.product.open_pdf')}
    </MuiLink>
  );
}

/** Price and max order amount are typed in the installation's currency; the API takes minor units. */
export function useProductTransform() {
  const currency = useCurrency();
  return (values: Record<string, unknown>) =>
    toMinorUnits(values, ['price', 'maxOrderAmount', 'counterPrice'], currency);
}

/** The item's fields, the same on create and edit; the server's messages appear at these fields. */
export function ProductForm({ toolbar }: { toolbar?: ReactElement<typeof Toolbar> }) {
  const translate = useTranslate();
  const vatRateFormat = useVatRateFormat();
  const { settings } = useSettings();
  return (
    <SimpleForm toolbar={toolbar} defaultValues={{ order: 0, disabled: false }} noValidate>
      <Section title="app.product.section_item">
        <TextInput source="name" validate={required()} />
        <TextInput source="nameEn" />
        <MoneyInput source="price" validate={required()} />
        <MoneyInput source="counterPrice" />
        <TextInput
          source="vatRate"
          format={vatRateFormat}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          helperText={translate('app.product.vat_rate_help', { rate: vatRateFormat(settings.vatRate) })}
        />
        <TextInput source="description" multiline sx={wide} />
        <TextInput source="descriptionEn" multiline sx={wide} />
        <TextInput source="measure" />
        <NumberInput source="order" step={1} />
        <MoneyInput source="maxOrderAmount" />
        <BooleanInput source="disabled" />
        <BooleanInput source="isMainProduct" />
        <BooleanInput source="takesOverTransactionCosts" />
      </Section>
      <Section title="app.product.section_look">
        {/* The drop zone's file input is not tied to the visible label: it is named itself. */}
        <ImageInput
          inputProps={{ 'aria-label': translate('resources.productsettings.fields.image') }}
          source="image"
          accept={{ 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.svg'] }}
          format={asFileValue}
          sx={wide}
        >
          <ImageField source="src" title="title" />
        </ImageInput>
        <ColourInput source="color" />
        <ColourInput source="fontColor" />
      </Section>
      <Section title="app.product.section_licence">
        <ReferenceInput source="licenseItem" reference="productsettings" filter={{ isLicenseItem: true }}>
          <SelectInput optionText="name" emptyText="app.product.no_license_item" />
        </ReferenceInput>
        <TextInput source="licenseGroup" />
        <BooleanInput source="isLicenseItem" />
        <BooleanInput source="isPdfItem" />
        <FileInput
          inputProps={{ 'aria-label': translate('resources.productsettings.fields.pdf') }}
          source="pdf"
          accept={{ 'application/pdf': ['.pdf'] }}
          format={asFileValue}
          sx={wide}
        >
          <PdfPreview />
        </FileInput>
      </Section>
    </SimpleForm>
  );
}
