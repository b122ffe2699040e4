import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useSettings } from '../SettingsContext.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

// The preview loads the shop in a frame: only when the editor is open.
const StylePreview = lazy(() => import('./StylePreview.tsx'));

/**
 * The shop's custom CSS as plain text. Saving moves the revision on, so shops fetch the new sheet
 * (public/style.css?rev=N) instead of a cached one. Beside it, the shop with the CSS as typed.
 */
export function StyleEditor() {
  const { settings, setSettings } = useSettings();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [css, setCss] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    void fetch(`/public/style.css?rev=${settings.styleRevision}`)
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => current && setCss((before) => before ?? text));
    return () => {
      current = false;
    };
  }, [settings.styleRevision]);

  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const { styleRevision } = await dataProvider.saveStyleCss(css ?? '');
      setSettings({ ...settings, styleRevision });
      notify('app.settings.css_saved', { type: 'success', messageArgs: { revision: styleRevision } });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card id="settings-css" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('app.settings.css_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" id="settings-css-revision" sx={{ mb: 1 }}>
          {translate('app.settings.css_revision', { revision: settings.styleRevision })}
        </Typography>
        <TextField
          id="settings-css-text"
          label={translate('app.settings.css_label')}
          multiline
          minRows={8}
          fullWidth
          value={css ?? ''}
          onChange={(event) => setCss(event.target.value)}
          error={!!error}
          helperText={error}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <Button
          variant="contained"
          sx={{ mt: 1 }}
          onClick={() => void save()}
          disabled={saving || css === null}
          id="settings-css-save"
        >
          {translate('app.settings.css_save')}
        </Button>
        {css !== null && (
          <Box sx={{ mt: 2 }}>
            <Suspense fallback={null}>
              <StylePreview css={css} />
            </Suspense>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
