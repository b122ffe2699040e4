import type { Knex } from 'knex';

/** The one settings row as stored (snake_case columns). */
export type SettingsRow = Record<string, unknown> & {
  newspaper_name: string;
  vendor_email_postfix: string;
  use_vendor_license_id_in_shop: boolean;
  webshop_is_closed: boolean;
  max_order_amount: number;
  style_revision: number;
};

export async function getSettingsRow(db: Knex | Knex.Transaction): Promise<SettingsRow> {
  const row = await db('settings').where({ id: 1 }).first();
  if (!row) throw new Error('The settings row is missing; migrations create it.');
  return row as SettingsRow;
}
