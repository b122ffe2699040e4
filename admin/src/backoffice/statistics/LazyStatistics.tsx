import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';

// The statistics and their charts load when the screen is opened, not with the back office.
const StatisticsPage = lazy(() => import('./StatisticsPage.tsx'));

export function LazyStatistics() {
  return (
    <Suspense fallback={<Loading />}>
      <StatisticsPage />
    </Suspense>
  );
}
