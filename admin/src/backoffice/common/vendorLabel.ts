import { useTranslate } from 'react-admin';

/** A vendor as the lists of money name them; only an anonymised vendor has no licence ID. */
export interface NamedVendor {
  id: number;
  licenseId: string | null;
  name: string;
}

/** "DEMO-1 Anna Muster"; an anonymised vendor by the pseudonym, in the screen's language ("Deleted #17"). */
export function useVendorLabel(): (vendor: NamedVendor) => string {
  const translate = useTranslate();
  return (vendor) =>
    vendor.licenseId === null
      ? translate('app.vendor.pseudonym', { id: vendor.id })
      : `${vendor.licenseId} ${vendor.name}`.trim();
}
