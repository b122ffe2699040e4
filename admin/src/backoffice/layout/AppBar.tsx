import { Box, Typography } from '@mui/material';
import { AppBar, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { assetUrl } from '../../shared/settings.ts';
import { useSettings } from '../SettingsContext.tsx';

/** The newspaper's logo and name, then the page title; in the newspaper's colours (see theme.ts). */
export function BackofficeAppBar() {
  const { settings } = useSettings();
  const translate = useTranslate();
  return (
    <AppBar color="primary" userMenu={false} toolbar={<LoadingIndicator />}>
      <Box
        component="img"
        src={assetUrl(settings.logo)}
        alt=""
        sx={{ height: 28, maxWidth: 80, objectFit: 'contain', mr: 1 }}
      />
      <Typography
        id="backoffice-newspaper-name"
        variant="h6"
        component="span"
        noWrap
        sx={{ mr: 2, display: { xs: 'none', md: 'block' } }}
      >
        {settings.newspaperName || translate('app.title_default')}
      </Typography>
      {/* The page's title is the page's one h1 (every screen sets it through <PageTitle>). */}
      <TitlePortal component="h1" />
    </AppBar>
  );
}
