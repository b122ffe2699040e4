import { Box, type Theme } from '@mui/material';
import type { SystemStyleObject } from '@mui/system';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** Dark on white, as the theme's ring on checkboxes and switches. */
const focusRing = { outline: '2px solid #1a1a1a', outlineOffset: 2 };

/**
 * A table wider (or, with a maxHeight in `sx`, taller) than its room scrolls inside this box instead
 * of the whole page. The box is a named region in the tab order, so a keyboard user can reach it and
 * scroll it with the arrow keys (WCAG 2.1.1; axe's rule scrollable-region-focusable). With
 * `pinFirstColumn` the first column stays in view while the others scroll past, so each row's amounts
 * can still be read against what the row is. `label` is a message key.
 */
export function ScrollRegion({
  label,
  pinFirstColumn,
  sx,
  children,
}: {
  label: string;
  pinFirstColumn?: boolean;
  sx?: SystemStyleObject<Theme>;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const pinned = pinFirstColumn
    ? {
        '& :is(th, td):first-of-type': {
          position: 'sticky',
          left: 0,
          zIndex: 1,
          backgroundColor: 'background.paper',
        },
      }
    : {};
  return (
    <Box
      role="region"
      aria-label={translate(label)}
      tabIndex={0}
      className="scroll-region"
      sx={{ overflow: 'auto', maxWidth: '100%', '&:focus-visible': focusRing, ...pinned, ...sx }}
    >
      {children}
    </Box>
  );
}
