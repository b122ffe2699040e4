import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** A titled group of form fields, two columns from tablet width up. `title` is a message key. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%', maxWidth: 760 }}>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2, mb: 1, fontWeight: 600 }}>
        {translate(title)}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>{children}</Box>
    </Box>
  );
}

/** A field across both columns. */
export const wide = { gridColumn: '1 / -1' };
