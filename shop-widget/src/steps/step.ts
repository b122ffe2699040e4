import type { Signal } from '@preact/signals';
import type { VendorCheck } from '../boot.ts';
import type { Route, Step } from '../route.ts';
import { stepPath } from '../route.ts';
import type { Flow } from '../store.ts';

/** What every step of a vendor's shop gets: the vendor, the customer's flow there, the route. */
export interface StepProps {
  vendor: VendorCheck;
  flow: Signal<Flow>;
  route: Extract<Route, { page: 'vendor' }>;
}

/** Another step of the same vendor's shop. */
export const at = (props: StepProps, step: Step, query = '') => stepPath(props.route.id, step, query);

export function update(props: StepProps, changes: Partial<Flow>): void {
  // Another cart or tip is another order: its "Pay" must not be answered with the last one's.
  const renewed = 'cart' in changes || 'tip' in changes ? { cartId: undefined, retryOf: undefined } : {};
  props.flow.value = { ...props.flow.value, ...renewed, ...changes };
}
