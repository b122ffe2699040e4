import type { FunctionComponent } from 'preact';
import type { Step } from '../route.ts';
import { Confirmation } from './Confirmation.tsx';
import { CustomTip } from './CustomTip.tsx';
import { Information } from './Information.tsx';
import { ItemAvailable } from './ItemAvailable.tsx';
import { Landing } from './Landing.tsx';
import { Payment } from './Payment.tsx';
import { PrintDigital } from './PrintDigital.tsx';
import { Shop } from './Shop.tsx';
import { Tipping } from './Tipping.tsx';
import type { StepProps } from './step.ts';

/** The screen of each step of a vendor's shop; check-id shows the landing page for a valid id. */
export const stepScreens: Record<Step, FunctionComponent<StepProps>> = {
  'check-id': Landing,
  'landing-page': Landing,
  shop: Shop,
  items: Shop,
  'item-available': ItemAvailable,
  additionalproducts: Shop,
  'print-digital': PrintDigital,
  information: Information,
  tipping: Tipping,
  'custom-tip': CustomTip,
  confirmation: Confirmation,
  payment: Payment,
};
