import { useMemo, useState, type ReactElement } from 'react';
import {
  Admin,
  CustomRoutes,
  localStorageStore,
  Notification,
  Resource,
  ResourceContextProvider,
  type TranslationMessages,
} from 'react-admin';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import type { Login } from '../auth/login.ts';
import { storedLocale } from '../shared/locale.ts';
import type { PublicSettings } from '../shared/settings.ts';
import accounting from './accounting/index.tsx';
import { datevSettingsPath, trialBalancePath } from './accounting/paths.ts';
import { AuthCallback } from './AuthCallback.tsx';
import { loadable } from './common/loadable.tsx';
import credits from './credits/index.ts';
import { createAuthProvider } from './authProvider.ts';
import { createDataProvider } from './dataProvider.ts';
import { createI18nProvider } from './i18n/index.ts';
import { BackofficeLayout } from './layout/Layout.tsx';
import { Spinner } from './layout/Spinner.tsx';
import { themeFor } from './layout/theme.ts';
import orders from './orders/index.ts';
import payouts from './payouts/index.ts';
import outbox from './outbox/index.ts';
import loginLocks from './loginlocks/index.ts';
import webhooks from './webhooks/index.ts';
import products from './products/index.ts';
import { ReconciliationPage, reconciliationPath } from './reconciliation/index.ts';
import protocol from './protocol/index.ts';
import sales from './sales/index.tsx';
import { SettingsContext, useSettings } from './SettingsContext.tsx';
import { BadgeSheet, qrPaths, QrCodeSettings } from './qrcodes/lazy.tsx';
import vendors from './vendors/index.ts';
import { vendorPaths } from './vendors/paths.ts';

// Every screen but the vendor list (the first one) loads when it is opened.
const VendorCreate = loadable(() => import('./vendors/VendorCreate.tsx').then((module) => module.VendorCreate));
const VendorShow = loadable(() => import('./vendors/VendorShow.tsx').then((module) => module.VendorShow));
const VendorEdit = loadable(() => import('./vendors/VendorEdit.tsx').then((module) => module.VendorEdit));
const VendorImport = loadable(() => import('./vendors/import/VendorImport.tsx').then((module) => module.VendorImport));
const PayoutPage = loadable(() => import('./credits/PayoutPage.tsx').then((module) => module.PayoutPage));
const ProductCreate = loadable(() => import('./products/ProductCreate.tsx').then((module) => module.ProductCreate));
const ProductEdit = loadable(() => import('./products/ProductEdit.tsx').then((module) => module.ProductEdit));
const SettingsEdit = loadable(() => import('./settings/SettingsEdit.tsx').then((module) => module.SettingsEdit));
const MapPage = loadable(() => import('./map/MapPage.tsx').then((module) => module.default));
const StatisticsPage = loadable(() => import('./statistics/StatisticsPage.tsx').then((module) => module.default));
const CounterPage = loadable(() => import('./counter/CounterPage.tsx').then((module) => module.CounterPage));
const TillsPage = loadable(() => import('./counter/TillsPage.tsx').then((module) => module.TillsPage));
const DatevSettings = loadable(() => import('./accounting/DatevSettings.tsx').then((module) => module.DatevSettings));
const TrialBalance = loadable(() => import('./accounting/TrialBalance.tsx').then((module) => module.TrialBalance));
const ElsterPage = loadable(() => import('./counter/ElsterPage.tsx').then((module) => module.ElsterPage));
const TodayPage = loadable(() => import('./counter/TodayPage.tsx').then((module) => module.TodayPage));

/**
 * Notices appear at the top: at the bottom, a long one (a refusal in German) covered a form's Save
 * button until it faded.
 */
function TopNotification() {
  return <Notification anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}

/**
 * The back office. Screens live at the specification's addresses: resources where react-admin's
 * own paths fit (/vendorsummary, /productsettings, /productsettings/update/{id}), custom routes in
 * the resource's context where they do not (/newvendor, /userprofile/{id}, /userprofile/{id}/update,
 * /newproduct, /settings/update). "/" goes to the first list, the vendors.
 */
function BackOffice({ login, messages }: { login: Login; messages: TranslationMessages }) {
  const { settings } = useSettings();
  const providers = useMemo(() => {
    const store = localStorageStore(undefined, 'Backoffice');
    // One language choice for the back office, /me and the login page.
    store.setItem('locale', storedLocale());
    return {
      store,
      authProvider: createAuthProvider(login),
      dataProvider: createDataProvider(login),
      i18nProvider: createI18nProvider(storedLocale(), messages),
    };
  }, [login, messages]);
  const theme = useMemo(() => themeFor(settings), [settings]);
  const inVendors = (element: ReactElement) => (
    <ResourceContextProvider value="vendorsummary">{element}</ResourceContextProvider>
  );
  return (
    <Admin
      {...providers}
      theme={theme}
      layout={BackofficeLayout}
      notification={TopNotification}
      loginPage={false}
      requireAuth
      loading={Spinner}
      authCallbackPage={AuthCallback}
      title={settings.newspaperName}
      disableTelemetry
    >
      <Resource {...vendors} />
      <Resource {...credits}>
        <Route path="payout/:id" element={<PayoutPage />} />
      </Resource>
      <Resource {...payouts} />
      <Resource {...sales} />
      <Resource {...accounting} />
      <Resource {...products}>
        <Route path="update/:id" element={<ProductEdit />} />
      </Resource>
      <Resource {...orders} />
      <Resource {...protocol} />
      <Resource {...outbox} />
      <Resource {...loginLocks} />
      <Resource {...webhooks} />
      <Resource name="webhook-deliveries" />
      <CustomRoutes>
        <Route path="/newvendor" element={inVendors(<VendorCreate />)} />
        <Route path="/userprofile/:id" element={inVendors(<VendorShow />)} />
        <Route path="/userprofile/:id/update" element={inVendors(<VendorEdit />)} />
        <Route
          path="/newproduct"
          element={
            <ResourceContextProvider value="productsettings">
              <ProductCreate />
            </ResourceContextProvider>
          }
        />
        <Route path="/settings/update" element={<SettingsEdit />} />
        <Route path={datevSettingsPath} element={<DatevSettings />} />
        <Route path={trialBalancePath} element={<TrialBalance />} />
        <Route path={qrPaths.settings} element={<QrCodeSettings />} />
        <Route path={vendorPaths.import} element={inVendors(<VendorImport />)} />
        <Route path="/map" element={<MapPage />} />
        <Route path="/statistics" element={<StatisticsPage />} />
        <Route path={reconciliationPath} element={<ReconciliationPage />} />
        <Route path="/counter" element={<CounterPage />} />
        <Route path="/counter/:licenseId" element={<CounterPage />} />
        <Route path="/tills" element={<TillsPage />} />
        <Route path="/tills/elster" element={<ElsterPage />} />
        <Route path="/today" element={<TodayPage />} />
      </CustomRoutes>
      <CustomRoutes noLayout>
        <Route path={qrPaths.badges} element={<BadgeSheet />} />
      </CustomRoutes>
    </Admin>
  );
}

export function App({
  login,
  initialSettings,
  messages,
}: {
  login: Login;
  initialSettings: PublicSettings;
  /** The texts of the language it opens in (loaded before the first render). */
  messages: TranslationMessages;
}) {
  const [settings, setSettings] = useState(initialSettings);
  const router = useMemo(
    () =>
      createBrowserRouter([{ path: '*', element: <BackOffice login={login} messages={messages} /> }], {
        basename: '/backoffice',
      }),
    [login, messages],
  );
  return (
    <SettingsContext.Provider value={{ settings, setSettings }}>
      <RouterProvider router={router} />
    </SettingsContext.Provider>
  );
}
