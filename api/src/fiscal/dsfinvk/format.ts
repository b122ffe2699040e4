import { gdpduDtdName } from '../gdpdu-dtd.ts';

// How the DSFinV-K writes its files: the columns with their types as index.xml declares them, the
// CSV itself (`;` between fields, text in double quotes, decimal comma, a header line), the index.xml
// in GDPdU's format, local date-times without an offset, and the VAT keys of its appendix.

export const taxonomyVersion = '2.3';

/** DSFinV-K Anhang: the VAT keys (UST_SCHLUESSEL) this counter uses. */
export const vatKeys: Record<number, { key: number; rate: number; name: string }> = {
  1900: { key: 1, rate: 19, name: 'Regelsteuersatz' },
  700: { key: 2, rate: 7, name: 'Ermäßigter Steuersatz' },
  1070: { key: 3, rate: 10.7, name: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 3 UStG)' },
  550: { key: 4, rate: 5.5, name: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 1 UStG)' },
  0: { key: 6, rate: 0, name: 'Umsatzsteuerfrei' },
};
export const notTaxable = { key: 5, rate: 0, name: 'Nicht Steuerbar' };
export const keyOf = (rate: number | null) =>
  rate === null ? notTaxable : (vatKeys[rate] ?? { key: 7, rate: rate / 100, name: 'Sonstiger Steuersatz' });

export type Value = string | number;
export interface Column {
  name: string;
  kind: 'text' | 'number';
  /** Numeric: the decimal places (index.xml's Accuracy), every value is written with exactly these. */
  places?: number;
  /** AlphaNumeric: index.xml's MaxLength. */
  max?: number;
}
export interface Table {
  file: string;
  name: string;
  description: string;
  columns: Column[];
  rows: Value[][];
}

export const text = (name: string, max: number): Column => ({ name, kind: 'text', max });
export const num = (name: string, places = 0): Column => ({ name, kind: 'number', places });

// The columns every file begins with: the close they belong to.
export const closeKey = () => [text('Z_KASSE_ID', 50), text('Z_ERSTELLUNG', 30), num('Z_NR')];

/**
 * Hundredths (cents, a rate's hundredths of a percent) as a decimal with a comma and `places` (2 or
 * more) places, rounded there: 1234 → "12,34000"; a unit price of 1000 cents for 3 → "3,33333".
 */
export const decimal = (hundredths: number, places = 2) => {
  const scaled = Math.round(Math.abs(hundredths) * 10 ** (places - 2));
  const digits = String(scaled).padStart(places + 1, '0');
  return `${hundredths < 0 && scaled ? '-' : ''}${digits.slice(0, -places)},${digits.slice(-places)}`;
};

/** A whole number with `places` decimal places: 3 → "3,000". */
export const whole = (value: number, places: number) => `${value},${'0'.repeat(places)}`;

export const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

export function csv(table: Table): string {
  const line = (values: string[]) => `${values.join(';')}\r\n`;
  return (
    line(table.columns.map((c) => c.name)) +
    table.rows
      .map((row) =>
        line(row.map((value, n) => (table.columns[n]!.kind === 'text' ? quote(String(value)) : String(value)))),
      )
      .join('')
  );
}

export const xmlEscape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * GDPdU's description of the files, as the DSFinV-K's own index.xml writes it: per Table, in the
 * DTD's order, its URL, Name and Description, the encoding (UTF8), the decimal and grouping symbols,
 * the Range of data lines (from line 2: line 1 is the header) and the columns.
 */
export function indexXml(tables: Table[], supplier: { name: string; location: string }): string {
  const column = (c: Column) =>
    c.kind === 'text'
      ? `<VariableColumn><Name>${c.name}</Name><AlphaNumeric/>${c.max ? `<MaxLength>${c.max}</MaxLength>` : ''}</VariableColumn>`
      : `<VariableColumn><Name>${c.name}</Name><Numeric>${c.places ? `<Accuracy>${c.places}</Accuracy>` : ''}</Numeric></VariableColumn>`;
  const table = (t: Table) => `    <Table>
      <URL>${t.file}</URL>
      <Name>${t.name}</Name>
      <Description>${xmlEscape(t.description)}</Description>
      <UTF8/>
      <DecimalSymbol>,</DecimalSymbol>
      <DigitGroupingSymbol>.</DigitGroupingSymbol>
      <Range><From>2</From></Range>
      <VariableLength>
        <ColumnDelimiter>;</ColumnDelimiter>
        <RecordDelimiter>&#13;&#10;</RecordDelimiter>
        <TextEncapsulator>"</TextEncapsulator>
        ${t.columns.map(column).join('\n        ')}
      </VariableLength>
    </Table>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE DataSet SYSTEM "${gdpduDtdName}">
<DataSet>
  <Version>1.0</Version>
  <DataSupplier><Name>${xmlEscape(supplier.name)}</Name><Location>${xmlEscape(supplier.location)}</Location><Comment>DSFinV-K ${taxonomyVersion}</Comment></DataSupplier>
  <Media>
    <Name>DSFinV-K</Name>
${tables.map(table).join('\n')}
  </Media>
</DataSet>
`;
}
