import { useEffect, useRef, useState } from 'react';
import { formatMonth } from '../../shared/dates.ts';
import type { Get, OpenPage } from '../api.ts';
import type { PageProps } from './props.ts';

/** "2026-05" → its first and last day, as the API reads a period. */
function monthDays(month: string): { from: string; to: string } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** /me/statements: the months the vendor's credit moved in; one chosen opens its printable statement. */
export function Statements({ get, openPage, t, locale }: PageProps & { get: Get; openPage: OpenPage }) {
  const [months, setMonths] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [month, setMonth] = useState<string>();
  // The page loaded last, with the month and language it shows: a page of another month is not shown.
  const [page, setPage] = useState<{ key: string; url: string }>();
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    get<{ months: string[] }>('/api/vendors/me/statements').then(
      (answer) => setMonths(answer.months),
      () => setFailed(true),
    );
  }, [get]);

  useEffect(() => {
    if (!month) return;
    let current = true;
    let loaded: string | undefined;
    const { from, to } = monthDays(month);
    openPage(`/api/vendors/me/statement?from=${from}&to=${to}&format=html&lang=${locale}`).then(
      (objectUrl) => {
        loaded = objectUrl;
        if (current) setPage({ key: `${month} ${locale}`, url: objectUrl });
        else URL.revokeObjectURL(objectUrl);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
      if (loaded) URL.revokeObjectURL(loaded);
    };
  }, [month, openPage, locale]);

  const url = page?.key === `${month} ${locale}` ? page.url : undefined;
  const monthName = (value: string) => formatMonth(value, locale);

  return (
    <>
      <section className="me-card" id="me-statement-months">
        <h2>{t.statementMonths}</h2>
        {failed && <p role="alert">{t.error}</p>}
        {!failed && months === null && <p>{t.loading}</p>}
        {months?.length === 0 && <p>{t.noStatements}</p>}
        {months && months.length > 0 && (
          <ul className="me-months">
            {months.map((value) => (
              <li key={value}>
                <button
                  type="button"
                  aria-pressed={value === month}
                  onClick={() => setMonth(value)}
                  id={`me-statement-${value}`}
                >
                  {monthName(value)}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {month && (
        <section className="me-card" id="me-statement">
          <h2>{`${t.statement} ${monthName(month)}`}</h2>
          {!url && !failed && <p>{t.loading}</p>}
          {url && (
            <>
              <div className="me-buttons">
                <button type="button" id="me-statement-print" onClick={() => frame.current?.contentWindow?.print()}>
                  {t.print}
                </button>
              </div>
              <iframe
                ref={frame}
                src={url}
                id="me-statement-page"
                title={`${t.statement} ${monthName(month)}`}
                className="me-statement-frame"
              />
            </>
          )}
        </section>
      )}
    </>
  );
}
