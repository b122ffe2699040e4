import { Alert, Box, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import type { VendorRecord } from '../vendors/record.ts';

/**
 * The edited CSS in `frame`'s shop page, in place of the saved sheet: the page is same-origin, so
 * the sheet is disabled and a <style id="preview"> holds the text as typed.
 */
function showCss(frame: HTMLIFrameElement | null, css: string): void {
  const page = frame?.contentDocument;
  if (!page?.head) return;
  const saved = page.getElementById('shop-custom-css') as HTMLLinkElement | null;
  if (saved) saved.disabled = true;
  let style = page.getElementById('preview');
  if (!style) {
    style = page.createElement('style');
    style.id = 'preview';
    page.head.append(style);
  }
  style.textContent = css;
}

/** The shop as a phone shows it, at the first active vendor's page, with the CSS being edited. */
export default function StylePreview({ css }: { css: string }) {
  const translate = useTranslate();
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);
  const {
    data: vendors,
    isPending,
    error,
  } = useGetList<VendorRecord>('vendorsummary', {
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'licenseId', order: 'ASC' },
    filter: { isDisabled: false },
  });
  const vendor = vendors?.[0];

  useEffect(() => {
    if (loaded) showCss(frame.current, css);
  }, [css, loaded]);

  if (isPending) return null;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!vendor) return <Alert severity="info">{translate('app.preview.no_vendor')}</Alert>;
  return (
    <Box id="settings-css-preview" sx={{ display: 'grid', gap: 1 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {translate('app.preview.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.preview.hint', { vendor: vendor.licenseId })}
      </Typography>
      <Box
        component="iframe"
        ref={frame}
        src={`/v/${encodeURIComponent(vendor.licenseId)}`}
        title={translate('app.preview.frame')}
        onLoad={() => {
          setLoaded(true);
          showCss(frame.current, css);
        }}
        sx={{
          width: '100%',
          maxWidth: 390,
          height: 640,
          border: '1px solid',
          borderColor: 'divider',
          borderRadius: 1,
          background: '#fff',
        }}
      />
    </Box>
  );
}
