import { z } from 'zod';
import {
  boolean,
  cents,
  colour,
  fileAsText,
  formField,
  id,
  integer,
  optionalFormField,
  text,
  vatRate,
} from '../foundations/form-fields.ts';

const fields = {
  name: formField(text({ min: 1, max: 200, required: 'Please enter a name.' }), 'Please enter a name.'),
  description: formField(text({ max: 5000 })),
  // The English name and description; empty: the German ones are shown in English too.
  nameEn: formField(text({ max: 200 })),
  descriptionEn: formField(text({ max: 5000 })),
  price: formField(cents(), "Please enter a price in the currency's smallest unit."),
  // What a vendor pays the office per copy at the counter; empty: not sold at the counter.
  counterPrice: optionalFormField(cents()),
  // The VAT rate in the price, in percent (stored in hundredths); empty: the newspaper's rate.
  vatRate: optionalFormField(vatRate),
  measure: formField(text({ max: 100 })),
  order: formField(integer()),
  color: optionalFormField(colour),
  fontColor: optionalFormField(colour),
  maxOrderAmount: optionalFormField(
    integer({ min: 1, message: 'Please enter a whole number greater than 0, or leave it empty.' }),
  ),
  isMainProduct: formField(boolean),
  takesOverTransactionCosts: formField(boolean),
  isLicenseItem: formField(boolean),
  licenseItem: optionalFormField(id('Please choose a licence item.')),
  licenseGroup: optionalFormField(text({ max: 100 })),
  isPdfItem: formField(boolean),
  // Kept in the form (react-admin sends it) only to refuse it: a cart of nothing but a donation is not a sale.
  donationOnly: formField(boolean).refine((value) => !value, 'Donation only is not allowed'),
  disabled: formField(boolean),
  image: fileAsText,
  pdf: fileAsText,
};

/** PUT: every field optional; an absent field keeps its stored value. Unknown fields are ignored. */
export const itemUpdateForm = z.object(fields).partial();
/** POST: as PUT, but a new item needs a name and a price. */
export const itemCreateForm = itemUpdateForm.extend({ name: fields.name, price: fields.price });

export type ItemForm = z.infer<typeof itemUpdateForm>;

/** Everything stored for an item, as the domain works with it. */
export type ItemValues = Required<Omit<ItemForm, 'image' | 'pdf' | 'donationOnly'>> & {
  imageFileId: string | null;
  pdfFileId: string | null;
};

export const itemFileFields = ['image', 'pdf'] as const;
