// The protocol screen's texts; merged in i18n/messages.ts.
export const de = {
  app: {
    menu: { protocol: 'Protokoll' },
    page: { protocol: 'Protokoll' },
    protocol: {
      record: 'Datensatz',
      changes: 'Änderungen',
      empty_value: 'leer',
      empty: 'Noch keine Einträge für diese Auswahl.',
      system: 'System',
    },
  },
  resources: {
    protocol: {
      name: 'Protokolleintrag |||| Protokoll',
      fields: {
        at: 'Zeit',
        username: 'Benutzer',
        user: 'Benutzer',
        action: 'Aktion',
        recordType: 'Art des Datensatzes',
        recordId: 'Nr. des Datensatzes',
        from: 'Von',
        to: 'Bis',
      },
    },
  },
};

export const en: typeof de = {
  app: {
    menu: { protocol: 'Protocol' },
    page: { protocol: 'Protocol' },
    protocol: {
      record: 'Record',
      changes: 'Changes',
      empty_value: 'empty',
      empty: 'No entries for this selection yet.',
      system: 'System',
    },
  },
  resources: {
    protocol: {
      name: 'Protocol entry |||| Protocol',
      fields: {
        at: 'Time',
        username: 'User',
        user: 'User',
        action: 'Action',
        recordType: 'Record type',
        recordId: 'Record no.',
        from: 'From',
        to: 'To',
      },
    },
  },
};
