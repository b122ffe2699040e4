import { Box, Card, CardContent, Typography } from '@mui/material';
import { useMemo } from 'react';
import { BooleanInput, ImageField, ImageInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { qrChoices, qrCodeOptions, vendorQrUrl, type QrCodeSettings as Style } from '../../shared/qr.ts';
import { ColourInput } from '../common/ColourInput.tsx';
import { asFileValue } from '../common/files.ts';
import { Section, wide } from '../common/Section.tsx';
import { SettingsForm } from '../settings/SettingsForm.tsx';
import { CodeDownloads } from './CodeDownloads.tsx';
import { QrPreview } from './QrPreview.tsx';

/** Choices as SelectInput takes them; a type's name as message key ("classy-rounded" → classy_rounded). */
const choices = (values: readonly string[], prefix: string) =>
  values.map((value) => ({ id: value, name: `${prefix}.${value.replace('-', '_')}` }));

/** A logo while editing: a new upload ({ src: blob URL }), the stored URL, or none. */
const logoUrl = (value: unknown): string | null =>
  typeof value === 'string'
    ? value || null
    : value && typeof value === 'object' && 'src' in value
      ? String(value.src)
      : null;

/** The code as the form stands now, for a sample licence ID. */
function LivePreview() {
  const translate = useTranslate();
  const [style, enableLogo, logo, url, publicUrl] = useWatch({
    name: ['qrCodeSettings', 'qrCodeEnableLogo', 'qrCodeLogo', 'qrCodeUrl', 'publicUrl'],
  }) as [Style, boolean, unknown, string, string];
  const data = vendorQrUrl(
    { qrCodeUrl: url ?? '', publicUrl: publicUrl ?? window.location.origin },
    translate('app.qr.sample'),
  );
  // The watched values are new objects on every render; the preview redraws only when they differ.
  const key = JSON.stringify([data, style, enableLogo, logoUrl(logo)]);
  const options = useMemo(
    () =>
      qrCodeOptions(
        data,
        { qrCodeSettings: { ...style }, qrCodeEnableLogo: enableLogo, qrCodeLogoImgUrl: logoUrl(logo) },
        240,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  return (
    <Card variant="outlined" sx={{ alignSelf: 'start' }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('app.qr.preview')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, wordBreak: 'break-all' }}>
          {translate('app.qr.preview_for', { url: data })}
        </Typography>
        <QrPreview options={options} id="qr-preview" />
      </CardContent>
    </Card>
  );
}

/**
 * The QR code settings (every qr-code-styling option the API takes) with a live preview, saved with
 * the other settings through PUT /api/settings; below, the downloads of vendors' codes.
 */
export function QrCodeSettings() {
  const translate = useTranslate();
  return (
    <>
      <SettingsForm page="app.page.qrcodes" savedMessage="app.qr.saved">
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 760px) 300px' },
            gap: 2,
            width: '100%',
          }}
        >
          <Box>
            <Section title="app.qr.section_style">
              <SelectInput
                source="qrCodeSettings.errorCorrectionLevel"
                label="app.qr.fields.errorCorrectionLevel"
                choices={choices(qrChoices.errorCorrectionLevel, 'app.qr.levels')}
              />
              <SelectInput
                source="qrCodeSettings.dotType"
                label="app.qr.fields.dotType"
                choices={choices(qrChoices.dotType, 'app.qr.types')}
              />
              <ColourInput source="qrCodeSettings.dotColor" label="app.qr.fields.dotColor" />
              <ColourInput source="qrCodeSettings.backgroundColor" label="app.qr.fields.backgroundColor" />
              <SelectInput
                source="qrCodeSettings.cornerSquareType"
                label="app.qr.fields.cornerSquareType"
                choices={choices(qrChoices.cornerSquareType, 'app.qr.types')}
              />
              <SelectInput
                source="qrCodeSettings.cornerDotType"
                label="app.qr.fields.cornerDotType"
                choices={choices(qrChoices.cornerDotType, 'app.qr.types')}
              />
            </Section>
            <Section title="app.qr.section_logo">
              <TextInput source="qrCodeUrl" type="url" sx={wide} />
              <BooleanInput source="qrCodeEnableLogo" label="app.qr.fields.qrCodeEnableLogo" sx={wide} />
              <ImageInput
                inputProps={{ 'aria-label': translate('app.qr.fields.qrCodeLogo') }}
                source="qrCodeLogo"
                label="app.qr.fields.qrCodeLogo"
                accept={{ 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.svg'] }}
                format={asFileValue}
                sx={wide}
              >
                <ImageField source="src" title="title" />
              </ImageInput>
            </Section>
          </Box>
          <LivePreview />
        </Box>
      </SettingsForm>
      <CodeDownloads />
    </>
  );
}
