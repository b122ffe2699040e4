import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { setDocumentTitle } from '../../shared/settings.ts';
import { useSettings } from '../SettingsContext.tsx';

/**
 * A screen's title: shown in the app bar, and in the browser tab as "<newspaper> | <page>".
 * `page` is a message key.
 */
export function PageTitle({ page }: { page: string }) {
  const translate = useTranslate();
  const { settings } = useSettings();
  const text = translate(page);
  useEffect(() => {
    setDocumentTitle(settings.newspaperName, text, translate('app.title_default'));
  }, [settings.newspaperName, text, translate]);
  return <span id="backoffice-page-title">{text}</span>;
}
