import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { env, inLang, t } from '../store.ts';
import { Loading, Screen } from '../ui.tsx';
import { WayOn } from './WayOn.tsx';

/** `/pdf/<linkId>` from the e-mail: the download while the link is valid. */
export function Pdf(props: { id: string }) {
  const [state, setState] = useState<{ itemName: string; itemNameEn?: string } | 'invalid'>();
  useEffect(() => {
    void callApi<{ itemName: string; itemNameEn?: string }>(`/api/pdf/${encodeURIComponent(props.id)}/validate/`).then(
      (answer) => setState(answer.ok ? answer.body : 'invalid'),
    );
  }, [props.id]);
  if (!state) return <Loading label={t('loading')} />;
  if (state === 'invalid') {
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
        {t('download', { name: inLang(state.itemName, state.itemNameEn) })}
      </a>
    </Screen>
  );
}
