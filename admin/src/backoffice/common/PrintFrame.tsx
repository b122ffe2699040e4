import PrintIcon from '@mui/icons-material/Print';
import { Alert, Box } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Button, useLocale, useTranslate, useDataProvider } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';

/** A printable page of the API (a receipt, a cash report), fetched with the login, in a frame with a print button. */
export function PrintFrame({
  path,
  id,
  title,
  printLabel = 'app.counter.print',
  lang,
}: {
  /** The page's address; it may carry a query of its own. */
  path: string;
  id: string;
  title: string;
  printLabel?: string;
  /** The page's language: the back office's unless given; null lets the API choose (a statement speaks the vendor's). */
  lang?: string | null;
}) {
  const dataProvider = useDataProvider<ShopDataProvider>();
  const translate = useTranslate();
  const locale = useLocale();
  const frame = useRef<HTMLIFrameElement>(null);
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let objectUrl: string | undefined;
    let current = true;
    const language = lang === undefined ? locale : lang;
    dataProvider.fileUrl(language ? `${path}${path.includes('?') ? '&' : '?'}lang=${language}` : path).then(
      (loaded: string) => {
        objectUrl = loaded;
        if (current) setUrl(loaded);
        else URL.revokeObjectURL(loaded);
      },
      (failed: Error) => current && setError(failed.message),
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [dataProvider, path, locale, lang]);
  if (error) return <Alert severity="error">{error}</Alert>;
  return (
    <Box>
      <Button
        label={printLabel}
        id={`${id}-print`}
        disabled={!url}
        onClick={() => frame.current?.contentWindow?.print()}
        variant="contained"
        sx={{ mb: 1 }}
      >
        <PrintIcon />
      </Button>
      {url ? (
        <Box
          component="iframe"
          ref={frame}
          src={url}
          id={id}
          title={title}
          sx={{ width: '100%', height: { xs: 520, md: 800 }, border: 1, borderColor: 'divider', bgcolor: 'white' }}
        />
      ) : (
        translate('ra.page.loading')
      )}
    </Box>
  );
}
