import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { BackofficeAppBar } from './AppBar.tsx';
import { BackofficeMenu } from './Menu.tsx';

export function BackofficeLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={BackofficeAppBar} menu={BackofficeMenu}>
      {children}
    </Layout>
  );
}
