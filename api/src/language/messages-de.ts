// The German text of every English API message (see messages.ts). A message added in the code needs
// its line here; tests/api/messages.test.ts finds any that is missing and any line no code uses.
export const messagesDe: Record<string, string> = {
  'Not a coin or note of {country}: {values}.': 'Keine Münze und kein Schein in {country}: {values}.',
  'Please choose the first and the last day of the journal.':
    'Bitte den ersten und den letzten Tag des Journals wählen.',
  'A till in {country} cannot sign: no law there asks for it, and another country’s signing does not apply.':
    'Eine Kasse in {country} kann nicht signieren: Dort verlangt es kein Gesetz, und die Signatur eines anderen Landes gilt nicht.',
  'Signing is off in this country.': 'In diesem Land ist die Signatur aus.',
  'Not found.': 'Nicht gefunden.',
  'Stripe does not let the account {account} take payments yet: its owner finishes the onboarding first.':
    'Stripe lässt das Konto {account} noch keine Zahlungen annehmen: Erst schließt seine Inhaberin oder sein Inhaber die Einrichtung ab.',
  'The account {account} settles in {accountCurrency}, the paper’s books are in {currency}.':
    'Das Konto {account} rechnet in {accountCurrency} ab, die Bücher der Zeitung sind in {currency}.',
  'This entry already exists.': 'Diesen Eintrag gibt es schon.',
  'This entry refers to something that does not exist or is still in use.':
    'Dieser Eintrag verweist auf etwas, das es nicht gibt oder das noch verwendet wird.',
  'A value is not allowed.': 'Ein Wert ist nicht erlaubt.',
  'A required value is missing.': 'Ein nötiger Wert fehlt.',
  'A value is too long.': 'Ein Wert ist zu lang.',
  'A number is out of range.': 'Eine Zahl liegt außerhalb des erlaubten Bereichs.',
  'A date is not valid.': 'Ein Datum ist ungültig.',
  'A date is out of range.': 'Ein Datum liegt außerhalb des erlaubten Bereichs.',
  'A value has the wrong format.': 'Ein Wert hat das falsche Format.',
  'A value holds characters that cannot be stored.': 'Ein Wert enthält Zeichen, die nicht gespeichert werden können.',
  'This booking cannot be changed; book a correction instead.':
    'Diese Buchung kann nicht geändert werden; bitte stattdessen eine Korrektur buchen.',
  'The cash book refuses this: the period is closed or the movement is booked. Book a correction as a new movement.':
    'Das Kassenbuch lehnt das ab: Der Zeitraum ist abgeschlossen oder die Bewegung ist gebucht. Bitte eine Korrektur als neue Bewegung buchen.',
  'This vendor has no credit to pay out.': 'Diese Verkäuferin oder dieser Verkäufer hat kein Guthaben zum Auszahlen.',
  'No credits to pay out': 'Kein Guthaben zum Auszahlen',
  'Payout {id} has not been reversed.': 'Die Auszahlung {id} ist nicht storniert.',
  'No credits to pay out: {staff} paid out {amount} on {time} (receipt {number}).':
    'Kein Guthaben zum Auszahlen: {staff} hat am {time} {amount} ausgezahlt (Beleg {number}).',
  'The credit has changed in the meantime: it is now {amount}. Please check the amount and pay out again.':
    'Das Guthaben hat sich inzwischen geändert: Es beträgt jetzt {amount}. Bitte den Betrag prüfen und erneut auszahlen.',
  'The credit is now {amount}.': 'Das Guthaben beträgt jetzt {amount}.',
  'There is no payout with the id {id}.': 'Es gibt keine Auszahlung mit der ID {id}.',
  'This payout has already been reversed.': 'Diese Auszahlung wurde bereits storniert.',
  'This is a test installation: credit from test payments is never paid out in cash, nor used to pay for copies.':
    'Dies ist eine Testinstallation: Guthaben aus Testzahlungen wird nie bar ausgezahlt und bezahlt auch keine Exemplare.',
  'This vendor cannot be deleted: the credit is not zero ({credit}). Please pay it out or settle the debt first.':
    'Diese Verkäuferin oder dieser Verkäufer kann nicht gelöscht werden: Das Guthaben ist nicht null ({credit}). Bitte zuerst auszahlen oder die Schulden begleichen.',
  'This vendor has been deleted; no money can be booked for them.':
    'Diese Verkäuferin oder dieser Verkäufer wurde gelöscht; für sie oder ihn kann kein Geld mehr gebucht werden.',
  'The shop cannot save anything right now because its storage is full. Nothing was lost. Please try again in a few minutes.':
    'Der Shop kann gerade nichts speichern, weil sein Speicher voll ist. Es ist nichts verloren gegangen. Bitte in ein paar Minuten noch einmal versuchen.',
  'The database cannot be reached right now. Please try again in a moment.':
    'Die Datenbank ist gerade nicht erreichbar. Bitte gleich noch einmal versuchen.',
  'Something else was booked or changed at the same moment; nothing was saved. Please try again.':
    'Gerade wurde gleichzeitig etwas anderes gebucht oder geändert; es ist nichts gespeichert worden. Bitte noch einmal versuchen.',
  'The request could not be handled.': 'Die Anfrage konnte nicht bearbeitet werden.',
  'An error occurred. Please try again later.': 'Ein Fehler ist aufgetreten. Bitte später noch einmal versuchen.',
  'The request could not be read.': 'Die Anfrage konnte nicht gelesen werden.',
  'Please log in.': 'Bitte anmelden.',
  'You are not allowed to do this.': 'Dazu fehlt die Berechtigung.',
  'This method is not allowed here.': 'Diese Methode ist hier nicht erlaubt.',
  'The request is too large.': 'Die Anfrage ist zu groß.',
  'This kind of data is not accepted here.': 'Diese Art von Daten wird hier nicht angenommen.',
  'There is no such endpoint.': 'Diesen Endpunkt gibt es nicht.',
  'The login name "{username}" is already taken by another account.':
    'Der Anmeldename „{username}“ ist bereits an ein anderes Konto vergeben.',
  'This licence ID is already taken as a login name.': 'Diese Ausweisnummer ist bereits als Anmeldename vergeben.',
  'Please log in again.': 'Bitte erneut anmelden.',
  'The request is too large; at most {kb} KB are accepted.':
    'Die Anfrage ist zu groß; höchstens {kb} KB werden angenommen.',
  'Please send the data as JSON (application/json).': 'Bitte die Daten als JSON (application/json) senden.',
  'The request body is not valid JSON.': 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  'Please send the data as CSS (text/css).': 'Bitte die Daten als CSS (text/css) senden.',
  'Please send the form from the shop’s page.': 'Bitte das Formular von der Seite des Shops aus senden.',
  'The style sheet is too large; at most {kb} KB are accepted.':
    'Das Stylesheet ist zu groß; höchstens {kb} KB werden angenommen.',
  'The style sheet could not be read.': 'Das Stylesheet konnte nicht gelesen werden.',
  'The file "{field}" is too large; at most {mb} MB are accepted.':
    'Die Datei „{field}“ ist zu groß; höchstens {mb} MB werden angenommen.',
  'File too large': 'Datei zu groß',
  'At most {count} files can be uploaded at once.': 'Höchstens {count} Dateien können auf einmal hochgeladen werden.',
  'The form has too many fields.': 'Das Formular hat zu viele Felder.',
  'The field "{field}" is too long.': 'Das Feld „{field}“ ist zu lang.',
  'The form has too many parts.': 'Das Formular hat zu viele Teile.',
  'The field "{field}" does not take a file.': 'Das Feld „{field}“ nimmt keine Datei an.',
  'Please send the data as a form (multipart/form-data).': 'Bitte die Daten als Formular (multipart/form-data) senden.',
  'The form could not be read.': 'Das Formular konnte nicht gelesen werden.',
  'Please upload only one file for "{field}".': 'Bitte nur eine Datei für „{field}“ hochladen.',
  'The request is nested more than {levels} levels deep.':
    'Die Anfrage ist mehr als {levels} Ebenen tief verschachtelt.',
  'The request contains a NUL character (\\u0000), which no field can hold.':
    'Die Anfrage enthält ein NUL-Zeichen (\\u0000), das kein Feld aufnehmen kann.',
  'Please remove the NUL character.': 'Bitte das NUL-Zeichen entfernen.',
  'The server took too long to answer. Please try again in a moment.':
    'Der Server hat zu lange für die Antwort gebraucht. Bitte gleich noch einmal versuchen.',
  'The file for "{field}" is not a valid {kind} file.': 'Die Datei für „{field}“ ist keine gültige {kind}-Datei.',
  'Please upload a {kind} file.': 'Bitte eine {kind}-Datei hochladen.',
  'This field is required.': 'Dieses Feld ist ein Pflichtfeld.',
  'Please enter text.': 'Bitte einen Text eingeben.',
  'Please enter a number.': 'Bitte eine Zahl eingeben.',
  'Please answer with true or false.': 'Bitte mit true oder false (ja oder nein) antworten.',
  'Please send a list.': 'Bitte eine Liste senden.',
  'Please send a JSON object.': 'Bitte ein JSON-Objekt senden.',
  'This value has the wrong type.': 'Dieser Wert hat den falschen Typ.',
  'Please use at least {minimum} characters.': 'Bitte mindestens {minimum} Zeichen verwenden.',
  'Please give at least {minimum} entries.': 'Bitte mindestens {minimum} Einträge angeben.',
  'Please enter a number of at least {minimum}.': 'Bitte eine Zahl von mindestens {minimum} eingeben.',
  'Please enter a number above {minimum}.': 'Bitte eine Zahl über {minimum} eingeben.',
  'Please use at most {maximum} characters.': 'Bitte höchstens {maximum} Zeichen verwenden.',
  'Please give at most {maximum} entries.': 'Bitte höchstens {maximum} Einträge angeben.',
  'Please enter a number of at most {maximum}.': 'Bitte eine Zahl von höchstens {maximum} eingeben.',
  'Please enter a number below {maximum}.': 'Bitte eine Zahl unter {maximum} eingeben.',
  'Please enter a valid email address.': 'Bitte eine gültige E-Mail-Adresse eingeben.',
  'Please enter a web address starting with http:// or https://.':
    'Bitte eine Webadresse eingeben, die mit http:// oder https:// beginnt.',
  'Please enter a date as YYYY-MM-DD.': 'Bitte ein Datum im Format JJJJ-MM-TT eingeben.',
  'This value has the wrong format.': 'Dieser Wert hat das falsche Format.',
  'Please choose one of: {values}.': 'Bitte eines davon wählen: {values}.',
  'Unknown fields: {keys}.': 'Unbekannte Felder: {keys}.',
  'Please enter a multiple of {divisor}.': 'Bitte ein Vielfaches von {divisor} eingeben.',
  'This value is not valid.': 'Dieser Wert ist ungültig.',
  'Please check the field "{field}": {problem}': 'Bitte das Feld „{field}“ prüfen: {problem}',
  // Field labels (language/fields.ts), as the back office's forms name them.
  'Sites that may embed the shop': 'Seiten, die den Shop einbetten dürfen',
  'Licence group': 'Lizenzgruppe',
  Unit: 'Einheit',
  Resolved: 'Erledigt',
  Scheme: 'Leistung',
  'Warn within (% of a limit)': 'Warnen im Abstand von (% einer Grenze)',
  'Tips free up to (a month)': 'Trinkgeld frei bis (im Monat)',
  Bands: 'Stufen',
  'Borne by': 'Getragen von',
  'Donation only': 'Nur Spende',
  Until: 'Bis',
  'Account number length': 'Sachkontenlänge',
  'Verification link': 'Verifizierungslink',
  Accounts: 'Konten',
  Active: 'Aktiv',
  Address: 'Anschrift',
  'Adviser number': 'Beraternummer',
  'Terms (URL)': 'AGB (URL)',
  'Chart of accounts': 'Kontenrahmen',
  'Client number': 'Mandantennummer',
  'Background colour': 'Hintergrundfarbe',
  Comment: 'Kommentar',
  'Counter price': 'Thekenpreis',
  Country: 'Land',
  Debt: 'Schulden',
  'Coins and notes': 'Münzen und Scheine',
  Description: 'Beschreibung',
  'English description': 'Englische Beschreibung',
  Disabled: 'Deaktiviert',
  Events: 'Ereignisse',
  'Expected balance': 'Soll-Bestand',
  'Amount to pay out': 'Auszuzahlender Betrag',
  'Credit shown': 'Angezeigtes Guthaben',
  'Day the fiscal year starts': 'Tag des Beginns des Wirtschaftsjahrs',
  'Month the fiscal year starts': 'Monat des Beginns des Wirtschaftsjahrs',
  'Text colour': 'Schriftfarbe',
  'Dates in German e-mails': 'Datum in deutschen E-Mails',
  Currency: 'Währung',
  'Has a bank account': 'Hat ein Bankkonto',
  'Has a smartphone': 'Hat ein Smartphone',
  Image: 'Bild',
  'Is a licence item': 'Ist ein Lizenzprodukt',
  'Main product': 'Hauptprodukt',
  'Is a PDF item': 'Ist ein PDF-Produkt',
  Language: 'Sprache',
  Latitude: 'Breitengrad',
  'Licence item': 'Lizenzprodukt',
  Place: 'Ort',
  Logo: 'Logo',
  Longitude: 'Längengrad',
  'Browser icon': 'Browser-Symbol',
  'Help during maintenance (URL)': 'Hilfe während der Wartung (URL)',
  'Map centre latitude': 'Kartenmitte Breitengrad',
  'Map centre longitude': 'Kartenmitte Längengrad',
  'Maximum order amount': 'Maximaler Bestellbetrag',
  'Description for search engines': 'Beschreibung für Suchmaschinen',
  Signing: 'Signatur',
  Name: 'Name',
  'English name': 'Englischer Name',
  'Newspaper’s address': 'Anschrift der Zeitung',
  'Newspaper’s name': 'Name der Zeitung',
  'Shown on the online map': 'Auf der Online-Karte',
  'The newspaper covers card fees': 'Die Zeitung übernimmt die Kartengebühren',
  'Pay out the rest': 'Rest auszahlen',
  PDF: 'PDF',
  'Post code': 'PLZ',
  Price: 'Preis',
  'Show a logo in the middle': 'Logo in der Mitte zeigen',
  'Logo in the QR code': 'Logo im QR-Code',
  'QR code design': 'Gestaltung der QR-Codes',
  'Address in the QR codes (URL)': 'Adresse in den QR-Codes (URL)',
  'Number of copies': 'Anzahl der Exemplare',
  'Registered on': 'Registriert am',
  'Covers the card fee': 'Übernimmt die Kartengebühr',
  'Cash handed over': 'Bar erhalten',
  'Say "tip" instead of "donation"': '„Trinkgeld“ statt „Spende“ sagen',
  'Show the licence ID instead of the name': 'Ausweisnummer statt Namen zeigen',
  'Address (URL)': 'Adresse (URL)',
  'VAT rate': 'Mehrwertsteuersatz',
  'Vendors’ accounts': 'Konten der Verkäufer·innen',
  'First personal account': 'Erstes Personenkonto',
  'E-mail ending of new vendors': 'E-Mail-Endung neuer Verkäufer·innen',
  'Help for an unknown vendor (URL)': 'Hilfe bei unbekannter Ausweisnummer (URL)',
  'Vendor since': 'Verkauft seit',
  Visit: 'Besuch',
  Warning: 'Warnung',
  'Shop closed (maintenance)': 'Shop geschlossen (Wartung)',
  'Working hours': 'Arbeitszeiten',
  'Sort order': 'Reihenfolge',
  '"{value}" is not a valid {what} id.': '„{value}“ ist keine gültige ID.',
  'The parameter "{name}" was given more than once.': 'Der Parameter „{name}“ wurde mehrfach angegeben.',
  'The parameter "{name}" is not valid JSON.': 'Der Parameter „{name}“ ist kein gültiges JSON.',
  'The parameter "sort" must look like ["field","ASC"].': 'Der Parameter „sort“ muss wie ["field","ASC"] aussehen.',
  'The list cannot be sorted by "{field}".': 'Die Liste kann nicht nach „{field}“ sortiert werden.',
  'The parameter "range" must look like [0,24].': 'Der Parameter „range“ muss wie [0,24] aussehen.',
  'At most {count} entries can be fetched at once.': 'Höchstens {count} Einträge können auf einmal abgerufen werden.',
  'The parameter "filter" must be a JSON object.': 'Der Parameter „filter“ muss ein JSON-Objekt sein.',
  'The filter "id" must hold entry ids.': 'Der Filter „id“ muss Eintrags-IDs enthalten.',
  'The list cannot be filtered by "{name}".': 'Die Liste kann nicht nach „{name}“ gefiltert werden.',
  'The filter "{name}" must be one of {allowed}.': 'Der Filter „{name}“ muss eines davon sein: {allowed}.',
  'The filter "{name}" must be {what}.': 'Der Filter „{name}“ hat einen ungültigen Wert.',
  'Please send this field as text.': 'Bitte dieses Feld als Text senden.',
  'Please send valid JSON.': 'Bitte gültiges JSON senden.',
  'Please choose yes or no (true or false).': 'Bitte ja oder nein (true oder false) wählen.',
  'Please enter a whole number.': 'Bitte eine ganze Zahl eingeben.',
  "Please enter the amount in the currency's smallest unit, for example {minor} for {amount}.":
    'Bitte den Betrag in der kleinsten Einheit der Währung eingeben, zum Beispiel {minor} für {amount}.',
  'The amount must not be negative.': 'Der Betrag darf nicht negativ sein.',
  'The amount must be at least {minimum}.': 'Der Betrag muss mindestens {minimum} sein.',
  'Please enter at most {maximum}.': 'Bitte höchstens {maximum} eingeben.',
  'Please enter a number, for example 48.2082.': 'Bitte eine Zahl eingeben, zum Beispiel 48,2082.',
  'Please enter a number between {min} and {max}.': 'Bitte eine Zahl zwischen {min} und {max} eingeben.',
  'Please enter a colour like #000 or #aabbcc.': 'Bitte eine Farbe wie #000 oder #aabbcc eingeben.',
  'Please enter the VAT rate in percent between 0 and 100, for example 7 or 5.5.':
    'Bitte den Mehrwertsteuersatz in Prozent zwischen 0 und 100 eingeben, zum Beispiel 7 oder 5,5.',
  'Please enter the VAT rate in percent, for example 7.':
    'Bitte den Mehrwertsteuersatz in Prozent eingeben, zum Beispiel 7.',
  'Please use an address of at most 2000 characters.': 'Bitte eine Adresse mit höchstens 2000 Zeichen verwenden.',
  'Please enter an address starting with https:// or http://, or leave it empty.':
    'Bitte eine Adresse eingeben, die mit https:// oder http:// beginnt, oder das Feld leer lassen.',
  'Please upload one file here, or send an empty text to remove the stored one.':
    'Bitte hier eine Datei hochladen oder einen leeren Text senden, um die gespeicherte zu entfernen.',
  'No file expected here.': 'Hier wird keine Datei erwartet.',
  'Please enter a name.': 'Bitte einen Namen eingeben.',
  "Please enter a price in the currency's smallest unit.":
    'Bitte einen Preis in der kleinsten Einheit der Währung eingeben.',
  'Please enter a whole number greater than 0, or leave it empty.':
    'Bitte eine ganze Zahl größer als 0 eingeben oder das Feld leer lassen.',
  'Please choose a licence item.': 'Bitte einen Lizenzartikel wählen.',
  'Donation only is not allowed': 'Eine Spende allein ist nicht möglich – bitte auch eine Zeitung wählen.',
  'The filter "{name}" must be true or false.': 'Der Filter „{name}“ muss true oder false sein.',
  'The filter "q" must be text.': 'Der Filter „q“ muss ein Text sein.',
  'There is no item with id {id}.': 'Es gibt keinen Artikel mit der ID {id}.',
  'A licence item cannot itself link a licence item.':
    'Ein Lizenzartikel kann nicht selbst auf einen Lizenzartikel verweisen.',
  'An item cannot be its own licence item.': 'Ein Artikel kann nicht sein eigener Lizenzartikel sein.',
  'Please choose an existing licence item.': 'Bitte einen vorhandenen Lizenzartikel wählen.',
  '"{name}" is not a licence item.': '„{name}“ ist kein Lizenzartikel.',
  'The price must be at least the price of its licence item "{name}" ({price}), so the vendor never nets less than zero.':
    'Der Preis muss mindestens der Preis seines Lizenzartikels „{name}“ ({price}) sein, damit die Verkäuferin oder der Verkäufer nie weniger als null erhält.',
  'This is still the licence item of {items}; remove the link there first.':
    'Dies ist noch der Lizenzartikel von {items}; bitte zuerst die Verknüpfung dort entfernen.',
  'A licence item must not cost more than the items that use it: {items} (from {price}).':
    'Ein Lizenzartikel darf nicht mehr kosten als die Artikel, die ihn verwenden: {items} (ab {price}).',
  'Only a licence item can be a PDF item.': 'Nur ein Lizenzartikel kann ein PDF-Artikel sein.',
  'Please upload the PDF of this PDF item.': 'Bitte das PDF dieses PDF-Artikels hochladen.',
  'Unknown QR code setting: {keys}.': 'Unbekannte QR-Code-Einstellung: {keys}.',
  'Please send the QR code settings as a JSON object.': 'Bitte die QR-Code-Einstellungen als JSON-Objekt senden.',
  'Please enter a domain like @example.org, or leave it empty.':
    'Bitte eine Domain wie @example.org eingeben oder das Feld leer lassen.',
  'Please send the websites as text, one per line, or as a JSON list of texts.':
    'Bitte die Websites als Text senden, eine pro Zeile, oder als JSON-Liste von Texten.',
  'Please list at most 20 websites.': 'Bitte höchstens 20 Websites angeben.',
  '"{entry}" is not a website address like https://www.example.org (without a path).':
    '„{entry}“ ist keine Website-Adresse wie https://www.example.org (ohne Pfad).',
  'Please list the websites, or send an empty text for none.':
    'Bitte die Websites angeben oder einen leeren Text für keine senden.',
  'Please choose an item.': 'Bitte einen Artikel wählen.',
  'The style sheet must not contain "</style" or "<script".':
    'Das Stylesheet darf „</style“ oder „<script“ nicht enthalten.',
  '"{name}" must be a date like 2026-05-01 or a time like 2026-05-01T14:00:00+02:00.':
    '„{name}“ muss ein Datum wie 2026-05-01 oder ein Zeitpunkt wie 2026-05-01T14:00:00+02:00 sein.',
  'Please give a date like 2026-05-01 or a time like 2026-05-01T14:00:00+02:00.':
    'Bitte ein Datum wie 2026-05-01 oder einen Zeitpunkt wie 2026-05-01T14:00:00+02:00 angeben.',
  'The period ends before it starts.': 'Der Zeitraum endet, bevor er beginnt.',
  '"{name}" must lie within the years {first} to {last}.': '„{name}“ muss in den Jahren {first} bis {last} liegen.',
  'Please choose a date within the years {first} to {last}.':
    'Bitte ein Datum in den Jahren {first} bis {last} wählen.',
  'For this computer only': 'Nur für diesen Computer',
  'This newspaper’s shop is closed for the time being.': 'Der Shop dieser Zeitung ist vorübergehend geschlossen.',
  'This newspaper’s shop is being updated. Please try again in a few minutes.':
    'Der Shop dieser Zeitung wird gerade aktualisiert. Bitte in ein paar Minuten noch einmal versuchen.',
  'No newspaper is served at this address.': 'Unter dieser Adresse gibt es keine Zeitung.',
  'The slug "{slug}" must be 1 to 40 lower-case letters, digits and hyphens, starting and ending with a letter or digit.':
    'Der Kurzname "{slug}" muss aus 1 bis 40 Kleinbuchstaben, Ziffern und Bindestrichen bestehen und mit einem Buchstaben oder einer Ziffer beginnen und enden.',
  '"{host}" is not a host name like shop.example.org.': '"{host}" ist kein Hostname wie shop.example.org.',
  'The country "{country}" has no preset.': 'Für das Land "{country}" gibt es keine Vorgaben.',
  'The currency "{currency}" is not one the shop keeps books in.':
    'In der Währung "{currency}" kann der Shop keine Bücher führen.',
  'The time zone "{timeZone}" is no IANA time zone like Europe/Zurich.':
    'Die Zeitzone "{timeZone}" ist keine IANA-Zeitzone wie Europe/Zurich.',
  'The paper "{slug}" or one of its hosts is taken: {reason}.':
    'Die Zeitung "{slug}" oder einer ihrer Hostnamen ist schon vergeben: {reason}.',
  'There is no paper "{slug}".': 'Es gibt keine Zeitung "{slug}".',
  '"{account}" is no Stripe account id like acct_1Nv0FGQ9RKHgCVdK.':
    '"{account}" ist keine Stripe-Konto-ID wie acct_1Nv0FGQ9RKHgCVdK.',
  'The Stripe account {account} is connected to the paper "{slug}" already.':
    'Das Stripe-Konto {account} ist schon mit der Zeitung "{slug}" verbunden.',
  'The database password of the paper "{slug}" does not open with this PLATFORM_SECRET: start with the secret it was added with.':
    'Das Datenbank-Passwort der Zeitung "{slug}" lässt sich mit diesem PLATFORM_SECRET nicht öffnen: Bitte mit dem Geheimnis starten, mit dem sie angelegt wurde.',
  'The signing credentials need the API key, the API secret, the TSS and the client id.':
    'Die Zugangsdaten zur Signatur brauchen den API-Schlüssel, das API-Secret, die TSS und die Client-ID.',
  'The TSS and the client id are UUIDs like 0b9ac2e5-1b4e-4a53-8d3e-2f6c1c9a7f10; "{id}" is none.':
    'TSS und Client-ID sind UUIDs wie 0b9ac2e5-1b4e-4a53-8d3e-2f6c1c9a7f10; "{id}" ist keine.',
  '"{url}" is no address like https://kassensichv-middleware.fiskaly.com/api/v2.':
    '"{url}" ist keine Adresse wie https://kassensichv-middleware.fiskaly.com/api/v2.',
  'The paper "{other}" signs with this API key or this TSS: each paper signs with an account and a TSS of its own.':
    'Die Zeitung "{other}" signiert mit diesem API-Schlüssel oder dieser TSS: Jede Zeitung signiert mit einem eigenen Konto und einer eigenen TSS.',
  'The signing credentials of the paper "{slug}" do not open with this PLATFORM_SECRET: start with the secret they were set with.':
    'Die Zugangsdaten zur Signatur der Zeitung "{slug}" lassen sich mit diesem PLATFORM_SECRET nicht öffnen: Bitte mit dem Geheimnis starten, mit dem sie gesetzt wurden.',
  'Please write the name of the address without a dot at its end.':
    'Bitte den Namen der Adresse ohne Punkt am Ende schreiben.',
  'The address is this shop’s own; events are only sent to other systems.':
    'Die Adresse ist die dieses Shops; Ereignisse werden nur an andere Systeme gesendet.',
  'This form was sent from another website. Please use the form on the shop’s page.':
    'Dieses Formular wurde von einer anderen Website gesendet. Bitte das Formular auf der Seite des Shops verwenden.',
  'This shop was started for this computer only, as PUBLIC_URL names no public address, so it refuses requests that come through a proxy or for another address. To publish it, set PUBLIC_URL to the address people open (like https://shop.example.org) and start it again.':
    'Dieser Shop wurde nur für diesen Computer gestartet, da PUBLIC_URL keine öffentliche Adresse nennt; deshalb lehnt er Anfragen ab, die über einen Proxy oder für eine andere Adresse kommen. Um ihn zu veröffentlichen, PUBLIC_URL auf die Adresse setzen, die Menschen öffnen (etwa https://shop.example.org), und ihn neu starten.',
  'Please choose an end after the start.': 'Bitte ein Ende nach dem Beginn wählen.',
  'Only "from" and "to" can be given here, not "{name}".':
    'Hier können nur „from“ und „to“ angegeben werden, nicht „{name}“.',
  'Please enter the latitude as a number between -90 and 90.':
    'Bitte die geografische Breite als Zahl zwischen -90 und 90 eingeben.',
  'Please enter the longitude as a number between -180 and 180.':
    'Bitte die geografische Länge als Zahl zwischen -180 und 180 eingeben.',
  'A licence ID has 1 to 40 letters, digits, "-" or "_" and starts with a letter or digit.':
    'Eine Ausweisnummer hat 1 bis 40 Buchstaben, Ziffern, „-“ oder „_“ und beginnt mit einem Buchstaben oder einer Ziffer.',
  'Please use at most 254 characters.': 'Bitte höchstens 254 Zeichen verwenden.',
  'Please use at most 1000 characters.': 'Bitte höchstens 1000 Zeichen verwenden.',
  'Please send the vendor as a JSON object.': 'Bitte die Verkäuferin oder den Verkäufer als JSON-Objekt senden.',
  'There is no vendor with the id {id}.': 'Es gibt keine Verkäuferin und keinen Verkäufer mit der ID {id}.',
  'The licence ID "{licenseId}" is already taken by another vendor.':
    'Die Ausweisnummer „{licenseId}“ ist bereits an eine andere Verkäuferin oder einen anderen Verkäufer vergeben.',
  'This licence ID is already taken.': 'Diese Ausweisnummer ist bereits vergeben.',
  'The filter "vendor" must be a licence ID like DEMO-1.':
    'Der Filter „vendor“ muss eine Ausweisnummer wie DEMO-1 sein.',
  'Please give a licence ID like DEMO-1.': 'Bitte eine Ausweisnummer wie DEMO-1 angeben.',
  'The filter "item" must be an item id.': 'Der Filter „item“ muss eine Artikel-ID sein.',
  'The till holds only {balance}; {amount} cannot be taken out of it.':
    'In der Kasse sind nur {balance}; {amount} können nicht entnommen werden.',
  'The till holds {balance}.': 'In der Kasse sind {balance}.',
  'There is no till with the id {id}.': 'Es gibt keine Kasse mit der ID {id}.',
  'Please choose a till.': 'Bitte eine Kasse wählen.',
  'There is no till yet. Please set one up under "Tills" first.':
    'Es gibt noch keine Kasse. Bitte zuerst unter „Kassen“ eine anlegen.',
  'Please give an amount above 0.': 'Bitte einen Betrag über 0 angeben.',
  'Please say what the money is for.': 'Bitte angeben, wofür das Geld ist.',
  'Please give a reason.': 'Bitte einen Grund angeben.',
  'The pieces add up to {sum}, not {counted}.': 'Die Stückelung ergibt {sum}, nicht {counted}.',
  'Please count again.': 'Bitte noch einmal zählen.',
  'Today ({day}) is already closed for till {till}. Cash moved since goes into the next close, on the next day.':
    'Heute ({day}) ist für die Kasse {till} bereits abgeschlossen. Was seitdem bewegt wurde, zählt zum nächsten Abschluss, am nächsten Tag.',
  "The till's balance has changed in the meantime: it is now {balance}. Please count again.":
    'Der Kassenstand hat sich inzwischen geändert: Er beträgt jetzt {balance}. Bitte noch einmal zählen.',
  'The balance is now {balance}.': 'Der Kassenstand beträgt jetzt {balance}.',
  'The count differs by {difference}: please give a reason.':
    'Die Zählung weicht um {difference} ab: Bitte einen Grund angeben.',
  'The credit has changed in the meantime: it is now {amount}. Please check the visit and confirm again.':
    'Das Guthaben hat sich inzwischen geändert: Es beträgt jetzt {amount}. Bitte den Besuch prüfen und erneut bestätigen.',
  'This visit was booked for another vendor.':
    'Dieser Besuch wurde für eine andere Verkäuferin oder einen anderen Verkäufer gebucht.',
  'This submission was already booked with other figures. Please reload the page to see the booking, and book again if something is missing.':
    'Diese Eingabe wurde bereits mit anderen Angaben gebucht. Bitte die Seite neu laden, um die Buchung zu sehen, und neu buchen, falls etwas fehlt.',
  'Some items are not sold at the counter.': 'Einige Artikel werden nicht am Schalter verkauft.',
  'Not sold at the counter: item {items}.': 'Nicht am Schalter verkauft: Artikel {items}.',
  'A German TSE signs sales at 19 %, 7 %, 10.7 %, 5.5 % and 0 % only; {rates} % has no place in it. Change the VAT rate of the item before it is sold at this till.':
    'Eine deutsche TSE signiert Verkäufe nur zu 19 %, 7 %, 10,7 %, 5,5 % und 0 %; für {rates} % hat sie keinen Platz. Ändern Sie den Steuersatz des Artikels, bevor er an dieser Kasse verkauft wird.',
  'VAT rate {rates} % cannot be signed in Germany.': 'Den Steuersatz {rates} % kann eine deutsche TSE nicht signieren.',
  'This till has no TSE client registered.': 'Für diese Kasse ist kein TSE-Client registriert.',
  'There is no TSS in service to take out of service.':
    'Es ist keine TSE in Betrieb, die außer Betrieb genommen werden könnte.',
  'The TSE did not do it: {reason}': 'Die TSE hat es nicht ausgeführt: {reason}',
  'The copies cost {total}; the vendor cannot pay more than that in cash.':
    'Die Exemplare kosten {total}; die Verkäuferin oder der Verkäufer kann nicht mehr als das bar bezahlen.',
  'At most {total}.': 'Höchstens {total}.',
  'The vendor handed over {tendered}, less than the {cash} paid in cash.':
    'Gegeben wurden {tendered}, weniger als die {cash}, die bar bezahlt werden.',
  'At least {amount}.': 'Mindestens {amount}.',
  'Change is given only when the cash pays all the copies ({total}).':
    'Rückgeld gibt es nur, wenn das Bargeld alle Exemplare bezahlt ({total}).',
  '{total} in cash, or no change.': '{total} bar, oder kein Rückgeld.',
  "Please give the cash handed over in the currency's smallest unit.":
    'Bitte das gegebene Bargeld in der kleinsten Einheit der Währung angeben.',
  'The credit is {credit}: {fromCredit} cannot be paid from it. Please take the rest in cash.':
    'Das Guthaben beträgt {credit}: {fromCredit} können nicht davon bezahlt werden. Bitte den Rest bar kassieren.',
  'At least {amount} in cash.': 'Mindestens {amount} bar.',
  'Nothing to book: no copies and no credit to pay out.':
    'Nichts zu buchen: keine Exemplare und kein Guthaben zum Auszahlen.',
  'Please add copies or pay out a credit.': 'Bitte Exemplare hinzufügen oder ein Guthaben auszahlen.',
  'The amount is too large.': 'Der Betrag ist zu groß.',
  'The amount cannot be negative.': 'Der Betrag darf nicht negativ sein.',
  "Please give the amount as a whole number in the currency's smallest unit.":
    'Bitte den Betrag als ganze Zahl in der kleinsten Einheit der Währung angeben.',
  'The visit needs an id made by the screen (a UUID).':
    'Der Besuch braucht eine vom Bildschirm erzeugte ID (eine UUID).',
  'The submission needs an id made by the screen (a UUID).':
    'Die Eingabe braucht eine vom Bildschirm erzeugte ID (eine UUID).',
  'Please give the vendor’s licence ID.': 'Bitte die Ausweisnummer der Verkäuferin oder des Verkäufers angeben.',
  'At most 100 lines.': 'Höchstens 100 Zeilen.',
  'At most 10000 copies.': 'Höchstens 10000 Exemplare.',
  'At least 1 copy.': 'Mindestens 1 Exemplar.',
  'Whole copies only.': 'Nur ganze Exemplare.',
  'Please give a number of copies.': 'Bitte eine Anzahl Exemplare angeben.',
  'Please list the copies as items.': 'Bitte die Exemplare als Artikel auflisten.',
  "Please give the cash paid in the currency's smallest unit.":
    'Bitte das bezahlte Bargeld in der kleinsten Einheit der Währung angeben.',
  'Please say whether the rest is paid out.': 'Bitte angeben, ob der Rest ausgezahlt wird.',
  "Please give the credit you were shown, in the currency's smallest unit.":
    'Bitte das angezeigte Guthaben in der kleinsten Einheit der Währung angeben.',
  'At most 100 characters.': 'Höchstens 100 Zeichen.',
  'At most 10 characters.': 'Höchstens 10 Zeichen.',
  'At most 60 characters.': 'Höchstens 60 Zeichen.',
  'At most 62 characters.': 'Höchstens 62 Zeichen.',
  'Please name the till.': 'Bitte die Kasse benennen.',
  "Please give the opening balance in the currency's smallest unit.":
    'Bitte den Anfangsbestand in der kleinsten Einheit der Währung angeben.',
  "Please give the amount in the currency's smallest unit.":
    'Bitte den Betrag in der kleinsten Einheit der Währung angeben.',
  'At most 1000 characters.': 'Höchstens 1000 Zeichen.',
  'Whole pieces only.': 'Nur ganze Stück.',
  "Please give the counted cash in the currency's smallest unit.":
    'Bitte das gezählte Bargeld in der kleinsten Einheit der Währung angeben.',
  'Please give the expected balance you were shown.': 'Bitte den angezeigten erwarteten Kassenstand angeben.',
  'Unknown coin or note.': 'Unbekannte Münze oder unbekannter Schein.',
  'Please give a date as YYYY-MM-DD.': 'Bitte ein Datum im Format JJJJ-MM-TT angeben.',
  'Please name the vendor by licence ID ("vendor").':
    'Bitte die Verkäuferin oder den Verkäufer mit der Ausweisnummer („vendor“) angeben.',
  'Please give a licence ID.': 'Bitte eine Ausweisnummer angeben.',
  'There is no vendor with the licence ID "{licenseId}".':
    'Es gibt keine Verkäuferin und keinen Verkäufer mit der Ausweisnummer „{licenseId}“.',
  '"{id}" is not a visit id.': '„{id}“ ist keine Besuchs-ID.',
  'There is no counter visit with the id {id}.': 'Es gibt keinen Schalterbesuch mit der ID {id}.',
  'There is no such close.': 'Diesen Kassenabschluss gibt es nicht.',
  'The filter "{name}" must be text.': 'Der Filter „{name}“ muss ein Text sein.',
  'There is no such file.': 'Diese Datei gibt es nicht.',
  'This login is not locked (any more).': 'Diese Anmeldung ist nicht (mehr) gesperrt.',
  'Please enter a time as HH:MM.': 'Bitte eine Uhrzeit im Format HH:MM eingeben.',
  'Please choose a weekday: {values}.': 'Bitte einen Wochentag wählen: {values}.',
  'Please give each time range as { day, from, to }.': 'Bitte jeden Zeitraum als { day, from, to } angeben.',
  'The end must be after the start.': 'Das Ende muss nach dem Beginn liegen.',
  'Please use at most 50 time ranges.': 'Bitte höchstens 50 Zeiträume verwenden.',
  'Please add at least one time range.': 'Bitte mindestens einen Zeitraum hinzufügen.',
  'Please give the weekly times as a list of ranges.': 'Bitte die Wochenzeiten als Liste von Zeiträumen angeben.',
  'Overlaps with time range {range}.': 'Überschneidet sich mit Zeitraum {range}.',
  'Please choose the working time: all day, mornings, afternoons or certain weekdays.':
    'Bitte die Arbeitszeit wählen: ganztags, vormittags, nachmittags oder an bestimmten Wochentagen.',
  'Please send the location as a JSON object.': 'Bitte den Standort als JSON-Objekt senden.',
  'Too many orders from this connection. Please wait a minute and try again.':
    'Zu viele Bestellungen von dieser Verbindung. Bitte eine Minute warten und es dann noch einmal versuchen.',
  'Too many vendor IDs were looked up from this connection. Please wait a minute and try again.':
    'Von dieser Verbindung wurden zu viele Ausweisnummern abgefragt. Bitte eine Minute warten und es dann noch einmal versuchen.',
  'Too many payment confirmations were asked for from this connection. Please wait a minute and try again.':
    'Von dieser Verbindung wurden zu viele Zahlungsbestätigungen abgefragt. Bitte eine Minute warten und es dann noch einmal versuchen.',
  'Please enter a smaller quantity.': 'Bitte gib eine kleinere Menge ein.',
  'Please enter a whole quantity of at least 1.': 'Bitte gib eine ganze Menge von mindestens 1 ein.',
  'Please send each item as { item, quantity }.': 'Bitte jeden Artikel als { item, quantity } senden.',
  'This ID is invalid': 'Diese ID ist ungültig',
  'Please order at most 50 different items at once.': 'Bitte bestelle höchstens 50 verschiedene Artikel auf einmal.',
  'Please send the items as a list.': 'Bitte die Artikel als Liste senden.',
  'Please enter a smaller tip.': 'Bitte gib einen kleineren Betrag ein.',
  'The tip must not be negative.': 'Der Betrag darf nicht negativ sein.',
  "Please enter the tip in the currency's smallest unit (0 or more), for example {minor} for {amount}.":
    'Bitte gib den Betrag in der kleinsten Einheit der Währung ein (0 oder mehr), zum Beispiel {minor} für {amount}.',
  'The return address must not contain a name or password.':
    'Die Rücksprungadresse darf keinen Namen und kein Passwort enthalten.',
  'The return address must be a full web address starting with https:// or http://.':
    'Die Rücksprungadresse muss eine vollständige Webadresse sein, die mit https:// oder http:// beginnt.',
  'The return address is too long; please use one of at most 2000 characters.':
    'Die Rücksprungadresse ist zu lang; bitte höchstens 2000 Zeichen verwenden.',
  'Please choose the language de or en.': 'Bitte die Sprache de oder en wählen.',
  'Please send the order as a JSON object.': 'Bitte die Bestellung als JSON-Objekt senden.',
  'Please choose who bears the chargeback: "vendor" or "newspaper".':
    'Bitte wählen, wer die Rückbuchung trägt: „vendor“ (Verkäuferin oder Verkäufer) oder „newspaper“ (Zeitung).',
  'Card payments are not available right now. Please try again later.':
    'Kartenzahlungen sind gerade nicht möglich. Bitte versuche es später noch einmal.',
  'Please choose at least one item.': 'Bitte wähle mindestens einen Artikel.',
  'Each item can be in the order only once; please change its quantity instead.':
    'Jeder Artikel kann nur einmal in der Bestellung sein; bitte ändere stattdessen die Menge.',
  '"{name}" is not available.': '„{name}“ ist nicht erhältlich.',
  'The item {id} is not available.': 'Der Artikel {id} ist nicht erhältlich.',
  '"{name}" cannot be bought on its own.': '„{name}“ kann nicht allein gekauft werden.',
  'You can order at most {count} × "{name}".': 'Du kannst höchstens {count} × „{name}“ bestellen.',
  'Your item {name} needs an email address': 'Für deinen Artikel {name} brauchen wir eine E-Mail-Adresse',
  'The shop cannot send you back to {origin}: this website is not allowed to embed the shop.':
    'Der Shop kann dich nicht zu {origin} zurückschicken: Diese Website darf den Shop nicht einbetten.',
  'The shop is closed for maintenance right now. Please try again later.':
    'Der Shop ist gerade wegen Wartung geschlossen. Bitte versuche es später noch einmal.',
  'The total of {total} is too high: an order must stay below {maximum}.':
    'Die Summe von {total} ist zu hoch: Eine Bestellung muss unter {maximum} bleiben.',
  'Card payments need a total of at least {minimum}.': 'Kartenzahlungen brauchen eine Summe von mindestens {minimum}.',
  'The link to the pdf is invalid or expired. Please contact the office.':
    'Der Link zum PDF ist ungültig oder abgelaufen. Bitte wende dich an das Büro.',
  'The filter "attention" must be true or false.': 'Der Filter „attention“ muss true oder false sein.',
  'There is no dispute {id}.': 'Es gibt keine Zahlungsanfechtung {id}.',
  'This dispute was already decided: the vendor bears it.':
    'Über diese Zahlungsanfechtung wurde bereits entschieden: Die Verkäuferin oder der Verkäufer trägt sie.',
  'This dispute was already decided: the newspaper bears it.':
    'Über diese Zahlungsanfechtung wurde bereits entschieden: Die Zeitung trägt sie.',
  'Stripe has not taken money for this dispute (yet): nothing to bear.':
    'Stripe hat für diese Zahlungsanfechtung (noch) kein Geld abgebucht: Es gibt nichts zu tragen.',
  'This dispute was won and the money is back: there is nothing to bear.':
    'Diese Zahlungsanfechtung wurde gewonnen und das Geld ist zurück: Es gibt nichts zu tragen.',
  'Only a paid order can be refunded; this one is {status}.':
    'Nur eine bezahlte Bestellung kann erstattet werden; diese hat den Status {status}.',
  'This payment has an open dispute: Stripe refunds no disputed payment, the dispute decides.':
    'Diese Zahlung wird angefochten: Stripe erstattet keine angefochtene Zahlung, die Anfechtung entscheidet.',
  'A refund of {amount} is more than the {open} not yet refunded of this order.':
    'Eine Erstattung von {amount} ist mehr als die {open}, die von dieser Bestellung noch nicht erstattet sind.',
  'The vendor’s credit already gave this sale back (refunded or borne in another dispute): the vendor cannot bear it a second time.':
    'Das Guthaben der Verkäuferin oder des Verkäufers hat diesen Verkauf bereits zurückgegeben (erstattet oder in einer anderen Anfechtung getragen): Ein zweites Mal kann sie oder er ihn nicht tragen.',
  'Stripe refused the refund: {reason}': 'Stripe hat die Erstattung abgelehnt: {reason}',
  'Stripe could not be reached for the refund. Nothing was booked; please try again later.':
    'Stripe war für die Erstattung nicht erreichbar. Es wurde nichts gebucht; bitte später noch einmal versuchen.',
  'There is no order with the id {id}.': 'Es gibt keine Bestellung mit der ID {id}.',
  'Invalid payment confirmation': 'Ungültige Zahlungsbestätigung',
  '"wait" must be a whole number of seconds.': '„wait“ muss eine ganze Zahl von Sekunden sein.',
  'Stripe reported this payment in the other mode (test or live) than the shop’s key; nothing was booked.':
    'Stripe hat diese Zahlung im anderen Modus (Test oder Live) gemeldet als dem des Shop-Schlüssels; es wurde nichts gebucht.',
  'This order never reached Stripe, so there is nothing to ask about.':
    'Diese Bestellung hat Stripe nie erreicht, daher gibt es dort nichts abzufragen.',
  'Stripe could not be asked right now. Please try again later.':
    'Stripe konnte gerade nicht gefragt werden. Bitte später noch einmal versuchen.',
  'There is no such dispute.': 'Diese Zahlungsanfechtung gibt es nicht.',
  'The filter "{name}" must be an id.': 'Der Filter „{name}“ muss eine ID sein.',
  'Please choose one from the list.': 'Bitte einen Eintrag aus der Liste wählen.',
  'The filter "vendor" must be a licence ID.': 'Der Filter „vendor“ muss eine Ausweisnummer sein.',
  'The filter "reversed" must be true or false.': 'Der Filter „reversed“ muss true oder false sein.',
  "Please give the amount you were shown, in the currency's smallest unit.":
    'Bitte den angezeigten Betrag in der kleinsten Einheit der Währung angeben.',
  'Please say why the payout is reversed.': 'Bitte angeben, warum die Auszahlung storniert wird.',
  'Please name one vendor: ?vendor=<licence id>.':
    'Bitte eine Verkäuferin oder einen Verkäufer angeben: ?vendor=<Ausweisnummer>.',
  'Please name one vendor.': 'Bitte eine Verkäuferin oder einen Verkäufer angeben.',
  '"table" must be items or series.': '„table“ muss items oder series sein.',
  'Please choose items or series.': 'Bitte items oder series wählen.',
  'Vendor {vendorId} has no {kind} with the id {id}.':
    'Die Verkäuferin oder der Verkäufer {vendorId} hat keinen Eintrag mit der ID {id}.',
  'Please send the comment as a JSON object.': 'Bitte den Kommentar als JSON-Objekt senden.',
  'Please send the changes as a JSON object.': 'Bitte die Änderungen als JSON-Objekt senden.',
  'Your login is not linked to a vendor. Please ask the office.':
    'Deine Anmeldung ist mit keiner Verkäuferin und keinem Verkäufer verknüpft. Bitte frag im Büro nach.',
  'Your login matches more than one vendor. Please ask the office to correct the e-mail addresses.':
    'Deine Anmeldung passt zu mehr als einer Verkäuferin oder einem Verkäufer. Bitte das Büro, die E-Mail-Adressen zu korrigieren.',
  'Your vendor account is deactivated. Please ask the office.': 'Dein Konto ist deaktiviert. Bitte frag im Büro nach.',
  'The search filter "q" must be text.': 'Der Suchfilter „q“ muss ein Text sein.',
  'The id in the body ({bodyId}) does not match the vendor {id} in the address.':
    'Die ID im Inhalt ({bodyId}) passt nicht zur Verkäuferin oder zum Verkäufer {id} in der Adresse.',
  'Does not match the address.': 'Passt nicht zur Adresse.',
  'Webhooks are not configured.': 'Webhooks sind nicht eingerichtet.',
  'The webhook signature is not valid.': 'Die Webhook-Signatur ist ungültig.',
  'This live mode event does not match the shop’s Stripe key.':
    'Dieses Ereignis aus dem Live-Modus passt nicht zum Stripe-Schlüssel des Shops.',
  'This test mode event does not match the shop’s Stripe key.':
    'Dieses Ereignis aus dem Testmodus passt nicht zum Stripe-Schlüssel des Shops.',
  'Stripe could not be asked about this event; please deliver it again.':
    'Stripe konnte zu diesem Ereignis nicht gefragt werden; bitte erneut zustellen.',
  'The payment of this event is not settled yet; please deliver it again.':
    'Die Zahlung dieses Ereignisses ist noch nicht abgeschlossen; bitte erneut zustellen.',
  'The newspaper of this event is not served now; please deliver it again.':
    'Die Zeitung dieses Ereignisses ist gerade nicht erreichbar; bitte erneut zustellen.',
  // DATEV export and its settings.
  'Please give the adviser number as digits.': 'Bitte die Beraternummer in Ziffern angeben.',
  'Please give the client number as digits.': 'Bitte die Mandantennummer in Ziffern angeben.',
  'Please give the account number as digits.': 'Bitte die Kontonummer in Ziffern angeben.',
  'Please give the first personal account as digits.': 'Bitte das erste Personenkonto in Ziffern angeben.',
  'Please give the adviser number as 4 to 7 digits (1001 to 9999999), or leave it empty.':
    'Bitte die Beraternummer mit 4 bis 7 Ziffern (1001 bis 9999999) angeben oder das Feld leer lassen.',
  'Please give the client number as 1 to 5 digits (1 to 99999), or leave it empty.':
    'Bitte die Mandantennummer mit 1 bis 5 Ziffern (1 bis 99999) angeben oder das Feld leer lassen.',
  'Please choose a month from 1 to 12.': 'Bitte einen Monat von 1 bis 12 wählen.',
  'Please choose a day from 1 to 31.': 'Bitte einen Tag von 1 bis 31 wählen.',
  'Please choose SKR03 or SKR04.': 'Bitte SKR03 oder SKR04 wählen.',
  'Please choose an account length from 4 to 8.': 'Bitte eine Sachkontenlänge von 4 bis 8 wählen.',
  'Please choose collective or personal.': 'Bitte Sammelkonto (collective) oder Personenkonten (personal) wählen.',
  'Please send the account numbers as an object with one number for each kind of account.':
    'Bitte die Kontonummern als Objekt mit einer Nummer je Kontoart senden.',
  'Please give 5 to 9 digits.': 'Bitte 5 bis 9 Ziffern angeben.',
  'Unknown DATEV setting: {keys}.': 'Unbekannte DATEV-Einstellung: {keys}.',
  'Please send the DATEV settings as a JSON object.': 'Bitte die DATEV-Einstellungen als JSON-Objekt senden.',
  'This month does not have this day every year.': 'Diesen Tag hat der Monat nicht in jedem Jahr.',
  'Please give at most {n} digits, as the account length says.':
    'Bitte höchstens {n} Ziffern angeben, wie es die Sachkontenlänge vorgibt.',
  'Each kind of account needs its own number.': 'Jede Kontoart braucht eine eigene Nummer.',
  'Personal accounts have {n} digits: one more than the account length.':
    'Personenkonten haben {n} Stellen: eine mehr als die Sachkontenlänge.',
  'Please choose the first and the last day of the DATEV export.':
    'Bitte den ersten und den letzten Tag des DATEV-Exports wählen.',
  'Please choose a day.': 'Bitte einen Tag wählen.',
  'A DATEV export covers one fiscal year at most; please end it by {day} or export the next fiscal year separately.':
    'Ein DATEV-Export umfasst höchstens ein Wirtschaftsjahr; bitte spätestens am {day} enden lassen oder das nächste Wirtschaftsjahr getrennt exportieren.',
  'Please choose a day up to {day}.': 'Bitte einen Tag bis zum {day} wählen.',
  'The personal account of vendor number {id} would be {account}, longer than {n} digits; please choose a lower first personal account in the DATEV settings.':
    'Das Personenkonto der Verkäuferin oder des Verkäufers Nummer {id} wäre {account} und damit länger als {n} Stellen; bitte in den DATEV-Einstellungen ein niedrigeres erstes Personenkonto wählen.',
  'Please enter the adviser number and the client number in the DATEV settings first.':
    'Bitte zuerst Beraternummer und Mandantennummer in den DATEV-Einstellungen eintragen.',
  'The mode of a DATEV export is "rows" (one line per booking) or "daily" (one line per day and kind).':
    'Ein DATEV-Export hat den Modus „rows“ (eine Zeile je Buchung) oder „daily“ (eine Zeile je Tag und Buchungsart).',
  'Please choose one line per booking or one per day and kind.':
    'Bitte eine Zeile je Buchung oder eine je Tag und Buchungsart wählen.',
  // Webhooks to other systems.
  'Please give the address the events are sent to.':
    'Bitte die Adresse angeben, an die die Ereignisse gesendet werden.',
  'The address is too long.': 'Die Adresse ist zu lang.',
  'The description must be text.': 'Die Beschreibung muss ein Text sein.',
  'At most 500 characters.': 'Höchstens 500 Zeichen.',
  'Please choose among {values}.': 'Bitte unter {values} wählen.',
  'Please choose the events to send.': 'Bitte die Ereignisse wählen, die gesendet werden sollen.',
  'Please choose at least one event.': 'Bitte mindestens ein Ereignis wählen.',
  'Please say whether the endpoint is active.': 'Bitte angeben, ob der Webhook aktiv ist.',
  'Please give a full address such as https://erp.example.org/hooks/shop.':
    'Bitte eine vollständige Adresse angeben, etwa https://erp.example.org/hooks/shop.',
  'The address must start with https://, so the events travel encrypted.':
    'Die Adresse muss mit https:// beginnen, damit die Ereignisse verschlüsselt übertragen werden.',
  'The address must not contain a user name or password; the signature proves the sender.':
    'Die Adresse darf keinen Benutzernamen und kein Passwort enthalten; die Signatur weist den Absender aus.',
  'The address must not contain a fragment (#…).': 'Die Adresse darf keinen Fragmentteil (#…) enthalten.',
  'The address points into a private network; events are only sent to public addresses.':
    'Die Adresse zeigt in ein privates Netz; Ereignisse werden nur an öffentliche Adressen gesendet.',
  'There is no webhook endpoint with the id {id}.': 'Es gibt keinen Webhook mit der ID {id}.',
  'There is no webhook delivery with the id {id}.': 'Es gibt keine Webhook-Zustellung mit der ID {id}.',
  // The shop's cart and payment (the shop says "du").
  'The cart id must be 16 to 64 letters, digits, "-" or "_".':
    'Die Warenkorb-ID muss aus 16 bis 64 Buchstaben, Ziffern, „-“ oder „_“ bestehen.',
  'This cart has already been paid.': 'Dieser Warenkorb ist bereits bezahlt.',
  'This payment has ended. Please tap "Pay" again.':
    'Diese Zahlung ist beendet. Bitte tippe noch einmal auf „Bezahlen“.',
  // Privacy.
  'This vendor cannot be anonymised: the credit is not zero ({credit}). Please pay it out or settle the debt first.':
    'Diese Verkäuferin oder dieser Verkäufer kann nicht anonymisiert werden: Das Guthaben ist nicht null ({credit}). Bitte zuerst auszahlen oder die Schulden begleichen.',
  'This vendor has already been anonymised.': 'Diese Verkäuferin oder dieser Verkäufer ist bereits anonymisiert.',
  // Statements.
  'The format must be json, csv or html.': 'Das Format muss json, csv oder html sein.',
  'The language must be de or en.': 'Die Sprache muss de oder en sein.',
  'Please give the period of the statement as "from" and "to".':
    'Bitte den Zeitraum der Abrechnung mit „from“ und „to“ angeben.',
  'Please give a date like 2026-05-01.': 'Bitte ein Datum wie 2026-05-01 angeben.',
  'Please give the year as four digits, like 2026.': 'Bitte das Jahr vierstellig angeben, etwa 2026.',
  'Please give a year like 2026.': 'Bitte ein Jahr wie 2026 angeben.',
  // Statements of earnings and the benefit scheme.
  'Please give the months of the statement as "from" and "to", like 2026-01.':
    'Bitte die Monate des Nachweises mit „from“ und „to“ angeben, etwa 2026-01.',
  'Please give a month like 2026-01.': 'Bitte einen Monat wie 2026-01 angeben.',
  'A statement of earnings covers at most 24 months.': 'Ein Nachweis der Einnahmen umfasst höchstens 24 Monate.',
  'Please choose a shorter period.': 'Bitte einen kürzeren Zeitraum wählen.',
  'The format must be json or html.': 'Das Format muss json oder html sein.',
  'Each band must end above the one before it.': 'Jede Stufe muss über der vorigen enden.',
  // CSV headers and the labels in their cells.
  Account: 'Konto',
  'Account kind': 'Kontoart',
  Amount: 'Betrag',
  'Authorised by': 'Freigegeben von',
  Balance: 'Bestand',
  Booking: 'Buchung',
  Cash: 'Bar',
  'Closed by': 'Abgeschlossen von',
  'Closing balance': 'Endbestand',
  Copies: 'Exemplare',
  Counted: 'Gezählt',
  Counterpart: 'Gegenseite',
  Credit: 'Guthaben',
  Date: 'Datum',
  Day: 'Tag',
  Deactivated: 'Deaktiviert',
  Difference: 'Differenz',
  'E-mail': 'E-Mail',
  Expected: 'Soll',
  Expense: 'Ausgabe',
  'First name': 'Vorname',
  From: 'Von',
  'From credit': 'Aus Guthaben',
  'From licence': 'Von Lizenz',
  Income: 'Einnahme',
  Incoming: 'Eingänge',
  Item: 'Artikel',
  Kind: 'Art',
  'Last name': 'Nachname',
  Licence: 'Lizenz',
  'Licence ID': 'Lizenznummer',
  Lines: 'Positionen',
  Movement: 'Bewegung',
  'Opening balance': 'Anfangsbestand',
  Order: 'Bestellung',
  Orders: 'Bestellungen',
  Outgoing: 'Ausgänge',
  'Paid out by': 'Ausgezahlt von',
  Payout: 'Auszahlung',
  'Period from': 'Zeitraum ab',
  Quantity: 'Menge',
  Reason: 'Grund',
  'Reversal of': 'Storno von',
  'Reversal reason': 'Stornogrund',
  'Reversed by': 'Storniert von',
  'Reversed on': 'Storniert am',
  'Reversal voucher': 'Stornobeleg',
  'Staff member': 'Mitarbeiter·in',
  Telephone: 'Telefon',
  Till: 'Kasse',
  Time: 'Zeit',
  To: 'An',
  'To licence': 'An Lizenz',
  'Unit price': 'Einzelpreis',
  Vendor: 'Verkäufer·in',
  Voucher: 'Beleg',
  'Voucher number': 'Belegnummer',
  yes: 'ja',
  no: 'nein',
  Bank: 'Bank',
  Other: 'Sonstige',
  'Payout reversal': 'Storno Auszahlung',
  'Cash for copies': 'Barzahlung Exemplare',
  'Bank deposit': 'Einzahlung Bank',
  'Bank withdrawal': 'Abhebung Bank',
  'Till difference': 'Kassendifferenz',
  // The trial balance of the DATEV file.
  'Account name': 'Bezeichnung',
  Debits: 'Soll',
  Credits: 'Haben',
  'Own figure': 'Eigene Zahl',
  'Card payments in transit (Stripe)': 'Kartenzahlungen (Geldtransit Stripe)',
  'Revenue from copies and licences': 'Erlöse aus Exemplaren und Lizenzen',
  'Cash desk': 'Kasse',
  'Card fees borne by the newspaper': 'Kartengebühren, die die Zeitung trägt',
  'Chargebacks borne by the newspaper': 'Chargebacks, die die Zeitung trägt',
  Vendors: 'Verkäuferinnen und Verkäufer',
  'Other cash income': 'Sonstige Bareinnahmen',
  'Other cash expenses': 'Sonstige Barausgaben',
  'Till shortfall': 'Kassenfehlbetrag',
  'Till surplus': 'Kassenüberschuss',
  'Cash rounding': 'Rundungsdifferenz',
  'Stripe could not be asked for its balance transactions. Please try again later.':
    'Stripe konnte nicht nach seinen Saldobewegungen gefragt werden. Bitte später erneut versuchen.',
  'Please compare at most {days} days with Stripe at once.':
    'Bitte höchstens {days} Tage auf einmal mit Stripe abgleichen.',
  'At most {days} days after the first day.': 'Höchstens {days} Tage nach dem ersten Tag.',
  'Please choose the first and the last day to compare with Stripe.':
    'Bitte den ersten und den letzten Tag des Abgleichs mit Stripe wählen.',
  'Card payments': 'Kartenzahlungen',
  'Card fees charged by Stripe': 'Kartengebühren von Stripe',
  'Refunds to customers': 'Erstattungen an Kundschaft',
  'Refunds that failed': 'Gescheiterte Erstattungen',
  'Chargebacks withdrawn': 'Abgebuchte Chargebacks',
  'Chargebacks reinstated': 'Zurückgebuchte Chargebacks',
  'Chargeback fees charged': 'Berechnete Chargeback-Gebühren',
  'Chargeback fees given back': 'Erstattete Chargeback-Gebühren',
  'Payouts to the bank': 'Auszahlungen an die Bank',
  'Payouts that failed': 'Gescheiterte Auszahlungen',
  'Other movements': 'Sonstige Bewegungen',
  'Change of the Stripe balance': 'Veränderung des Stripe-Guthabens',
  Payment: 'Zahlung',
  Refund: 'Erstattung',
  Chargeback: 'Chargeback',
  'Balance transaction': 'Saldobewegung',
  Line: 'Zeile',
  Figure: 'Posten',
  'Stripe object': 'Stripe-Objekt',
  'Object type': 'Objektart',
  Stripe: 'Stripe',
  Books: 'Bücher',
  Total: 'Summe',
  'Live signing needs the signing service’s credentials in the configuration (docs/fiscal.md).':
    'Live-Signieren braucht die Zugangsdaten des Signaturdienstes in der Konfiguration (docs/fiscal.md).',
  'Live needs the signing service’s credentials.': 'Live braucht die Zugangsdaten des Signaturdienstes.',
  'This till does not sign in Austria (RKSV).': 'Diese Kasse signiert nicht nach der österreichischen RKSV.',
  'This till has no cash register at the signature service yet: it gets one with its first receipt.':
    'Diese Kasse hat beim Signaturdienst noch keine Registrierkasse: Sie bekommt sie mit ihrem ersten Beleg.',
  '“{item}” sells at {rate} % VAT, which an Austrian receipt (RKSV) has no slot for ({rates}). Please set the item’s VAT rate to one of them first.':
    '„{item}“ wird mit {rate} % USt verkauft, wofür ein österreichischer Beleg (RKSV) kein Feld hat ({rates}). Bitte zuerst den Steuersatz des Artikels auf einen davon setzen.',
  'Please choose a till: a DEP holds the receipts of one cash register.':
    'Bitte eine Kasse wählen: Ein DEP enthält die Belege einer Registrierkasse.',
  'Taking a till out of signing needs a reason: the end of its TSE’s use must be reported to the tax office.':
    'Eine Kasse aus dem Signieren zu nehmen braucht einen Grund: Das Ende der Nutzung ihrer TSE ist dem Finanzamt zu melden.',
  'Please give the reason for taking the till out of signing.':
    'Bitte den Grund angeben, aus dem die Kasse nicht mehr signiert.',
  'Please enter the country as its three-letter code (ISO 3166), for example DEU.':
    'Bitte das Land mit seinem Code aus drei Buchstaben (ISO 3166) angeben, zum Beispiel DEU.',
  'Please enter the VAT identification number like DE123456789, or leave it empty.':
    'Bitte die USt-IdNr. wie DE123456789 angeben oder das Feld leer lassen.',
  'The DSFinV-K export needs in the settings (Address and tax): {missing}.':
    'Der DSFinV-K-Export braucht in den Einstellungen (Anschrift und Steuer): {missing}.',
  'Country (ISO code)': 'Land (ISO-Code)',
  Postcode: 'Postleitzahl',
  'Street and number': 'Straße und Hausnummer',
  Town: 'Ort',
  'Tax number': 'Steuernummer',
  'VAT identification number': 'Umsatzsteuer-Identifikationsnummer',
  street: 'Straße',
  postcode: 'Postleitzahl',
  town: 'Ort',
  'tax number or VAT identification number': 'Steuernummer oder Umsatzsteuer-Identifikationsnummer',
  'The currency stays {currency}: amounts have been booked in it already (orders, sales or payouts), and they would be read in another currency. A new currency needs a new installation.':
    'Die Währung bleibt {currency}: In ihr sind schon Beträge gebucht (Bestellungen, Verkäufe oder Auszahlungen), die sonst in einer anderen Währung gelesen würden. Eine neue Währung braucht eine neue Installation.',
  'The DATEV file counts in euro only, and this installation keeps its books in {currency}: its amounts would be read as euros.':
    'Die DATEV-Datei rechnet nur in Euro, und diese Installation führt ihre Bücher in {currency}: Ihre Beträge würden als Euro gelesen.',
  'The DSFinV-K of a German tax audit counts in euro only, and this installation keeps its books in {currency}: its amounts would be read as euros.':
    'Die DSFinV-K einer deutschen Kassenprüfung rechnet nur in Euro, und diese Installation führt ihre Bücher in {currency}: Ihre Beträge würden als Euro gelesen.',
  'Money has been booked in {currency} already.': 'In {currency} ist schon Geld gebucht.',
  'Please choose one of the currencies: {values}.': 'Bitte eine der Währungen wählen: {values}.',
  // A list of things named by sentences of their own: "street, postcode".
  '{first}, {next}': '{first}, {next}',
};
