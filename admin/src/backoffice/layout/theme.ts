import type { Theme } from '@mui/material';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { PublicSettings } from '../../shared/settings.ts';

/** Dark on the page's white and grey and on the newspaper's colour in a switch's track alike. */
const focusRing = { outline: '2px solid #1a1a1a', outlineOffset: 2 };

/** react-admin's default look, with the app bar and the sidebar in the newspaper's colours. */
export function themeFor({ color, fontColor }: Pick<PublicSettings, 'color' | 'fontColor'>): RaThemeOptions {
  return {
    ...defaultTheme,
    palette: {
      ...defaultTheme.palette,
      primary: { main: color, contrastText: fontColor },
      secondary: { main: color, contrastText: fontColor },
      // MUI's red (#d32f2f) reads at 3.77:1 on the form toolbar's grey; this one at over 6:1.
      error: { main: '#b71c1c' },
    },
    components: {
      ...defaultTheme.components,
      RaSidebar: {
        styleOverrides: {
          root: {
            backgroundColor: color,
            color: fontColor,
            '& .MuiPaper-root, & .RaSidebar-fixed': { backgroundColor: color, color: fontColor },
          },
        },
      },
      // The page never grows wider than the window: react-admin lets the layout grow to fit its widest
      // content (minWidth: fit-content on the layout, min-width: auto on its flex items), so one wide table
      // made the whole page, app bar and toolbars included, scroll sideways. Without that, a wide table
      // scrolls in its own box (the data tables' wrapper below, common/ScrollRegion elsewhere).
      RaLayout: {
        styleOverrides: {
          root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } },
        },
      },
      RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
      RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
      // The search and the list's buttons share a row only while both fit: with the buttons of a
      // selection added they go on a row of their own (and wrap there) instead of squeezing the search.
      RaListToolbar: {
        styleOverrides: {
          root: { flexWrap: 'wrap', '& .RaFilterForm-root': { flex: '1 0 auto' } },
        },
      },
      RaTopToolbar: { styleOverrides: { root: { flexWrap: 'wrap', marginLeft: 'auto' } } },
      // A long menu entry ("Gesperrte Anmeldungen") wraps instead of ending in "…" while the sidebar shows
      // its labels; folded to its icons, the entries keep one line (the label is the icon's tooltip).
      RaMenu: {
        styleOverrides: {
          root: { '&.RaMenu-open .RaMenuItemLink-root .MuiTypography-noWrap': { whiteSpace: 'normal' } },
        },
      },
      // On a phone a table's cells keep 8 px on either side instead of 16 px: with 16 px, a table of
      // four short columns (the webhooks) or three in German (their deliveries) was a few pixels wider
      // than a 390 px screen, and the whole page scrolled sideways.
      MuiTableCell: {
        styleOverrides: {
          root: ({ theme }: { theme: Theme }) => ({
            ...(defaultTheme.components?.MuiTableCell?.styleOverrides?.root as object),
            [theme.breakpoints.down('sm')]: { paddingLeft: 8, paddingRight: 8 },
          }),
        },
      },
      // A form's save bar on a phone sticks to the bottom of the screen while the form is on it, then
      // stays at the form's end. react-admin fixes it to the screen instead, where it lay over whatever
      // follows the form at the end of the page (a webhook's deliveries, a vendor's comments) and left
      // its last row and buttons out of reach.
      RaToolbar: {
        styleOverrides: {
          root: { '&.RaToolbar-mobileToolbar': { position: 'sticky' } },
        },
      },
      // While that bar is on a phone's screen, a field the keyboard focuses is brought into view above
      // it, not behind it: the browser keeps room for the bar and a margin when it scrolls to the focus.
      MuiCssBaseline: { styleOverrides: { 'html:has(.RaToolbar-mobileToolbar)': { scrollPaddingBottom: 80 } } },
      // The room react-admin leaves under a form for the fixed bar would now stand empty above it.
      RaSimpleForm: {
        styleOverrides: {
          root: ({ theme }: { theme: Theme }) => ({ [theme.breakpoints.down('sm')]: { paddingBottom: 16 } }),
        },
      },
      // The card's hidden overflow would pin the sticky bar to the card instead of the screen.
      RaEdit: { styleOverrides: { root: { '& .RaEdit-card': { overflow: 'visible' } } } },
      RaCreate: { styleOverrides: { root: { '& .RaCreate-card': { overflow: 'visible' } } } },
      // Keyboard focus on a switch, a checkbox or a radio button shows as a dark ring. MUI marks it only
      // with a ripple, and none showed in Chromium: a focused switch looked exactly like the others.
      MuiSwitch: { styleOverrides: { switchBase: { '&.Mui-focusVisible .MuiSwitch-thumb': focusRing } } },
      MuiCheckbox: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
      MuiRadio: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
      // react-admin draws its skip link in the contrast text on the page background: unreadable on white.
      RaSkipNavigationButton: { styleOverrides: { root: { color: '#1a1a1a' } } },
      RaMenuItemLink: {
        styleOverrides: {
          root: {
            color: fontColor,
            '& .RaMenuItemLink-icon': { color: fontColor },
            '&.RaMenuItemLink-active': {
              color: fontColor,
              fontWeight: 700,
              backgroundColor: 'rgba(255, 255, 255, 0.18)',
            },
          },
        },
      },
    },
  };
}
