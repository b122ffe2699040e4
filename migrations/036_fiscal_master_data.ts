import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The master data a tax audit's DSFinV-K export names (Stamm_Abschluss, Stamm_Orte): the paper's
// address in fields of their own (street, post code, town, country as ISO 3166 alpha-3), its tax
// number (Steuernummer) and VAT id (USt-IdNr.), and per till the place it stands when that is not
// the paper's address. Empty means "not set"; the export refuses until what it needs is set.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column company_street text not null default '' check (length(company_street) <= 60);
    alter table settings add column company_postcode text not null default '' check (length(company_postcode) <= 10);
    alter table settings add column company_town text not null default '' check (length(company_town) <= 62);
    alter table settings add column company_country text not null default 'DEU' check (company_country ~ '^[A-Z]{3}$');
    alter table settings add column tax_number text not null default '' check (length(tax_number) <= 20);
    alter table settings add column vat_id text not null default '' check (length(vat_id) <= 15);
    alter table tills add column location_name text not null default '' check (length(location_name) <= 60);
    alter table tills add column location_street text not null default '' check (length(location_street) <= 60);
    alter table tills add column location_postcode text not null default '' check (length(location_postcode) <= 10);
    alter table tills add column location_town text not null default '' check (length(location_town) <= 62);
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
