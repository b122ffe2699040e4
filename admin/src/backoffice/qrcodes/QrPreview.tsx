import { Box, CircularProgress, Typography } from '@mui/material';
import type QRCodeStyling from 'qr-code-styling';
import type { Options } from 'qr-code-styling';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { loadStyling } from '../../shared/code-file.ts';

/** A code drawn by qr-code-styling that follows `options` as they change (the live preview). */
export function QrPreview({ options, id }: { options: Options; id?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const code = useRef<QRCodeStyling | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const translate = useTranslate();

  useEffect(() => {
    let current = true;
    loadStyling()
      .then(({ default: Styling }) => {
        if (!current || !box.current) return;
        if (code.current) code.current.update(options);
        else {
          code.current = new Styling(options);
          box.current.replaceChildren();
          code.current.append(box.current);
        }
        setFailure(null);
        setDrawn(true);
      })
      .catch((error: Error) => current && setFailure(error.message));
    return () => {
      current = false;
    };
  }, [options]);

  return (
    <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1 }}>
      {!drawn && !failure && (
        <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{translate('app.qr.loading')}</Typography>
        </Box>
      )}
      {failure && <Typography color="error">{translate('app.qr.failed', { message: failure })}</Typography>}
      <Box ref={box} id={id} sx={{ '& svg, & canvas': { maxWidth: '100%', height: 'auto' } }} />
    </Box>
  );
}
