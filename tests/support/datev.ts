import assert from 'node:assert/strict';

// The test's own reader of a DATEV EXTF file: it knows nothing of the export's code, only the format
// (Windows-1252, CRLF, `;` between fields, quoted texts with doubled quotes).

/** Splits one line of `;`-separated fields (DATEV or CSV); a quoted field may hold `;` and doubled quotes. */
export function fields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ';') {
      out.push(field);
      field = '';
    } else field += char;
  }
  out.push(field);
  return out;
}

export interface DatevFile {
  bytes: Buffer;
  header: string[];
  columns: string[];
  lines: string[][];
  /** A booking line's fields by column name. */
  get(line: string[], column: string): string;
}

export function parseDatev(bytes: Buffer): DatevFile {
  const text = new TextDecoder('windows-1252').decode(bytes);
  assert.ok(text.endsWith('\r\n'), 'the file ends with CRLF');
  const rows = text.slice(0, -2).split('\r\n');
  assert.ok(!rows.some((row) => row.includes('\n')), 'every line ends with CRLF');
  const [header, columns, ...lines] = rows.map(fields);
  return {
    bytes,
    header,
    columns,
    lines,
    get: (line, column) => {
      const index = columns.indexOf(column);
      assert.ok(index >= 0, `column ${column}`);
      return line[index];
    },
  };
}
