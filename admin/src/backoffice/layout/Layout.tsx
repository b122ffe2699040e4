import { useMediaQuery, type Theme } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Layout, Sidebar, useSidebarState, useStore, type SidebarProps } from 'react-admin';
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

export function BackofficeLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={BackofficeAppBar} menu={BackofficeMenu} sidebar={FoldingSidebar}>
      {children}
    </Layout>
  );
}
