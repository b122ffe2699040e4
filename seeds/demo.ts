import type { Knex } from 'knex';
import { storeFile } from '../api/src/files/queries.ts';
import { hashPassword, verifyPassword } from '../api/src/identity/accounts/passwords.ts';
import { findActiveAccountByUsername } from '../api/src/identity/accounts/queries.ts';
import { makeLogoPng, makePdf } from './assets/files.ts';
import { type Country, presetOf } from '../api/src/country/presets.ts';

// The demo newspaper: settings with a logo, four items (print issue, digital edition with its PDF
// licence, a calendar) and 30 vendors around Vienna's centre with locations and comments, plus one
// deactivated vendor, and the demo logins (DEMO_ACCOUNTS). Everything is derived from fixed values and
// a seeded pseudo-random generator, so every run writes the same data (password hashes aside: each
// has a salt of its own). Batch inserts keep it well under a second on PGlite.

export const DEMO_NEWSPAPER_NAME = 'Straßenblatt Demo';
export const DEMO_MAP_CENTRE = { lat: 48.2082, long: 16.3738 } as const;
export const DEMO_VENDOR_COUNT = 30;
export const DEMO_COLOUR = '#c8102e';
export const DEMO_FONT_COLOUR = '#ffffff';
export const DEMO_VENDOR_EMAIL_POSTFIX = '@demo.strassenzeitung.org';

/**
 * Logins of the embedded OpenID provider for trying the product out; they exist only in the demo.
 * The other demo vendors have no login: a vendor created in the back office gets one.
 */
export const DEMO_ACCOUNTS = [
  { username: 'office', password: 'office', groups: ['backoffice'], licenseId: null },
  { username: 'vendor', password: 'vendor', groups: ['vendor'], licenseId: 'DEMO-1' },
] as const;

/** The demo logins that still open with their demo password, for the start banner. */
export async function demoLoginsInUse(db: Knex): Promise<(typeof DEMO_ACCOUNTS)[number][]> {
  const inUse = [];
  for (const demo of DEMO_ACCOUNTS) {
    const account = await findActiveAccountByUsername(db, demo.username);
    if (account && (await verifyPassword(demo.password, account.password_hash))) inUse.push(demo);
  }
  return inUse;
}

// Hashing is slow on purpose. The demo passwords are public anyway, so one hash per process serves
// every reseed (the tests reseed often).
const demoHashes = new Map<string, Promise<string>>();
function demoHash(password: string): Promise<string> {
  if (!demoHashes.has(password)) demoHashes.set(password, hashPassword(password));
  return demoHashes.get(password)!;
}

/**
 * The demo's prices in each country's minor unit, near what street papers there ask: a copy, what a
 * vendor pays for it at the counter, the digital edition and its licence share, the calendar and what
 * a vendor pays for one, the most an order may cost, and the float the till starts with.
 */
export const demoPrices: Record<
  Country,
  {
    copy: number;
    counterCopy: number;
    digital: number;
    licence: number;
    calendar: number;
    counterCalendar: number;
    maxOrder: number;
    float: number;
  }
> = {
  DE: {
    copy: 300,
    counterCopy: 150,
    digital: 300,
    licence: 50,
    calendar: 1000,
    counterCalendar: 500,
    maxOrder: 15000,
    float: 200000,
  },
  AT: {
    copy: 300,
    counterCopy: 150,
    digital: 300,
    licence: 50,
    calendar: 1000,
    counterCalendar: 500,
    maxOrder: 15000,
    float: 200000,
  },
  // Surprise in Basel: CHF 8 a copy, the vendor keeps half.
  CH: {
    copy: 800,
    counterCopy: 400,
    digital: 600,
    licence: 100,
    calendar: 2500,
    counterCalendar: 1250,
    maxOrder: 40000,
    float: 100000,
  },
  // The Big Issue: £4 a copy, bought by the vendor for £2.
  GB: {
    copy: 400,
    counterCopy: 200,
    digital: 300,
    licence: 50,
    calendar: 1200,
    counterCalendar: 600,
    maxOrder: 15000,
    float: 30000,
  },
  US: {
    copy: 300,
    counterCopy: 100,
    digital: 300,
    licence: 50,
    calendar: 1500,
    counterCalendar: 750,
    maxOrder: 20000,
    float: 30000,
  },
  CA: {
    copy: 300,
    counterCopy: 150,
    digital: 300,
    licence: 50,
    calendar: 1500,
    counterCalendar: 750,
    maxOrder: 20000,
    float: 30000,
  },
  // Situation Stockholm: 80 kronor a copy, the vendor buys it for 40.
  SE: {
    copy: 8000,
    counterCopy: 4000,
    digital: 6000,
    licence: 1000,
    calendar: 15000,
    counterCalendar: 7500,
    maxOrder: 200000,
    float: 300000,
  },
  // The Big Issue Japan: 500 yen a copy (yen have no minor unit).
  JP: {
    copy: 500,
    counterCopy: 220,
    digital: 500,
    licence: 100,
    calendar: 1500,
    counterCalendar: 700,
    maxOrder: 20000,
    float: 30000,
  },
};

/** mulberry32: a tiny deterministic generator, so the demo data is the same on every run. */
/** The entry at `index`, counted round the list (the seed's lists are fixed and never empty). */
export function nth<T>(list: readonly T[], index: number): T {
  const entry = list[index % list.length];
  if (entry === undefined) throw new Error('The demo data has an empty list');
  return entry;
}

export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => nth(list, Math.floor(next() * list.length)),
    chance: (p: number) => next() < p,
  };
}

const firstNames = [
  'Anna',
  'Johann',
  'Maria',
  'Franz',
  'Theresia',
  'Josef',
  'Elisabeth',
  'Karl',
  'Hermine',
  'Leopold',
  'Gertrude',
  'Florian',
  'Katharina',
  'Stefan',
  'Ioana',
  'Mihai',
  'Elena',
  'Dragan',
  'Fatima',
  'Ahmad',
  'Blessing',
  'Chinedu',
  'Zsófia',
  'Petra',
  'Hannes',
  'Rosa',
  'Wolfgang',
  'Monika',
  'Alois',
  'Agnes',
] as const;
const lastNames = [
  'Gruber',
  'Huber',
  'Bauer',
  'Wagner',
  'Müller',
  'Pichler',
  'Steiner',
  'Moser',
  'Mayer',
  'Hofer',
  'Leitner',
  'Berger',
  'Fuchs',
  'Eder',
  'Fischer',
  'Schmid',
  'Winkler',
  'Weber',
  'Schwarz',
  'Maier',
  'Popescu',
  'Ionescu',
  'Novák',
  'Horváth',
  'Petrović',
  'Okafor',
  'Rahimi',
  'Haider',
  'Lang',
  'Brunner',
] as const;
// The language of each vendor's page /me; the list's length keeps the seeded sequence unchanged.
const languages = ['de', 'de', 'de', 'de', 'de', 'de', 'de', 'en', 'de', 'en'] as const;
const streets = [
  ['Favoritenstraße', '1100'],
  ['Ottakringer Straße', '1160'],
  ['Thaliastraße', '1160'],
  ['Simmeringer Hauptstraße', '1110'],
  ['Wiedner Hauptstraße', '1040'],
  ['Landstraßer Hauptstraße', '1030'],
  ['Taborstraße', '1020'],
  ['Neubaugasse', '1070'],
  ['Josefstädter Straße', '1080'],
  ['Reinprechtsdorfer Straße', '1050'],
  ['Brigittenauer Lände', '1200'],
  ['Hernalser Hauptstraße', '1170'],
] as const;

/** Places where street papers are sold, all within about three kilometres of the map centre. */
const places = [
  ['U-Bahn Stephansplatz', 48.2084, 16.3721, 'Stephansplatz', '1010'],
  ['U-Bahn Karlsplatz', 48.2003, 16.3697, 'Karlsplatz', '1040'],
  ['Schwedenplatz', 48.2117, 16.378, 'Schwedenplatz', '1010'],
  ['Naschmarkt', 48.1986, 16.3625, 'Linke Wienzeile', '1060'],
  ['Praterstern', 48.2186, 16.3925, 'Praterstern', '1020'],
  ['U-Bahn Schottentor', 48.215, 16.362, 'Universitätsring', '1010'],
  ['Museumsquartier', 48.2035, 16.3585, 'Museumsplatz 1', '1070'],
  ['Rathausplatz', 48.2109, 16.3573, 'Rathausplatz', '1010'],
  ['Wien Mitte', 48.206, 16.3848, 'Landstraßer Hauptstraße 1', '1030'],
  ['U-Bahn Nestroyplatz', 48.2151, 16.3851, 'Praterstraße', '1020'],
  ['U-Bahn Volkstheater', 48.2053, 16.358, 'Burggasse', '1070'],
  ['U-Bahn Taubstummengasse', 48.1935, 16.3713, 'Favoritenstraße 2', '1040'],
  ['Südtiroler Platz', 48.187, 16.3745, 'Südtiroler Platz', '1040'],
  ['U-Bahn Pilgramgasse', 48.1924, 16.3553, 'Pilgramgasse', '1050'],
  ['Neubaugasse / Mariahilfer Straße', 48.199, 16.352, 'Mariahilfer Straße 60', '1070'],
  ['U-Bahn Alser Straße', 48.217, 16.342, 'Alser Straße', '1080'],
  ['Josefstädter Straße', 48.211, 16.339, 'Josefstädter Straße', '1080'],
  ['Rochusmarkt', 48.203, 16.3925, 'Rochusplatz', '1030'],
  ['Hauptbahnhof', 48.1851, 16.377, 'Am Hauptbahnhof 1', '1100'],
  ['U-Bahn Kettenbrückengasse', 48.1965, 16.3585, 'Rechte Wienzeile', '1050'],
  ['Stadtpark', 48.203, 16.379, 'Parkring', '1010'],
  ['U-Bahn Rennweg', 48.197, 16.384, 'Rennweg', '1030'],
  ['U-Bahn Taborstraße', 48.219, 16.382, 'Taborstraße', '1020'],
  ['Zieglergasse / Mariahilfer Straße', 48.197, 16.347, 'Mariahilfer Straße 90', '1070'],
  ['U-Bahn Herrengasse', 48.2096, 16.366, 'Herrengasse', '1010'],
  ['Franz-Josefs-Bahnhof', 48.2255, 16.361, 'Julius-Tandler-Platz', '1090'],
  ['Billa Praterstraße', 48.2165, 16.388, 'Praterstraße 40', '1020'],
  ['Spar Wiedner Hauptstraße', 48.1935, 16.366, 'Wiedner Hauptstraße 60', '1040'],
] as const;

const workingTimes = [
  { kind: 'allDay' },
  { kind: 'mornings' },
  { kind: 'afternoons' },
  {
    kind: 'weekly',
    ranges: [
      { day: 'mon', from: '08:00', to: '12:00' },
      { day: 'wed', from: '08:00', to: '12:00' },
      { day: 'fri', from: '14:00', to: '18:00' },
    ],
  },
  {
    kind: 'weekly',
    ranges: [
      { day: 'tue', from: '07:00', to: '11:00' },
      { day: 'thu', from: '07:00', to: '11:00' },
      { day: 'sat', from: '09:00', to: '13:00' },
    ],
  },
] as const;
const workingTimeText: Record<string, string> = {
  allDay: 'ganztags',
  mornings: 'vormittags',
  afternoons: 'nachmittags',
};

const comments = [
  ['Hat den neuen Ausweis abgeholt.', false],
  ['Ausweis verloren – neuer Ausweis ist beantragt.', true],
  ['Möchte im Winter lieber am Nachmittag verkaufen.', false],
  ['Beschwerde eines Anrainers wegen des Standplatzes – bitte Gespräch suchen.', true],
  ['Spricht gut Englisch, hilft bei Übersetzungen.', false],
] as const;

/**
 * The demo paper's address and tax identity in each country, written as that country's tax office
 * writes them (examples of the format, no real company's): what the tills' exports to the tax office
 * name. `taxNumber` is the number the tax office knows the paper by (Steuernummer, the Swiss UID, the
 * UTR, the EIN, the Business Number, the organisation number, the invoice registration number);
 * `vatId` the VAT number, empty where the country has none of that form.
 */
export const demoCompanies: Record<
  Country,
  { street: string; postcode: string; town: string; country: string; taxNumber: string; vatId: string }
> = {
  DE: {
    street: 'Musterstraße 12',
    postcode: '80331',
    town: 'München',
    country: 'DEU',
    taxNumber: '143/123/45678',
    vatId: 'DE123456789',
  },
  AT: {
    street: 'Mariahilfer Straße 12',
    postcode: '1070',
    town: 'Wien',
    country: 'AUT',
    taxNumber: '12 345/6789',
    vatId: 'ATU12345678',
  },
  CH: {
    street: 'Freie Strasse 12',
    postcode: '4051',
    town: 'Basel',
    country: 'CHE',
    taxNumber: 'CHE-123.456.789',
    vatId: 'CHE-123.456.789 MWST',
  },
  GB: {
    street: '12 Old Street',
    postcode: 'EC1V 9HL',
    town: 'London',
    country: 'GBR',
    taxNumber: '1234567890',
    vatId: 'GB123456789',
  },
  US: {
    street: '12 Bowery',
    postcode: 'NY 10002',
    town: 'New York',
    country: 'USA',
    taxNumber: '12-3456789',
    vatId: '',
  },
  CA: {
    street: '12 Queen Street West',
    postcode: 'ON M5H 2N2',
    town: 'Toronto',
    country: 'CAN',
    taxNumber: '123456789RT0001',
    vatId: '',
  },
  SE: {
    street: 'Drottninggatan 12',
    postcode: '111 51',
    town: 'Stockholm',
    country: 'SWE',
    taxNumber: '556677-8899',
    vatId: 'SE556677889901',
  },
  JP: {
    street: '1-2-3 Jinnan',
    postcode: '150-0041',
    town: 'Shibuya-ku, Tokyo',
    country: 'JPN',
    taxNumber: 'T1234567890123',
    vatId: '',
  },
};

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (date: string, days: number) => isoDate(new Date(Date.parse(date) + days * 86_400_000));

export async function seedDemo(trx: Knex.Transaction | Knex): Promise<void> {
  const random = generator(20_270_101);
  // The installation's country (COUNTRY at the first start) decides the prices and the VAT rates.
  const settings = await trx('settings').where({ id: 1 }).first<{ country: string } | undefined>('country');
  const preset = presetOf(settings?.country ?? 'DE');
  const prices = demoPrices[preset.country];
  const company = demoCompanies[preset.country];

  // Files: the logo and the digital edition's PDF.
  const logoFileId = await storeFile(
    trx,
    { buffer: makeLogoPng(DEMO_COLOUR, '#ffffff'), originalname: 'logo.png' },
    ['image/png'],
    'logo',
  );
  const pdfFileId = await storeFile(
    trx,
    {
      buffer: makePdf([
        `${DEMO_NEWSPAPER_NAME} - Digitale Ausgabe`,
        'Danke, dass Sie eine Straßenzeitung kaufen!',
        'Dies ist die Beispiel-Ausgabe der Demo-Zeitung.',
        'This is the sample issue of the demo newspaper.',
      ]),
      originalname: 'digitale-ausgabe.pdf',
    },
    ['application/pdf'],
    'pdf',
  );

  await trx('settings')
    .where({ id: 1 })
    .update({
      newspaper_name: DEMO_NEWSPAPER_NAME,
      color: DEMO_COLOUR,
      font_color: DEMO_FONT_COLOUR,
      logo_file_id: logoFileId,
      agb_url: 'https://demo.strassenzeitung.org/agb',
      maintainance_mode_help_url: 'https://demo.strassenzeitung.org/wartung',
      vendor_not_found_help_url: 'https://demo.strassenzeitung.org/verkaeuferinnen',
      // None of its own: the QR codes lead to PUBLIC_URL, whatever address this start has.
      qr_code_url: '',
      qr_code_settings: JSON.stringify({
        errorCorrectionLevel: 'Q',
        dotColor: DEMO_COLOUR,
        dotType: 'rounded',
        backgroundColor: '#ffffff',
        cornerSquareType: 'extra-rounded',
        cornerDotType: 'dot',
      }),
      qr_code_enable_logo: false,
      vendor_email_postfix: DEMO_VENDOR_EMAIL_POSTFIX,
      webshop_is_closed: false,
      map_center_lat: DEMO_MAP_CENTRE.lat,
      map_center_long: DEMO_MAP_CENTRE.long,
      use_vendor_license_id_in_shop: false,
      use_tip_instead_of_donation: false,
      orga_covers_transaction_costs: true,
      max_order_amount: prices.maxOrder,
      vat_rate: preset.tax.newspaper,
      // The address and tax identity the tills' exports to the tax office name, in the country's form.
      company_street: company.street,
      company_postcode: company.postcode,
      company_town: company.town,
      company_country: company.country,
      tax_number: company.taxNumber,
      vat_id: company.vatId,
    });

  // Items: the print issue (id 1), the PDF licence, then what refers to it.
  const firstItems = await trx('items')
    .insert([
      {
        name: 'Zeitung',
        description: 'Die aktuelle Ausgabe der Straßenzeitung, gedruckt.',
        name_en: 'Newspaper',
        description_en: 'The current issue of the street paper, in print.',
        price: prices.copy,
        counter_price: prices.counterCopy,
        item_order: 100,
        is_main_product: true,
        measure: 'Stück',
      },
      {
        name: 'Digitale Ausgabe – Lizenz',
        description: 'Lizenzanteil der Zeitung an jeder verkauften digitalen Ausgabe.',
        name_en: 'Digital edition – licence',
        description_en: "The paper's share of every digital edition sold.",
        price: prices.licence,
        item_order: 10,
        vat_rate: preset.tax.digital === preset.tax.newspaper ? null : preset.tax.digital,
        is_license_item: true,
        is_pdf_item: true,
        pdf_file_id: pdfFileId,
        license_group: 'digital',
      },
    ])
    .returning<{ id: number; is_license_item: boolean }[]>(['id', 'is_license_item']);
  const licence = firstItems.find((item) => item.is_license_item)!;
  await trx('items').insert([
    {
      name: 'Digitale Ausgabe',
      description: 'Die aktuelle Ausgabe als PDF per E-Mail.',
      name_en: 'Digital edition',
      description_en: 'The current issue as a PDF by e-mail.',
      price: prices.digital,
      item_order: 90,
      vat_rate: preset.tax.digital === preset.tax.newspaper ? null : preset.tax.digital,
      license_item_id: licence.id,
      measure: 'PDF',
    },
    {
      name: 'Kalender 2027',
      description: 'Wandkalender mit Fotos unserer Verkäuferinnen und Verkäufer.',
      name_en: 'Calendar 2027',
      description_en: 'Wall calendar with photos of our vendors.',
      price: prices.calendar,
      counter_price: prices.counterCalendar,
      item_order: 50,
      vat_rate: preset.tax.standard,
      measure: 'Stück',
      max_order_amount: 5,
    },
  ]);

  // The counter's till, with the float the office starts the cash book with.
  await trx('tills').insert({ name: 'Kasse 1', opening_balance: prices.float, location_name: 'Ausgabestelle im Büro' });

  // Vendors DEMO-1 … DEMO-30 in that order (DEMO-1 gets the lowest id), then the deactivated one.
  const vendorRows: Record<string, unknown>[] = [];
  const placesOf = new Map<string, (typeof places)[number][]>();
  for (let n = 1; n <= DEMO_VENDOR_COUNT; n++) {
    const licenseId = `DEMO-${n}`;
    const first = firstNames[(n - 1) % firstNames.length];
    const last = lastNames[(n * 7) % lastNames.length];
    const main = nth(places, n - 1);
    const own = [main];
    if (random.chance(0.4)) own.push(nth(places, n + 11));
    placesOf.set(licenseId, own);
    const [street, postCode] = random.pick(streets);
    const registered = addDays('2015-03-01', random.int(0, 3650));
    const time = random.pick(workingTimes);
    const language = random.pick(languages);
    vendorRows.push({
      license_id: licenseId,
      first_name: first,
      last_name: last,
      email: `${licenseId.toLowerCase()}${DEMO_VENDOR_EMAIL_POSTFIX}`,
      // DEMO-1 has the demo's vendor login: its /me speaks German, as the README shows it.
      language: n === 1 ? 'de' : language,
      telephone: `+43 ${random.pick(['660', '664', '676', '699'])} ${random.int(1_000_000, 9_999_999)}`,
      address: `${street} ${random.int(1, 180)}`,
      post_code: postCode,
      location: main[0],
      // near the main place, within about 150 m
      latitude: Number((main[1] + (random.next() - 0.5) * 0.002).toFixed(6)),
      longitude: Number((main[2] + (random.next() - 0.5) * 0.003).toFixed(6)),
      working_time: workingTimeText[time.kind] ?? 'nach Wochentagen',
      registration_date: registered,
      vendor_since: addDays(registered, random.int(0, 60)),
      has_bank_account: random.chance(0.4),
      has_smartphone: random.chance(0.55),
      online_map: n % 7 !== 0,
      account_proof_url: n % 5 === 1 ? `https://demo.strassenzeitung.org/ausweis/${licenseId.toLowerCase()}` : null,
      debt: n === 4 ? '20 Zeitungen auf Kommission' : '',
    });
  }
  vendorRows.push({
    license_id: 'DEMO-OFF',
    first_name: 'Herbert',
    last_name: 'Ausgeschieden',
    email: `demo-off${DEMO_VENDOR_EMAIL_POSTFIX}`,
    language: 'de',
    address: 'Favoritenstraße 10',
    post_code: '1100',
    registration_date: '2014-05-02',
    vendor_since: '2014-05-02',
    online_map: false,
    is_disabled: true,
  });
  const vendors = await trx('vendors')
    .insert(vendorRows)
    .returning<{ id: number; license_id: string }[]>(['id', 'license_id']);
  const vendorId = new Map(vendors.map((v) => [v.license_id, v.id]));

  const locationRows: Record<string, unknown>[] = [];
  for (const [licenseId, own] of placesOf) {
    for (const [name, lat, long, address, postCode] of own) {
      locationRows.push({
        vendor_id: vendorId.get(licenseId),
        name,
        address,
        post_code: postCode,
        latitude: lat,
        longitude: long,
        working_time: JSON.stringify(random.pick(workingTimes)),
      });
    }
  }
  await trx('vendor_locations').insert(locationRows);

  const commentRows: Record<string, unknown>[] = [];
  [2, 3, 5, 8, 11, 13, 17, 21, 26].forEach((n, i) => {
    const [comment, warning] = nth(comments, i);
    const created = `2026-${String((i % 9) + 1).padStart(2, '0')}-${String(3 + i * 2).padStart(2, '0')}T09:${String(10 + i).padStart(2, '0')}:00Z`;
    commentRows.push({
      vendor_id: vendorId.get(`DEMO-${n}`),
      comment,
      warning,
      created_at: created,
      // the lost badge of DEMO-3 has been dealt with
      resolved_at: n === 3 ? new Date(Date.parse(created) + 5 * 86_400_000).toISOString() : null,
    });
  });
  commentRows.push({
    vendor_id: vendorId.get('DEMO-OFF'),
    comment: 'Hat den Verkauf beendet, Ausweis zurückgegeben.',
    warning: false,
    created_at: '2025-12-15T10:00:00Z',
  });
  await trx('vendor_comments').insert(commentRows);

  const accountRows: Record<string, unknown>[] = [];
  for (const account of DEMO_ACCOUNTS) {
    accountRows.push({
      username: account.username,
      email: account.licenseId
        ? vendorRows.find((v) => v.license_id === account.licenseId)!.email
        : `${account.username}${DEMO_VENDOR_EMAIL_POSTFIX}`,
      password_hash: await demoHash(account.password),
      groups: account.groups,
      vendor_id: account.licenseId ? vendorId.get(account.licenseId) : null,
    });
  }
  await trx('accounts').insert(accountRows);
}
