import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { env, inLang, t } from '../store.ts';
import { Loading, Screen } from '../ui.tsx';
import { WayOn } from './WayOn.tsx';

/** What `/api/pdf/<linkId>/validate/` answers for a link that is still valid. */
export interface PdfLink {
  itemName: string;
  itemNameEn?: string;
}

/** `/pdf/<linkId>` from the e-mail: the download while the link is valid. */
export function Pdf(props: { id: string }) {
  const [state, setState] = useState<PdfLink | 'invalid'>();
  useEffect(() => {
    void callApi<PdfLink>(`/api/pdf/${encodeURIComponent(props.id)}/validate/`).then((answer) =>
      setState(answer.ok ? answer.body : 'invalid'),
    );
  }, [props.id]);
  if (!state) return <Loading label={t('loading')} />;
  return <PdfView id={props.id} link={state === 'invalid' ? undefined : state} />;
}

/** The download of a valid link, else what went wrong and the way on; the server draws it too. */
export function PdfView(props: { id: string; link: PdfLink | undefined }) {
  const { link } = props;
  if (!link) {
    return (
      <Screen id="shop-pdf" title={t('invalidLinkTitle')}>
        <p id="shop-pdf-invalid" class="shop-alert" role="alert">
          {t('pdfInvalid')}
        </p>
        <WayOn />
      </Screen>
    );
  }
  return (
    <Screen id="shop-pdf" title={t('pdfTitle')}>
      <a
        id="shop-pdf-download"
        class="shop-button shop-primary"
        href={`${env.apiBase}/api/pdf/${encodeURIComponent(props.id)}/`}
        download
      >
        {t('download', { name: inLang(link.itemName, link.itemNameEn) })}
      </a>
    </Screen>
  );
}
