import { parseCsv } from './csv.ts';

/** The vendor fields a file may hold, as POST /api/vendors names them. */
const textFields = [
  'licenseId',
  'firstName',
  'lastName',
  'email',
  'telephone',
  'language',
  'address',
  'postCode',
  'location',
  'workingTime',
  'accountProofUrl',
  'debt',
];
const dateFields = ['registrationDate', 'vendorSince'];
const flagFields = ['hasBankAccount', 'hasSmartphone', 'onlineMap'];
const numberFields = ['latitude', 'longitude'];
export const importFields = [...textFields, ...dateFields, ...flagFields, ...numberFields];
export const requiredFields = ['licenseId', 'firstName'];

/** Column names as people write them: any case, spaces or dashes, British spelling, German names. */
const aliases: Record<string, string> = {
  licenceid: 'licenseId',
  lizenzid: 'licenseId',
  ausweisnummer: 'licenseId',
  vorname: 'firstName',
  nachname: 'lastName',
  mail: 'email',
  emailadresse: 'email',
  telefon: 'telephone',
  phone: 'telephone',
  sprache: 'language',
  adresse: 'address',
  plz: 'postCode',
  postleitzahl: 'postCode',
  standort: 'location',
  arbeitszeit: 'workingTime',
};
const canonical = new Map(importFields.map((field) => [field.toLowerCase(), field]));
const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const fieldFor = (column: string) => canonical.get(normalise(column)) ?? aliases[normalise(column)];

/** A cell as the API takes it; what cannot be read goes as it is, so the API names the problem. */
function convert(field: string, raw: string): unknown {
  const value = raw.trim();
  if (flagFields.includes(field)) {
    if (value === '') return false;
    if (/^(1|true|yes|ja|x|wahr)$/i.test(value)) return true;
    if (/^(0|false|no|nein|falsch)$/i.test(value)) return false;
    return value;
  }
  if (numberFields.includes(field)) {
    if (value === '') return null;
    const number = Number(value.replace(',', '.'));
    return Number.isFinite(number) ? number : value;
  }
  if (field === 'language') {
    // Spreadsheets name the language in words; the API takes the code of one /me speaks.
    if (/^(de|deu|deutsch|german)$/i.test(value)) return 'de';
    if (/^(en|eng|englisch|english)$/i.test(value)) return 'en';
  }
  if (dateFields.includes(field)) {
    const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
    return german ? `${german[3]}-${german[2].padStart(2, '0')}-${german[1].padStart(2, '0')}` : value || null;
  }
  return value === '' ? null : value;
}

export interface ImportRow {
  /** The row's number as a spreadsheet shows it: the header is 1 (blank lines are not counted). */
  line: number;
  cells: Record<string, string>;
  vendor: Record<string, unknown>;
}

export interface ImportFile {
  columns: string[];
  unknownColumns: string[];
  missingColumns: string[];
  rows: ImportRow[];
}

export function readVendorFile(text: string): ImportFile {
  const [header = [], ...lines] = parseCsv(text);
  const fields = header.map((column) => fieldFor(column.trim()));
  const columns = fields.filter((field): field is string => !!field);
  return {
    columns,
    unknownColumns: header.filter((_, index) => !fields[index]).map((column) => column.trim()),
    missingColumns: requiredFields.filter((field) => !columns.includes(field)),
    rows: lines.map((cells, index) => {
      const row: ImportRow = { line: index + 2, cells: {}, vendor: {} };
      fields.forEach((field, column) => {
        if (!field) return;
        row.cells[field] = cells[column] ?? '';
        row.vendor[field] = convert(field, cells[column] ?? '');
      });
      return row;
    }),
  };
}
