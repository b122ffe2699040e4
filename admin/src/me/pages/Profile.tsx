import { formatDate } from '../../shared/dates.ts';
import type { OwnVendor } from '../api.ts';
import type { PageProps } from './props.ts';

/** /me/profile: what the office has on file, to check it. */
export function Profile({ vendor, t, locale }: PageProps & { vendor: OwnVendor }) {
  const rows: [string, string | null][] = [
    [t.licenseId, vendor.licenseId],
    [t.name, `${vendor.firstName} ${vendor.lastName}`.trim()],
    [t.email, vendor.email],
    [t.telephone, vendor.telephone],
    [t.address, [vendor.address, vendor.postCode].filter(Boolean).join(', ')],
    [t.language, vendor.language === 'en' ? 'English' : 'Deutsch'],
    [t.vendorSince, vendor.vendorSince && formatDate(vendor.vendorSince, locale)],
  ];
  return (
    <section className="me-card" id="me-profile">
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value || '—'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
