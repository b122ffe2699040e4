import { loadable } from '../common/loadable.tsx';

// The Stripe reconciliation screen: a page of its own, loaded when it is opened.

export const reconciliationPath = '/stripe-reconciliation';

export const ReconciliationPage = loadable(() => import('./ReconciliationPage.tsx').then((module) => module.default));
