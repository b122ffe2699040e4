// Texts of the vendor statements (from the vendor's profile, and every vendor's of a year), merged in i18n/german.ts and i18n/english.ts.

export const en = {
  app: {
    statements: {
      open: 'Statement',
      title: 'Statement of %{vendor}',
      language: 'Language',
      vendor_language: 'The vendor’s language',
      german: 'German',
      english: 'English',
      csv: 'CSV',
      print: 'Print',
      page: 'Printable statement',
      year_open: 'Statements of a year',
      year_title: 'Statements of every vendor for a year',
      year: 'Year',
      show: 'Show',
    },
  },
};

export const de = {
  app: {
    statements: {
      open: 'Abrechnung',
      title: 'Abrechnung für %{vendor}',
      language: 'Sprache',
      vendor_language: 'Sprache der Verkäuferin oder des Verkäufers',
      german: 'Deutsch',
      english: 'Englisch',
      csv: 'CSV',
      print: 'Drucken',
      page: 'Druckbare Abrechnung',
      year_open: 'Abrechnungen eines Jahres',
      year_title: 'Abrechnungen aller Verkäuferinnen und Verkäufer eines Jahres',
      year: 'Jahr',
      show: 'Anzeigen',
    },
  },
};
