// The react-admin 5 interface texts that ra-language-german 3 does not have yet, and those it words
// for react-admin 3's placeholders (#%{id} instead of the record's representation).
export const germanForReactAdmin5 = {
  ra: {
    action: {
      clear_array_input: 'Liste leeren',
      create_item: '%{item} anlegen',
      remove_all_filters: 'Alle Filter entfernen',
      reset: 'Zurücksetzen',
      search_columns: 'Spalten durchsuchen',
      select_all: 'Alle auswählen',
      select_all_button: 'Alle auswählen',
      select_row: 'Diese Zeile auswählen',
      update: 'Aktualisieren',
      move_up: 'Nach oben',
      move_down: 'Nach unten',
      open: 'Öffnen',
      toggle_theme: 'Hell/Dunkel umschalten',
      select_columns: 'Spalten',
      update_application: 'Anwendung neu laden',
    },
    page: {
      edit: '%{name} %{recordRepresentation}',
      show: '%{name} %{recordRepresentation}',
      access_denied: 'Zugriff verweigert',
      authentication_error: 'Anmeldefehler',
    },
    message: {
      delete_title: '%{name} %{recordRepresentation} löschen',
      delete_content: 'Möchten Sie diesen Eintrag (%{name}) wirklich löschen?',
      access_denied: 'Sie haben keine Berechtigung für diese Seite.',
      authentication_error: 'Der Anmeldedienst hat einen Fehler gemeldet; Ihre Anmeldung konnte nicht geprüft werden.',
      auth_error: 'Beim Prüfen der Anmeldung ist ein Fehler aufgetreten.',
      bulk_update_content:
        'Möchten Sie %{name} %{recordRepresentation} wirklich ändern? |||| Möchten Sie diese %{smart_count} Einträge wirklich ändern?',
      bulk_update_title: '%{name} %{recordRepresentation} ändern |||| %{smart_count} %{name} ändern',
      clear_array_input: 'Möchten Sie die ganze Liste wirklich leeren?',
      select_all_limit_reached:
        'Es gibt zu viele Einträge, um alle auszuwählen. Nur die ersten %{max} wurden ausgewählt.',
      placeholder_data_warning: 'Netzwerkproblem: Die Daten konnten nicht aktualisiert werden.',
    },
    navigation: {
      no_results: 'Keine %{name} gefunden',
      clear_filters: 'Filter zurücksetzen',
      no_filtered_results: 'Keine %{name} mit diesen Filtern gefunden.',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd} von mehr als %{offsetEnd}',
      current_page: 'Seite %{page}',
      page: 'Zu Seite %{page}',
      first: 'Zur ersten Seite',
      last: 'Zur letzten Seite',
      previous: 'Zur vorherigen Seite',
    },
    sort: {
      sort_by: 'Sortieren nach %{field_lower_first} %{order}',
      ASC: 'aufsteigend',
      DESC: 'absteigend',
    },
    auth: {
      email: 'E-Mail',
    },
    notification: {
      not_authorized: 'Sie haben keine Berechtigung für diese Daten.',
      application_update_available: 'Eine neue Version ist verfügbar.',
      offline: 'Keine Verbindung. Die Daten konnten nicht geladen werden.',
    },
    validation: {
      unique: 'Muss eindeutig sein',
      // The specification's wording for the e-mail check, as the API says it too.
      email: 'Bitte eine gültige E-Mail-Adresse eingeben.',
    },
    saved_queries: {
      label: 'Gespeicherte Abfragen',
      query_name: 'Name der Abfrage',
      new_label: 'Aktuelle Abfrage speichern …',
      new_dialog_title: 'Aktuelle Abfrage speichern als',
      remove_label: 'Gespeicherte Abfrage entfernen',
      remove_label_with_name: 'Abfrage „%{name}“ entfernen',
      remove_dialog_title: 'Gespeicherte Abfrage entfernen?',
      remove_message: 'Möchten Sie diese Abfrage wirklich aus Ihren gespeicherten Abfragen entfernen?',
      help: 'Liste filtern und die Abfrage für später speichern',
    },
    guesser: {
      empty: {
        title: 'Keine Daten',
        message: 'Bitte prüfen Sie den Datenanbieter',
      },
    },
    configurable: {
      customize: 'Anpassen',
      configureMode: 'Diese Seite anpassen',
      inspector: {
        title: 'Inspektor',
        content: 'Zeigen Sie auf Elemente der Oberfläche, um sie anzupassen',
        reset: 'Einstellungen zurücksetzen',
        hideAll: 'Alle ausblenden',
        showAll: 'Alle anzeigen',
      },
      Datagrid: {
        title: 'Tabelle',
        unlabeled: 'Spalte ohne Namen #%{column}',
      },
      SimpleForm: {
        title: 'Formular',
        unlabeled: 'Eingabefeld ohne Namen #%{input}',
      },
      SimpleList: {
        title: 'Liste',
        primaryText: 'Haupttext',
        secondaryText: 'Zweiter Text',
        tertiaryText: 'Dritter Text',
      },
    },
  },
};
