import { lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { Loading } from 'react-admin';

/**
 * A screen whose code loads when it is first shown: the back office's first screen, the vendor list,
 * must not carry the code (and libraries) of every other screen (at most 300 KB of gzipped
 * JavaScript before the vendor list).
 */
export function loadable<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <Loading />) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function Loadable(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...(props as ComponentProps<typeof Lazy>)} />
      </Suspense>
    );
  };
}
