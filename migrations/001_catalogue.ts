import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The catalogue: settings, files, items, vendors with locations and comments. Rules that keep data
// sane live here as constraints so no code path can bypass them.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table system_state (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now()
    );

    create table files (
      id uuid primary key default gen_random_uuid(),
      content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'image/svg+xml')),
      size integer not null check (size > 0),
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      name text not null default '' check (length(name) <= 255),
      data bytea not null,
      created_at timestamptz not null default now(),
      check (octet_length(data) = size)
    );

    create table items (
      id serial primary key,
      name text not null check (length(btrim(name)) between 1 and 200),
      description text not null default '' check (length(description) <= 5000),
      price integer not null check (price >= 0),
      image_file_id uuid references files(id),
      measure text not null default '' check (length(measure) <= 100),
      item_order integer not null default 0,
      is_main_product boolean not null default false,
      takes_over_transaction_costs boolean not null default false,
      color text check (color ~ '^#[0-9a-fA-F]{3,8}$'),
      font_color text check (font_color ~ '^#[0-9a-fA-F]{3,8}$'),
      max_order_amount integer check (max_order_amount > 0),
      is_license_item boolean not null default false,
      license_item_id integer references items(id),
      license_group text check (length(license_group) <= 100),
      is_pdf_item boolean not null default false,
      pdf_file_id uuid references files(id),
      donation_only boolean not null default false,
      disabled boolean not null default false,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint items_donation_only_not_allowed check (not donation_only),
      constraint items_license_not_self check (license_item_id is distinct from id),
      constraint items_license_item_has_no_license check (not (is_license_item and license_item_id is not null)),
      constraint items_pdf_is_license check (not is_pdf_item or is_license_item),
      constraint items_pdf_needs_file check (not is_pdf_item or pdf_file_id is not null),
      constraint items_main_not_license check (not (is_main_product and is_license_item))
    );
    -- one main product at a time among the live items
    create unique index items_one_main_product on items ((true)) where is_main_product and deleted_at is null;

    create table settings (
      id integer primary key default 1 check (id = 1),
      newspaper_name text not null default '' check (length(newspaper_name) <= 200),
      color text not null default '#000' check (color ~ '^#[0-9a-fA-F]{3,8}$'),
      font_color text not null default '#fff' check (font_color ~ '^#[0-9a-fA-F]{3,8}$'),
      logo_file_id uuid references files(id),
      favicon_file_id uuid references files(id),
      qr_code_logo_file_id uuid references files(id),
      agb_url text not null default '',
      maintainance_mode_help_url text not null default '',
      vendor_not_found_help_url text not null default '',
      qr_code_url text not null default '',
      qr_code_settings jsonb not null default '{}'::jsonb check (jsonb_typeof(qr_code_settings) = 'object'),
      qr_code_enable_logo boolean not null default false,
      vendor_email_postfix text not null default '' check (vendor_email_postfix = '' or vendor_email_postfix ~ '^@?[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$'),
      webshop_is_closed boolean not null default false,
      map_center_lat double precision not null default 48.2082 check (map_center_lat between -90 and 90),
      map_center_long double precision not null default 16.3738 check (map_center_long between -180 and 180),
      use_vendor_license_id_in_shop boolean not null default false,
      use_tip_instead_of_donation boolean not null default false,
      orga_covers_transaction_costs boolean not null default true,
      max_order_amount integer not null default 15000 check (max_order_amount > 0),
      style_css text not null default '',
      style_revision integer not null default 0 check (style_revision >= 0),
      updated_at timestamptz not null default now()
    );
    insert into settings (id) values (1);

    create table vendors (
      id serial primary key,
      license_id text not null check (license_id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$'),
      first_name text not null check (length(btrim(first_name)) between 1 and 100),
      last_name text not null default '' check (length(last_name) <= 100),
      email text check (email ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'),
      language text not null default '' check (length(language) <= 50),
      telephone text not null default '' check (length(telephone) <= 50),
      address text not null default '' check (length(address) <= 300),
      post_code text not null default '' check (length(post_code) <= 20),
      location text not null default '' check (length(location) <= 300),
      longitude double precision check (longitude between -180 and 180),
      latitude double precision check (latitude between -90 and 90),
      working_time text not null default '' check (length(working_time) <= 300),
      registration_date date,
      vendor_since date,
      has_bank_account boolean not null default false,
      has_smartphone boolean not null default false,
      online_map boolean not null default false,
      account_proof_url text check (length(account_proof_url) <= 1000),
      debt text not null default '' check (length(debt) <= 1000),
      is_disabled boolean not null default false,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    -- a licence id is printed on badges: unique (case-insensitively) among vendors not deleted
    create unique index vendors_license_id_live on vendors (lower(license_id)) where deleted_at is null;

    create table vendor_locations (
      id serial primary key,
      vendor_id integer not null references vendors(id) on delete cascade,
      name text not null check (length(btrim(name)) between 1 and 200),
      address text not null default '' check (length(address) <= 300),
      post_code text not null default '' check (length(post_code) <= 20),
      latitude double precision check (latitude between -90 and 90),
      longitude double precision check (longitude between -180 and 180),
      working_time jsonb not null default '{"kind":"allDay"}'::jsonb
        check (working_time->>'kind' in ('allDay', 'mornings', 'afternoons', 'weekly')),
      created_at timestamptz not null default now()
    );
    create index vendor_locations_vendor on vendor_locations (vendor_id);

    create table vendor_comments (
      id serial primary key,
      vendor_id integer not null references vendors(id) on delete cascade,
      comment text not null check (length(btrim(comment)) between 1 and 5000),
      warning boolean not null default false,
      created_at timestamptz not null default now(),
      resolved_at timestamptz,
      check (resolved_at is null or resolved_at >= created_at)
    );
    create index vendor_comments_vendor on vendor_comments (vendor_id);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
