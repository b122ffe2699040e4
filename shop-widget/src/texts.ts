import type { Lang } from './money.ts';

// Every text of the shop in German and English, side by side so neither can be forgotten.
// `{name}` marks a value filled in by `fill`.

export const texts = {
  language: ['Sprache', 'Language'],
  loading: ['Lädt …', 'Loading …'],
  connectionLost: [
    'Die Verbindung zum Server ist unterbrochen – wir versuchen es weiter …',
    'The connection to the server is interrupted – we keep trying …',
  ],
  next: ['Weiter', 'Next'],
  back: ['Zurück', 'Back'],
  buyFrom: ['Kaufe eine Zeitung bei {name}', 'Buy a newspaper from {name}'],
  accountProof: ['Ausweis von {name} prüfen', 'Check the vendor ID of {name}'],
  otherProducts: ['Andere Produkte', 'Other products'],
  printOrDigital: ['Gedruckt oder digital?', 'Print or digital?'],
  cartEmpty: ['Dein Warenkorb ist leer.', 'Your cart is empty.'],
  shopTitle: ['Produkte', 'Products'],
  one: ['{name}: eins weniger', 'One {name} less'],
  more: ['{name}: eins mehr', 'One {name} more'],
  quantity: ['Anzahl {name}', 'Quantity of {name}'],
  details: ['Details zu {name}', 'Details of {name}'],
  askVendor: [
    'Frag deine Verkäuferin oder deinen Verkäufer, ob es dieses Produkt gerade gibt.',
    'Ask your vendor if they have this product available',
  ],
  toShop: ['Zu den Produkten', 'To the products'],
  itemUnknown: ['Dieses Produkt gibt es hier nicht.', 'This item is not sold here.'],
  print: ['Gedruckt', 'Print'],
  digital: ['Digital (E-Paper)', 'Digital (e-paper)'],
  difference: ['Was ist der Unterschied?', 'What is the difference?'],
  infoTitle: ['Gedruckt oder E-Paper', 'Print or e-paper'],
  infoPrint: [
    'Die gedruckte Ausgabe bekommst du sofort von deiner Verkäuferin oder deinem Verkäufer.',
    'You get the printed issue from your vendor right away.',
  ],
  infoDigital: [
    'Das E-Paper bekommst du als PDF per E-Mail und zum Herunterladen auf deiner Bestätigung.',
    'The e-paper comes as a PDF by e-mail and as a download on your receipt.',
  ],
  infoBoth: ['Deine Verkäuferin oder dein Verkäufer verdient an beiden.', 'Your vendor earns from both.'],
  tipTitle: ['Möchtest du ein Trinkgeld geben?', 'Would you like to give a tip?'],
  donationTitle: ['Möchtest du etwas spenden?', 'Would you like to make a donation?'],
  tip: ['Trinkgeld', 'Tip'],
  donation: ['Spende', 'Donation'],
  otherAmount: ['Anderer Betrag', 'Other amount'],
  notToday: ['Heute nicht', 'Not today'],
  customTipTitle: ['Wie viel möchtest du geben?', 'How much would you like to give?'],
  amountLabel: ['Betrag in {currency}', 'Amount in {currency}'],
  amountHint: ['zum Beispiel {example}', 'for example {example}'],
  moneyEmpty: ['Bitte gib einen Betrag ein.', 'Please enter an amount.'],
  moneyInvalid: ['Bitte gib einen Betrag wie {example} ein.', 'Please enter an amount like {example}.'],
  moneyNegative: ['Der Betrag darf nicht negativ sein.', 'The amount must not be negative.'],
  moneyCents: [
    'Bitte gib den Betrag mit höchstens {digits} Nachkommastellen ein.',
    'Please enter the amount with at most {digits} decimals.',
  ],
  moneyTooHigh: [
    'Höchstens {max}: eine Bestellung muss unter {limit} bleiben.',
    'At most {max}: an order must stay below {limit}.',
  ],
  orderTitle: ['Deine Bestellung', 'Your order'],
  total: ['Summe', 'Total'],
  progress: ['Schritt {step} von {of}', 'Step {step} of {of}'],
  soFar: ['Bisher {amount}', 'So far {amount}'],
  includesTip: ['inkl. {amount} Trinkgeld', 'includes {amount} tip'],
  includesDonation: ['inkl. {amount} Spende', 'includes {amount} donation'],
  termsBefore: ['Mit diesem Kauf akzeptiere ich die ', 'With this purchase I accept the '],
  terms: ['AGB', 'terms'],
  termsNeeded: ['Bitte akzeptiere die AGB, um zu bezahlen.', 'Please accept the terms to pay.'],
  pay: ['Bezahlen', 'Pay'],
  paying: ['Einen Moment …', 'One moment …'],
  donationOnly: [
    'Eine Spende allein ist nicht möglich – bitte wähle auch eine Zeitung.',
    'A donation alone is not possible – please choose a newspaper too.',
  ],
  tooHigh: [
    'Die Summe von {total} ist zu hoch: eine Bestellung muss unter {max} bleiben.',
    'The total of {total} is too high: an order must stay below {max}.',
  ],
  needsEmail: ['Dein Produkt {name} braucht eine E-Mail-Adresse', 'Your item {name} needs an email address'],
  emailLabel: ['E-Mail-Adresse', 'Email address'],
  invalidEmail: ['Bitte gib eine gültige E-Mail-Adresse ein.', 'Please enter a valid email address.'],
  forEmail: ['für {email}', 'for {email}'],
  receiptEmailLabel: ['Beleg per E-Mail (optional)', 'Receipt by e-mail (optional)'],
  receiptEmailHint: [
    'Nach dem Bezahlen schicken wir dir den Beleg; die Adresse dient nur dazu.',
    'After paying we send you the receipt; the address serves only that.',
  ],
  change: ['ändern', 'change'],
  toPayment: ['Du wirst zur sicheren Kartenzahlung weitergeleitet …', 'Taking you to the secure card payment …'],
  continuePayment: ['Weiter zur Zahlung', 'Continue to payment'],
  backToOrder: ['Zurück zur Bestellung', 'Back to the order'],
  download: ['{name} herunterladen', 'Download {name}'],
  invalidConfirmation: ['Ungültige Zahlungsbestätigung', 'Invalid payment confirmation'],
  failed: ['Transaktion fehlgeschlagen', 'Transaction failed'],
  invalidId: ['Die gescannte ID ist nicht gültig', 'This ID is invalid'],
  goToVendor: ['Bitte gehe zu einer Verkäuferin oder einem Verkäufer', 'Please go to a vendor'],
  findVendor: ['Verkäuferin oder Verkäufer finden', 'Find a vendor'],
  pdfTitle: ['Viel Spaß beim Lesen!', 'Have fun reading!'],
  pdfInvalid: [
    'Der Link zum PDF ist ungültig oder abgelaufen. Bitte wende dich an das Büro.',
    'The link to the pdf is invalid or expired. Please contact the office.',
  ],
  maintenance: ['Diese Seite wird gerade gewartet...', 'This page is currently under maintenance...'],
  learnMore: ['Mehr erfahren', 'Learn more'],
  errorTitle: ['Fehler', 'Error'],
  errorText: [
    'Upsi, es ist ein Fehler aufgetreten. Bitte versuche es erneut.',
    'An error occurred. Please try again later.',
  ],
  invalidLinkTitle: ['Ungültiger Link', 'Invalid link'],
  invalidLinkText: [
    'Etwas ist schiefgelaufen, bitte versuche es erneut oder wende dich an das Büro.',
    'Something went wrong please try it again or contact the office.',
  ],
  notFound: ['Seite nicht gefunden', 'Page not found'],
  buyingFrom: ['Du kaufst bei {name}', 'You are buying from {name}'],
  removeItem: ['{name} entfernen', 'Remove {name}'],
  quantityAtLimit: ['Höchstens {max} × {name} pro Bestellung.', 'At most {max} × {name} per order.'],
  noOrderTitle: ['Keine Bestellung angegeben', 'No order given'],
  noOrderText: [
    'Diese Adresse nennt keine Bestellung. Deine Bestätigung öffnet sich nach dem Bezahlen.',
    'This address names no order. Your confirmation opens after paying.',
  ],
  noPayment: ['Gerade ist keine Zahlung offen', 'No payment is in progress'],
  toReceipt: ['Zur Zahlungsbestätigung', 'To the payment confirmation'],
  backToShop: ['Zurück zum Shop', 'Back to the shop'],
  backToVendorShop: ['Zurück zum Shop von {name}', 'Back to {name}’s shop'],
  howToGoOn: [
    'Scanne den QR-Code auf dem Ausweis einer Verkäuferin oder eines Verkäufers, um dort einzukaufen.',
    'Scan the QR code on a vendor’s badge to buy from them.',
  ],
} satisfies Record<string, [string, string]>;

export type TextKey = keyof typeof texts;

/** `text` with each `{name}` filled from `values`. */
export const fillText = (text: string, values: Record<string, string | number> = {}): string =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

export function fill(key: TextKey, lang: Lang, values: Record<string, string | number> = {}): string {
  return fillText(texts[key][lang === 'de' ? 0 : 1], values);
}

/** The language a first visit gets: the browser's first that we speak, else German. */
export function pickLanguage(stored: string | null, preferred: readonly string[]): Lang {
  if (stored === 'de' || stored === 'en') return stored;
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'de' || primary === 'en') return primary;
  }
  return 'de';
}
