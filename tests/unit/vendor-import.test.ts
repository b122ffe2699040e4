import assert from 'node:assert/strict';
import { parseCsv } from '../../admin/src/backoffice/vendors/import/csv.ts';
import { readVendorFile } from '../../admin/src/backoffice/vendors/import/vendorRows.ts';

// The back office's vendor import reads the files offices have: spreadsheets saved as CSV in
// German (";", BOM, dd.mm.yyyy, "ja") or English (","), with quotes and line breaks in cells.
describe('vendor import: reading a CSV file', () => {
  it('takes ";" or "," from the header line, drops a BOM and blank lines, keeps quoted separators and line breaks', () => {
    assert.deepEqual(parseCsv('\uFEFFa;b\r\n1;"x;y"\r\n\r\n2;"say ""hi""\nthere"\r\n'), [
      ['a', 'b'],
      ['1', 'x;y'],
      ['2', 'say "hi"\nthere'],
    ]);
    assert.deepEqual(parseCsv('a,b\n1,"2,5"'), [
      ['a', 'b'],
      ['1', '2,5'],
    ]);
  });

  it('maps column names as people write them and converts cells to what the API takes', () => {
    const file = readVendorFile(
      'Licence ID;Vorname;last_name;E-Mail;Registriert;hasSmartphone;latitude;Lieblingsfarbe\nA-1;Anna;Berger;;01.03.2024;ja;48,2;blau\n',
    );
    assert.deepEqual(file.columns, ['licenseId', 'firstName', 'lastName', 'email', 'hasSmartphone', 'latitude']);
    assert.deepEqual(file.unknownColumns, ['Registriert', 'Lieblingsfarbe']);
    assert.deepEqual(file.missingColumns, []);
    assert.deepEqual(file.rows[0].vendor, {
      licenseId: 'A-1',
      firstName: 'Anna',
      lastName: 'Berger',
      email: null,
      hasSmartphone: true,
      latitude: 48.2,
    });
    assert.equal(file.rows[0].line, 2);
  });

  it('reads the language in words as the code the API takes, and passes any other on for the API to refuse', () => {
    const file = readVendorFile('licenseId;firstName;Sprache\nL-1;A;Deutsch\nL-2;B;english\nL-3;C;EN\nL-4;D;Farsi\n');
    assert.deepEqual(
      file.rows.map((row) => row.vendor.language),
      ['de', 'en', 'en', 'Farsi'],
    );
  });

  it('passes what it cannot read on unchanged, so the API names the problem at its row', () => {
    const file = readVendorFile(
      'licenseId,firstName,registrationDate,hasBankAccount,longitude\nB-2,Bora,31.02.x,vielleicht,east\n',
    );
    assert.deepEqual(file.rows[0].vendor, {
      licenseId: 'B-2',
      firstName: 'Bora',
      registrationDate: '31.02.x',
      hasBankAccount: 'vielleicht',
      longitude: 'east',
    });
  });

  it('names the required columns a file lacks', () => {
    assert.deepEqual(readVendorFile('email\nx@example.org').missingColumns, ['licenseId', 'firstName']);
  });
});
