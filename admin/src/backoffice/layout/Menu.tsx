import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import BalanceIcon from '@mui/icons-material/Balance';
import BarChartIcon from '@mui/icons-material/BarChart';
import CompareArrowsIcon from '@mui/icons-material/CompareArrows';
import LogoutIcon from '@mui/icons-material/ExitToApp';
import HistoryIcon from '@mui/icons-material/History';
import LockIcon from '@mui/icons-material/Lock';
import MapIcon from '@mui/icons-material/Map';
import NewspaperIcon from '@mui/icons-material/Newspaper';
import OutboxIcon from '@mui/icons-material/Outbox';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import SettingsIcon from '@mui/icons-material/Settings';
import StorefrontIcon from '@mui/icons-material/Storefront';
import CountertopsIcon from '@mui/icons-material/Countertops';
import TodayIcon from '@mui/icons-material/Today';
import WebhookIcon from '@mui/icons-material/Webhook';
import {
  Box,
  Divider,
  MenuItem,
  ListItemIcon,
  ListItemText,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { ReactElement } from 'react';
import { Menu, useGetIdentity, useLocaleState, useLogout, useSidebarState, useTranslate } from 'react-admin';
import { rememberLocale, type Locale } from '../../shared/locale.ts';

/**
 * The sidebar in the specification's order: vendors, credits, payouts, sales, accounting (its trial
 * balance and the Stripe reconciliation after it), products, settings (with the QR codes beside
 * them), map, statistics, orders, protocol, outbox, locked logins, webhooks for other systems;
 * the office's start screen first and the counter with its cash book beside the payouts.
 */
const entries: { to: string; label: string; icon: ReactElement }[] = [
  { to: '/today', label: 'app.menu.today', icon: <TodayIcon /> },
  { to: '/vendorsummary', label: 'app.menu.vendors', icon: <PeopleIcon /> },
  { to: '/credits', label: 'app.menu.credits', icon: <AccountBalanceWalletIcon /> },
  { to: '/payouts', label: 'app.menu.payouts', icon: <PaymentsIcon /> },
  { to: '/counter', label: 'app.menu.counter', icon: <StorefrontIcon /> },
  { to: '/tills', label: 'app.menu.tills', icon: <CountertopsIcon /> },
  { to: '/sales', label: 'app.menu.sales', icon: <PointOfSaleIcon /> },
  { to: '/payments', label: 'app.menu.accounting', icon: <AccountBalanceIcon /> },
  { to: '/trial-balance', label: 'app.menu.trial_balance', icon: <BalanceIcon /> },
  { to: '/stripe-reconciliation', label: 'app.menu.reconciliation', icon: <CompareArrowsIcon /> },
  { to: '/productsettings', label: 'app.menu.products', icon: <NewspaperIcon /> },
  { to: '/settings/update', label: 'app.menu.settings', icon: <SettingsIcon /> },
  { to: '/settings/qrcode', label: 'app.menu.qrcodes', icon: <QrCodeIcon /> },
  { to: '/map', label: 'app.menu.map', icon: <MapIcon /> },
  { to: '/statistics', label: 'app.menu.statistics', icon: <BarChartIcon /> },
  { to: '/orders', label: 'app.menu.orders', icon: <ReceiptIcon /> },
  { to: '/protocol', label: 'app.menu.protocol', icon: <HistoryIcon /> },
  { to: '/outbox', label: 'app.menu.outbox', icon: <OutboxIcon /> },
  { to: '/login-locks', label: 'app.menu.loginlocks', icon: <LockIcon /> },
  { to: '/webhook-endpoints', label: 'app.menu.webhooks', icon: <WebhookIcon /> },
];

function LogoutItem() {
  const logout = useLogout();
  const translate = useTranslate();
  return (
    <MenuItem id="backoffice-logout" onClick={() => void logout()}>
      <ListItemIcon sx={{ color: 'inherit' }}>
        <LogoutIcon />
      </ListItemIcon>
      <ListItemText>{translate('ra.auth.logout')}</ListItemText>
    </MenuItem>
  );
}

function UserStatus() {
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  return (
    <Typography id="backoffice-user" variant="body2" sx={{ px: 2, py: 1 }}>
      {identity?.fullName ? translate('app.user.logged_in', { name: identity.fullName }) : translate('app.user.none')}
    </Typography>
  );
}

// On the newspaper's colour: outlined in the text colour, the chosen language filled.
const toggle = {
  color: 'inherit',
  borderColor: 'currentColor',
  '&.Mui-selected, &.Mui-selected:hover': {
    color: 'inherit',
    backgroundColor: 'rgba(255, 255, 255, 0.3)',
    fontWeight: 700,
  },
};

function LanguageSwitch() {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  const choose = (_event: unknown, next: Locale | null) => {
    if (!next) return;
    rememberLocale(next);
    setLocale(next);
  };
  return (
    <ToggleButtonGroup
      id="backoffice-language"
      exclusive
      size="small"
      value={locale}
      onChange={choose}
      aria-label={translate('app.language')}
      sx={{ px: 2, py: 1 }}
    >
      {/* Named by what it shows ("DE"), so voice control finds it; the title says it in full. */}
      <ToggleButton value="de" lang="de" title="Deutsch" sx={toggle}>
        DE
      </ToggleButton>
      <ToggleButton value="en" lang="en" title="English" sx={toggle}>
        EN
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

export function BackofficeMenu() {
  const [open] = useSidebarState();
  const translate = useTranslate();
  // A menu holds menu items only (a screen reader announces it as such): the separator, the user
  // and the language switch stand after it, not inside it.
  return (
    <Box component="nav" aria-label={translate('app.menu.label')}>
      <Menu>
        {entries.map((entry) => (
          <Menu.Item key={entry.to} to={entry.to} primaryText={entry.label} leftIcon={entry.icon} />
        ))}
        <LogoutItem />
      </Menu>
      {open && (
        <Box>
          <Divider sx={{ borderColor: 'currentColor', opacity: 0.3 }} />
          <UserStatus />
          <LanguageSwitch />
        </Box>
      )}
    </Box>
  );
}
