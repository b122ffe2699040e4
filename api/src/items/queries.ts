import type { Knex } from 'knex';
import { pgCode } from '../db/connection.ts';
import { fileUrl, storeFile, type Upload } from '../files/queries.ts';
import { imageKinds, pdfKinds } from '../files/sniff.ts';
import { invalidError, notFoundError, rejectFields, type FieldErrors } from '../foundations/errors.ts';
import type { ItemForm, ItemValues } from './schema.ts';
import { oneRow } from '../foundations/one-row.ts';
import { money, tr, type Language } from '../language/messages.ts';
import { vatPercent } from '../ledger/vat.ts';
import type { ListSpec } from '../foundations/lists.ts';

type Db = Knex | Knex.Transaction;

interface ItemRow {
  id: number;
  name: string;
  description: string;
  name_en: string;
  description_en: string;
  price: number;
  counter_price: number | null;
  vat_rate: number | null;
  image_file_id: string | null;
  measure: string;
  item_order: number;
  is_main_product: boolean;
  takes_over_transaction_costs: boolean;
  color: string | null;
  font_color: string | null;
  max_order_amount: number | null;
  is_license_item: boolean;
  license_item_id: number | null;
  license_group: string | null;
  is_pdf_item: boolean;
  pdf_file_id: string | null;
  pdf_size: number | null;
  donation_only: boolean;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Which column holds each field; reading and writing items both go through this one table. */
const columns = {
  name: 'name',
  description: 'description',
  nameEn: 'name_en',
  descriptionEn: 'description_en',
  price: 'price',
  counterPrice: 'counter_price',
  vatRate: 'vat_rate',
  measure: 'measure',
  order: 'item_order',
  color: 'color',
  fontColor: 'font_color',
  maxOrderAmount: 'max_order_amount',
  isMainProduct: 'is_main_product',
  takesOverTransactionCosts: 'takes_over_transaction_costs',
  isLicenseItem: 'is_license_item',
  licenseItem: 'license_item_id',
  licenseGroup: 'license_group',
  isPdfItem: 'is_pdf_item',
  disabled: 'disabled',
  imageFileId: 'image_file_id',
  pdfFileId: 'pdf_file_id',
} as const satisfies Record<keyof ItemValues, keyof ItemRow>;

const fields = Object.entries(columns) as [keyof ItemValues, keyof ItemRow][];

function fromRow(row: ItemRow): ItemValues {
  return Object.fromEntries(fields.map(([field, column]) => [field, row[column]])) as ItemValues;
}

function toRow(values: ItemValues): Record<string, unknown> {
  return Object.fromEntries(fields.map(([field, column]) => [column, values[field]]));
}

/** The English name and description where staff entered them: the shop's copy keeps both languages. */
function englishTexts(nameEn: string, descriptionEn: string): { nameEn?: string; descriptionEn?: string } {
  return { ...(nameEn && { nameEn }), ...(descriptionEn && { descriptionEn }) };
}

type PublicItem = ReturnType<typeof toPublicItem>;

/**
 * The shop's items with their name and description in `language`, German where no English was
 * entered: the shop gets one language, so its first screen carries no second one.
 */
export function publicItemsIn(items: PublicItem[], language: Language) {
  return items.map(({ nameEn, descriptionEn, ...item }) =>
    language === 'en' ? { ...item, name: nameEn ?? item.name, description: descriptionEn ?? item.description } : item,
  );
}

/** What the shop may see, named one by one: never the PDF, never the licence bookkeeping. */
function toPublicItem(row: ItemRow) {
  const {
    name,
    description,
    nameEn,
    descriptionEn,
    price,
    imageFileId,
    measure,
    order,
    color,
    fontColor,
    maxOrderAmount,
    isMainProduct,
    licenseItem,
  } = fromRow(row);
  return {
    id: row.id,
    name,
    description,
    ...englishTexts(nameEn, descriptionEn),
    price,
    image: fileUrl(imageFileId),
    measure,
    order,
    color,
    fontColor,
    maxOrderAmount,
    isMainProduct,
    // An item with a licence item is a digital edition: the checkout asks for an e-mail address.
    isDigital: licenseItem !== null,
  };
}

function toBackofficeItem(row: ItemRow) {
  const { imageFileId, pdfFileId, ...values } = fromRow(row);
  return {
    ...toPublicItem(row),
    ...values,
    // Percent as staff type it (7, 5.5); null: the newspaper's rate (settings).
    vatRate: values.vatRate === null ? null : vatPercent(values.vatRate),
    // PDFs are paid content: only the back office gets a URL, and it is behind its login.
    pdf: pdfFileId ? { url: `/api/files/${pdfFileId}`, size: row.pdf_size } : null,
    donationOnly: row.donation_only,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
export type BackofficeItem = ReturnType<typeof toBackofficeItem>;

/** Live items with the size of their PDF. */
export function itemsQuery(db: Db): Knex.QueryBuilder {
  return db('items')
    .leftJoin('files as pdf', 'pdf.id', 'items.pdf_file_id')
    .whereNull('items.deleted_at')
    .select('items.*', 'pdf.size as pdf_size');
}

/** The shop's list: what a customer can buy, higher `order` first. */
export async function listPublicItems(db: Db) {
  const rows = (await itemsQuery(db)
    .where({ 'items.disabled': false, 'items.is_license_item': false })
    .orderBy('items.item_order', 'desc')
    .orderBy('items.id', 'asc')) as ItemRow[];
  return rows.map(toPublicItem);
}

/** An item as a new order prices and checks it. */
export interface PricedItemRow {
  id: number;
  name: string;
  name_en: string;
  price: number;
  disabled: boolean;
  is_license_item: boolean;
  license_item_id: number | null;
  max_order_amount: number | null;
}

/** Every item not deleted, by id, with what a new order needs of it; the shop's copy keeps them (shop/cache.ts). */
export async function pricedItems(db: Db): Promise<Map<number, PricedItemRow>> {
  const rows = await db('items')
    .whereNull('deleted_at')
    .select<PricedItemRow[]>(
      'id',
      'name',
      'name_en',
      'price',
      'disabled',
      'is_license_item',
      'license_item_id',
      'max_order_amount',
    );
  return new Map(rows.map((row) => [row.id, row]));
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function booleanFilter(name: string, column: string) {
  return (query: Knex.QueryBuilder, value: unknown) => {
    if (value !== true && value !== false && value !== 'true' && value !== 'false') {
      throw invalidError(tr('The filter "{name}" must be true or false.', { name }));
    }
    query.where(column, value === true || value === 'true');
  };
}

export const backofficeListSpec: ListSpec<ItemRow, BackofficeItem> = {
  resource: 'items',
  sortable: { id: 'items.id', name: 'items.name', price: 'items.price', order: 'items.item_order' },
  defaultSort: ['order', 'DESC'],
  idColumn: 'items.id',
  filters: {
    q: (query, value) => {
      if (typeof value !== 'string') throw invalidError('The filter "q" must be text.');
      const pattern = `%${escapeLike(value)}%`;
      query.where((q) => {
        q.whereILike('items.name', pattern).orWhereILike('items.name_en', pattern);
      });
    },
    disabled: booleanFilter('disabled', 'items.disabled'),
    isLicenseItem: booleanFilter('isLicenseItem', 'items.is_license_item'),
  },
  toApi: toBackofficeItem,
};

export async function findItem(db: Db, id: number): Promise<BackofficeItem | undefined> {
  const row = await itemsQuery(db).where('items.id', id).first<ItemRow | undefined>();
  return row && toBackofficeItem(row);
}

/** The item a customer gets in the cart on the landing page, for the public settings. */
export async function findMainItem(db: Db) {
  const row = await db('items')
    .whereNull('deleted_at')
    .where({ is_main_product: true })
    .first<Pick<ItemRow, 'id' | 'name' | 'description' | 'image_file_id' | 'price'> | undefined>(
      'id',
      'name',
      'description',
      'image_file_id',
      'price',
    );
  return row
    ? { id: row.id, name: row.name, description: row.description, image: fileUrl(row.image_file_id), price: row.price }
    : null;
}

export const itemNotFound = (id: number) => notFoundError(tr('There is no item with id {id}.', { id }));

/** Locks a live item row for the rest of the transaction; undefined when there is none. */
async function lockItem(trx: Knex.Transaction, id: number): Promise<ItemRow | undefined> {
  return trx('items').where({ id }).whereNull('deleted_at').forUpdate().first<ItemRow | undefined>();
}

/** Why an item cannot be the main product (the landing page puts it in every cart), if it cannot. */
function mainProductProblem(item: { isLicenseItem: boolean; disabled: boolean }): string | undefined {
  if (item.isLicenseItem) return 'A licence item cannot be the main product.';
  if (item.disabled) return 'A disabled item cannot be the main product.';
  return undefined;
}

/**
 * Takes the main-product flag from every item but `exceptId`. A partial unique index allows one main
 * product, so the flag is cleared before it is set elsewhere; locking the settings row first makes
 * two concurrent switches queue instead of one failing on the index. Callers lock their item rows
 * before this lock, never after, so a switch from the settings and one from an item cannot deadlock.
 */
async function clearMainProduct(trx: Knex.Transaction, exceptId?: number): Promise<void> {
  await trx('settings').where({ id: 1 }).forUpdate().first('id');
  const others = trx('items').where({ is_main_product: true });
  if (exceptId !== undefined) others.whereNot({ id: exceptId });
  await others.update({ is_main_product: false, updated_at: trx.fn.now() });
}

/** The settings' main item: makes a live item the main product (null: none). Answers why not, if it cannot. */
export async function setMainProduct(trx: Knex.Transaction, id: number | null): Promise<string | undefined> {
  if (id === null) {
    await clearMainProduct(trx);
    return undefined;
  }
  const item = await lockItem(trx, id);
  if (!item) return `There is no item with id ${id}.`;
  const problem = mainProductProblem({ isLicenseItem: item.is_license_item, disabled: item.disabled });
  if (problem) return problem;
  await clearMainProduct(trx, id);
  await trx('items').where({ id }).update({ is_main_product: true, updated_at: trx.fn.now() });
  return undefined;
}

const defaults: Omit<ItemValues, 'name' | 'price'> = {
  description: '',
  nameEn: '',
  descriptionEn: '',
  counterPrice: null,
  vatRate: null,
  measure: '',
  order: 0,
  color: null,
  fontColor: null,
  maxOrderAmount: null,
  isMainProduct: false,
  takesOverTransactionCosts: false,
  isLicenseItem: false,
  licenseItem: null,
  licenseGroup: null,
  isPdfItem: false,
  disabled: false,
  imageFileId: null,
  pdfFileId: null,
};

const names = (rows: { name: string }[]) => rows.map((r) => `"${r.name}"`).join(', ');

/**
 * The rules between items. A digital edition's price pays its licence item to the newspaper, so a
 * licence must never cost more than an item using it, or the vendor would net less than zero.
 */
async function checkRules(trx: Knex.Transaction, id: number | undefined, values: ItemValues): Promise<void> {
  const errors: FieldErrors = {};
  if (values.licenseItem !== null) {
    if (values.isLicenseItem) errors.licenseItem = 'A licence item cannot itself link a licence item.';
    else if (values.licenseItem === id) errors.licenseItem = 'An item cannot be its own licence item.';
    else {
      const license = await lockItem(trx, values.licenseItem);
      if (!license) errors.licenseItem = 'Please choose an existing licence item.';
      else if (!license.is_license_item)
        errors.licenseItem = tr('"{name}" is not a licence item.', { name: license.name });
      else if (values.price < license.price) {
        errors.price = tr(
          'The price must be at least the price of its licence item "{name}" ({price}), so the vendor never nets less than zero.',
          { name: license.name, price: money(license.price) },
        );
      }
    }
  }
  if (id !== undefined) {
    const linking: { name: string; price: number }[] = await trx('items')
      .whereNull('deleted_at')
      .where({ license_item_id: id })
      .select('name', 'price');
    if (linking.length && !values.isLicenseItem) {
      errors.isLicenseItem = tr('This is still the licence item of {items}; remove the link there first.', {
        items: names(linking),
      });
    }
    const cheaper = linking.filter((item) => item.price < values.price);
    if (values.isLicenseItem && cheaper.length) {
      errors.price = tr('A licence item must not cost more than the items that use it: {items} (from {price}).', {
        items: names(cheaper),
        price: money(Math.min(...cheaper.map((i) => i.price))),
      });
    }
  }
  if (values.isPdfItem && !values.isLicenseItem) errors.isPdfItem = 'Only a licence item can be a PDF item.';
  if (values.isPdfItem && !values.pdfFileId) errors.pdf = 'Please upload the PDF of this PDF item.';
  const mainProblem = values.isMainProduct && mainProductProblem(values);
  if (mainProblem) errors.isMainProduct = mainProblem;
  rejectFields(errors);
}

type ItemFiles = Partial<Record<'image' | 'pdf', Upload>>;

/** Creates (`id` undefined) or updates an item in one transaction and answers it as stored. */
export async function saveItem(
  db: Knex,
  id: number | undefined,
  form: ItemForm,
  files: ItemFiles,
): Promise<BackofficeItem> {
  return db.transaction(async (trx) => {
    const current = id === undefined ? undefined : await lockItem(trx, id);
    if (id !== undefined && !current) throw itemNotFound(id);
    // donationOnly is left out: the schema refuses true, and the column only allows false.
    const { image, pdf, donationOnly: _donationOnly, ...given } = form;
    const values = { ...(current ? fromRow(current) : defaults), ...definedOnly(given) } as ItemValues;

    if (files.image) values.imageFileId = await storeFile(trx, files.image, imageKinds, 'image');
    else if (image === 'remove') values.imageFileId = null;
    if (files.pdf) values.pdfFileId = await storeFile(trx, files.pdf, pdfKinds, 'pdf');
    else if (pdf === 'remove') values.pdfFileId = null;

    await checkRules(trx, id, values);
    if (values.isMainProduct && !current?.is_main_product) await clearMainProduct(trx, id);

    const row = { ...toRow(values), updated_at: trx.fn.now() };
    let savedId: number;
    if (current) {
      await trx('items').where({ id: current.id }).update(row);
      savedId = current.id;
    } else {
      ({ id: savedId } = oneRow(await trx('items').insert(row).returning<{ id: number }[]>('id')));
    }
    return (await findItem(trx, savedId))!;
  });
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Deletes an item for good when nothing refers to it. When something does (another item's licence
 * link, orders, …) the foreign key refuses inside a savepoint and the item is only marked deleted,
 * so tables added later are covered without touching this code.
 */
export async function deleteItem(db: Knex, id: number): Promise<BackofficeItem> {
  return db.transaction(async (trx) => {
    if (!(await lockItem(trx, id))) throw itemNotFound(id);
    const item = (await findItem(trx, id))!;
    try {
      await trx.transaction(async (savepoint) => {
        await savepoint('items').where({ id }).delete();
      });
    } catch (error) {
      if (pgCode(error) !== '23503') throw error;
      await trx('items')
        .where({ id })
        .update({ deleted_at: trx.fn.now(), is_main_product: false, updated_at: trx.fn.now() });
    }
    return item;
  });
}
