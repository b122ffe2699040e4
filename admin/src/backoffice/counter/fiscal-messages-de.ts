import type { en } from './fiscal-messages-en.ts';

// Texts of the till's signing (TSE, RKSV), the ELSTER notice and the DSFinV-K export, merged in
// i18n/german.ts and i18n/english.ts.
// In German; the English texts are in fiscal-messages-en.ts, so that each language loads alone.
export const de: typeof en = {
  app: {
    page: { elster: 'Kassenmeldung (ELSTER)' },
    fiscal: {
      heading: 'Signieren (TSE)',
      now: 'Gilt jetzt',
      mode: 'Signieren',
      country: 'Land',
      follow: 'Wie die Installation (%{value})',
      mode_off: 'Aus',
      mode_test: 'Testmodus',
      mode_live: 'Echtbetrieb',
      country_DE: 'Deutschland (TSE)',
      country_AT: 'Österreich (RKSV)',
      simulator: 'lokaler TSE-Simulator, keine Zugangsdaten des Anbieters',
      since: 'signiert seit %{time}',
      rksv: 'Für FinanzOnline: Kassen-ID %{id} · Prüfwert des AES-Schlüssels %{check}',
      rksv_no_key: 'Für FinanzOnline: Kassen-ID %{id} · fiskaly SIGN AT meldet die Kasse selbst',
      not_yet: 'beginnt mit der nächsten Buchung',
      off_plain: 'Diese Kasse signiert nicht (TSE aus). Ihre Belege tragen keinen TSE-Block.',
      apply: 'Übernehmen',
      saved: 'Gespeichert: %{mode}.',
      confirm_title: 'Signieren von %{till} ändern?',
      confirm_on:
        'Ab jetzt wird jede Kassenbewegung dieser Kasse signiert (%{mode}). Das Signieren beginnt mit dem Anfangsbestand: dem Bargeld, das jetzt in der Kasse ist. Das ist steuerlich wirksam: Eine Kasse, die signiert, wird dem Finanzamt gemeldet (ELSTER).',
      confirm_off:
        'Diese Kasse signiert nicht mehr. Was bewegt wird, während sie aus ist, wird nie signiert; schaltet man sie wieder ein, beginnt es neu mit dem Anfangsbestand dieses Moments.',
      confirm_off_report:
        'Damit wird ihre TSE außer Betrieb genommen: Das Ende der Nutzung ist dem Finanzamt binnen eines Monats zu melden (ELSTER, §146a Abs. 4 AO). Der Grund steht im Protokoll und im DSFinV-K-Export.',
      reason: 'Grund, aus dem die Kasse nicht mehr signiert',
      reason_hint: 'Ein Satz, z. B. „Die Kasse wird an diesem Standort nicht mehr genutzt.“',
      reason_missing: 'Bitte den Grund angeben, aus dem die Kasse nicht mehr signiert.',
      decommissioned:
        'Am %{time} von %{by} aus dem Signieren genommen (TSE %{serial}): %{reason}. Das Ende der Nutzung binnen eines Monats dem Finanzamt melden (ELSTER).',
      confirm_restart:
        'Das Signieren beginnt neu (%{mode}), mit dem Anfangsbestand: dem Bargeld, das jetzt in der Kasse ist.',
      confirm: 'Signieren ändern',
      counter_off: 'Diese Kasse signiert nicht (TSE aus): Ihre Belege tragen keinen TSE-Block.',
      counter_off_link: 'Das Signieren wird unter Kassen eingestellt.',
      elster_link: 'Kassenmeldung (ELSTER)',
      export_heading: 'DSFinV-K-Export',
      export_hint:
        'Die Tagesabschlüsse dieser Tage mit jeder signierten Transaktion, wie das Finanzamt sie anfordert (ZIP).',
      export_download: 'DSFinV-K herunterladen (ZIP)',
      export_loading: 'Der Export wird erstellt …',
      export_failed: 'Der Export war nicht möglich: %{message}',
      rksv_unit_failed:
        'Sicherheitseinrichtung ausgefallen seit %{time}: Die Belege stehen mit diesem Vermerk in der Belegkette; nach der Wiederinbetriebnahme folgt ein signierter Sammelbeleg. Dauert der Ausfall länger als 48 Stunden, ist er dem Finanzamt über FinanzOnline zu melden (§ 17 RKSV).',
      dep7_heading: 'DEP-Export (RKSV)',
      dep7_hint:
        'Das Datenerfassungsprotokoll dieser Kasse (Kassen-ID %{id}): jeder Beleg dieser Tage in der Reihenfolge der Belegkette, im Format des BMF (DEP7, JSON).',
      dep7_download: 'DEP herunterladen (JSON)',
      simulator_AT: 'lokaler Simulator von fiskaly SIGN AT, keine Zugangsdaten des Anbieters',
      from: 'Von',
      to: 'Bis',
    },
    elster: {
      intro:
        'Was die Mitteilung eines elektronischen Aufzeichnungssystems (§ 146a Abs. 4 AO) verlangt, je Kasse, die signiert. In ELSTER einzutragen: „Mitteilung über elektronische Aufzeichnungssysteme“, eine Mitteilung je Betriebsstätte mit allen ihren Kassen.',
      installation: 'Steuerpflichtige',
      name: 'Name',
      address: 'Anschrift',
      tax_number: 'Steuernummer',
      tax_number_hint: 'hier nicht gespeichert: in ELSTER eintragen',
      missing: 'nicht gesetzt (Einstellungen)',
      till: 'Kasse',
      tss_serial: 'Seriennummer der TSE',
      client_serial: 'Seriennummer der Kasse (TSS-Client)',
      kind_tse: 'Art der TSE',
      kind_tse_value: 'Cloud-TSE (fiskaly SIGN DE)',
      kind_system: 'Art des Systems',
      kind_system_value: 'PC-Kassensystem (Browser), Theke der Straßenzeitung',
      software: 'Software',
      since: 'Im Einsatz (signiert) seit',
      mode: 'Signieren',
      no_signature: 'nach der ersten signierten Transaktion',
      test_note: 'Testmodus: nicht für das Finanzamt; eine Kasse wird gemeldet, sobald sie im Echtbetrieb signiert.',
      none: 'Keine Kasse signiert. Sobald eine Kasse signiert (Kassen), stehen hier ihre Angaben für die Mitteilung.',
      print: 'Drucken',
      ended: 'Außer Betrieb genommen',
      ended_hint:
        'Das Ende der Nutzung jeweils binnen eines Monats mit einer aktualisierten Mitteilung für ihre Betriebsstätte melden (§146a Abs. 4 AO).',
      ended_at: 'Datum der Außerbetriebnahme',
      ended_reason: 'Grund',
      never: 'keine (sie signierte nie)',
    },
  },
};
