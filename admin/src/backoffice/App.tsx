import { useMemo, useState, type ReactElement } from 'react';
import { Admin, CustomRoutes, localStorageStore, Resource, ResourceContextProvider } from 'react-admin';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import type { Login } from '../auth/login.ts';
import { storedLocale } from '../shared/locale.ts';
import type { PublicSettings } from '../shared/settings.ts';
import accounting from './accounting/index.tsx';
import { AuthCallback } from './AuthCallback.tsx';
import credits from './credits/index.ts';
import { CounterPage } from './counter/CounterPage.tsx';
import { TillsPage } from './counter/TillsPage.tsx';
import { TodayPage } from './counter/TodayPage.tsx';
import { PayoutPage } from './credits/PayoutPage.tsx';
import { createAuthProvider } from './authProvider.ts';
import { createDataProvider } from './dataProvider.ts';
import { createI18nProvider } from './i18n/index.ts';
import { BackofficeLayout } from './layout/Layout.tsx';
import { Spinner } from './layout/Spinner.tsx';
import { themeFor } from './layout/theme.ts';
import { LazyMap } from './map/LazyMap.tsx';
import orders from './orders/index.ts';
import payouts from './payouts/index.ts';
import outbox from './outbox/index.ts';
import loginLocks from './loginlocks/index.ts';
import products from './products/index.ts';
import protocol from './protocol/index.ts';
import sales from './sales/index.tsx';
import { ProductCreate } from './products/ProductCreate.tsx';
import { ProductEdit } from './products/ProductEdit.tsx';
import { SettingsContext, useSettings } from './SettingsContext.tsx';
import { BadgeSheet, qrPaths, QrCodeSettings } from './qrcodes/lazy.tsx';
import { SettingsEdit } from './settings/SettingsEdit.tsx';
import { LazyStatistics } from './statistics/LazyStatistics.tsx';
import vendors from './vendors/index.ts';
import { VendorCreate } from './vendors/VendorCreate.tsx';
import { VendorEdit } from './vendors/VendorEdit.tsx';
import { LazyVendorImport } from './vendors/import/LazyVendorImport.tsx';
import { vendorPaths } from './vendors/paths.ts';
import { VendorShow } from './vendors/VendorShow.tsx';

/**
 * The back office. Screens live at the specification's addresses: resources where react-admin's
 * own paths fit (/vendorsummary, /productsettings, /productsettings/update/{id}), custom routes in
 * the resource's context where they do not (/newvendor, /userprofile/{id}, /userprofile/{id}/update,
 * /newproduct, /settings/update). "/" goes to the first list, the vendors.
 */
function BackOffice({ login }: { login: Login }) {
  const { settings } = useSettings();
  const providers = useMemo(() => {
    const store = localStorageStore(undefined, 'Backoffice');
    // One language choice for the back office, /me and the login page.
    store.setItem('locale', storedLocale());
    return {
      store,
      authProvider: createAuthProvider(login),
      dataProvider: createDataProvider(login),
      i18nProvider: createI18nProvider(storedLocale()),
    };
  }, [login]);
  const theme = useMemo(() => themeFor(settings), [settings]);
  const inVendors = (element: ReactElement) => (
    <ResourceContextProvider value="vendorsummary">{element}</ResourceContextProvider>
  );
  return (
    <Admin
      {...providers}
      theme={theme}
      layout={BackofficeLayout}
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
        <Route path={qrPaths.settings} element={<QrCodeSettings />} />
        <Route path={vendorPaths.import} element={inVendors(<LazyVendorImport />)} />
        <Route path="/map" element={<LazyMap />} />
        <Route path="/statistics" element={<LazyStatistics />} />
        <Route path="/counter" element={<CounterPage />} />
        <Route path="/counter/:licenseId" element={<CounterPage />} />
        <Route path="/tills" element={<TillsPage />} />
        <Route path="/today" element={<TodayPage />} />
      </CustomRoutes>
      <CustomRoutes noLayout>
        <Route path={qrPaths.badges} element={<BadgeSheet />} />
      </CustomRoutes>
    </Admin>
  );
}

export function App({ login, initialSettings }: { login: Login; initialSettings: PublicSettings }) {
  const [settings, setSettings] = useState(initialSettings);
  const router = useMemo(
    () => createBrowserRouter([{ path: '*', element: <BackOffice login={login} /> }], { basename: '/backoffice' }),
    [login],
  );
  return (
    <SettingsContext.Provider value={{ settings, setSettings }}>
      <RouterProvider router={router} />
    </SettingsContext.Provider>
  );
}
