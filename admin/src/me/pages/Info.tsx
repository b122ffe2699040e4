import { useEffect, useState } from 'react';
import { formatDate } from '../../shared/dates.ts';
import { formatAmount } from '../../shared/money.ts';
import { ApiError, type Get, type OwnPayment, type OwnVendor } from '../api.ts';
import type { PageProps } from './props.ts';

/** /me: the credit first and large, then the last payout and the last bookings. */
export function Info({
  vendor,
  get,
  t,
  locale,
  currency,
}: PageProps & { get: Get; vendor: OwnVendor; currency: string }) {
  const money = (minor: number) => formatAmount(minor, currency, locale);
  const [payments, setPayments] = useState<OwnPayment[] | string | null>(null);
  const date = (iso: string) => formatDate(iso, locale);

  useEffect(() => {
    get<OwnPayment[]>(`/api/vendors/me/payments?lang=${locale}`).then(setPayments, (error) =>
      setPayments(error instanceof ApiError && error.status === 404 ? t.transactionsUnavailable : t.error),
    );
  }, [get, t, locale]);

  return (
    <>
      <section className="me-card me-credit" id="me-credit">
        <h2>{t.credit}</h2>
        <p className="me-amount" id="me-credit-amount">
          {money(vendor.credit)}
        </p>
      </section>
      <section className="me-card" id="me-last-payout">
        <h2>{t.lastPayout}</h2>
        <p>
          {vendor.lastPayout
            ? [
                money(vendor.lastPayout.amount),
                date(vendor.lastPayout.at),
                vendor.lastPayout.voucher && `${t.voucher} ${vendor.lastPayout.voucher}`,
              ]
                .filter(Boolean)
                .join(' · ')
            : t.noPayout}
        </p>
      </section>
      <section className="me-card" id="me-transactions">
        <h2>{t.transactions}</h2>
        {payments === null && <p>{t.loading}</p>}
        {typeof payments === 'string' && <p>{payments}</p>}
        {Array.isArray(payments) && payments.length === 0 && <p>{t.noTransactions}</p>}
        {Array.isArray(payments) && payments.length > 0 && (
          <ul className="me-list">
            {payments.map((payment) => (
              <li key={payment.id} className={payment.paidOut ? 'me-paid-out' : undefined}>
                <span>
                  {[
                    t[`kind_${payment.kind}` as keyof typeof t] ?? payment.kind,
                    payment.items.map((item) => `${item.name} × ${item.quantity}`).join(', '),
                  ]
                    .filter(Boolean)
                    .join(': ')}
                  <small>
                    {date(payment.createdAt)}
                    {payment.paidOut ? ` · ${t.paidOut}` : ''}
                  </small>
                </span>
                <strong>{money(payment.amount)}</strong>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
