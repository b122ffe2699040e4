import { ThemeProvider, useMediaQuery, type Theme } from '@mui/material';
import { useCallback, useEffect, type ReactNode } from 'react';
import { Layout, Sidebar, useSidebarState, useStore, useTranslate, type SidebarProps } from 'react-admin';
import { BackofficeAppBar } from './AppBar.tsx';
import { BackofficeMenu } from './Menu.tsx';

/**
 * Below the md breakpoint (900 px: a tablet, a small laptop window) the sidebar folds to its icons, so
 * the screen keeps its width for the tables; the menu button in the app bar opens it again. Once the
 * window is wide again, the sidebar it folded opens by itself. The store remembers the folding, so a
 * sidebar someone closed on a wide screen stays closed, and one they opened on a narrow one stays open.
 */
function FoldingSidebar(props: SidebarProps) {
  const narrow = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const [, setOpen] = useSidebarState();
  const [folded, setFolded] = useStore('sidebar.folded', false);
  useEffect(() => {
    if (narrow === folded) return;
    setOpen(!narrow);
    setFolded(narrow);
  }, [narrow, folded, setOpen, setFolded]);
  return <Sidebar {...props} />;
}

/**
 * A progress bar needs a name for a screen reader to say what it waits for; react-admin's spinners
 * (the app bar's while data loads, a reference field's, a save button's) come without one. Every
 * spinner and bar on a screen is named "Die Seite wird geladen." (or the chosen language's words).
 */
function NamedProgress({ children }: { children: ReactNode }) {
  const label = useTranslate()('ra.page.loading');
  const named = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCircularProgress: {
          ...outer.components?.MuiCircularProgress,
          defaultProps: { ...outer.components?.MuiCircularProgress?.defaultProps, 'aria-label': label },
        },
        MuiLinearProgress: {
          ...outer.components?.MuiLinearProgress,
          defaultProps: { ...outer.components?.MuiLinearProgress?.defaultProps, 'aria-label': label },
        },
      },
    }),
    [label],
  );
  return <ThemeProvider theme={named}>{children}</ThemeProvider>;
}

export function BackofficeLayout({ children }: { children: ReactNode }) {
  return (
    <NamedProgress>
      <Layout appBar={BackofficeAppBar} menu={BackofficeMenu} sidebar={FoldingSidebar}>
        {children}
      </Layout>
    </NamedProgress>
  );
}
