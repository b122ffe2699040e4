import { fillText } from '../texts.ts';
import { lang } from '../store.ts';

// The texts of the pages after the card page, German and English side by side as in texts.ts, in the
// script of those pages: the first screen of a vendor's shop does not carry them.

export const afterPaymentTexts = {
  waiting: ['Deine Zahlung wird bestätigt …', 'Confirming your payment …'],
  // A no-break space before the dots: they never stand alone on the title's last line.
  receiptComing: ['Dein Beleg kommt gleich\u00a0…', 'Your receipt is coming\u00a0…'],
  chargedConfirming: ['Zahlung eingegangen, wird bestätigt', 'Payment received, being confirmed'],
  secondsLeft: ['Sekunden', 'seconds'],
  secondLeft: ['Sekunde', 'second'],
  showTo: ['Bitte zeige diese Seite {name}', 'Please show this page to {name}'],
  boughtAt: ['Gekauft am {date} um {time}', 'Bought on the {date} at {time}'],
  notConfirmed: ['Deine Zahlung ist noch nicht bestätigt.', 'Your payment is not confirmed yet.'],
  refunded: ['Diese Zahlung wurde erstattet.', 'This payment was refunded.'],
  refundedStatus: ['Erstattet', 'Refunded'],
  refundedAt: ['Erstattet am {date} um {time}', 'Refunded on the {date} at {time}'],
  refundedText: [
    'Das Geld geht auf die Karte zurück, mit der bezahlt wurde.',
    'The money goes back to the card it was paid with.',
  ],
  flagged: ['Deine Zahlung ist eingegangen und wird geprüft.', 'Your payment has arrived and is being checked.'],
  flaggedText: [
    'Die Zeitung meldet sich, falls etwas fehlt. Zeige diese Seite gern vor.',
    'The newspaper gets in touch if anything is missing. Feel free to show this page.',
  ],
  checkAgain: ['Erneut prüfen', 'Check again'],
  failedText: ['Die Zahlung wurde nicht abgeschlossen.', 'The payment was not completed.'],
  tryAgain: ['Erneut versuchen', 'Try again'],
  nothingCharged: ['Es wurde nichts abgebucht.', 'Nothing was charged.'],
  paid: ['Bezahlt', 'Paid'],
  orderNumber: ['Bestellnummer {number}', 'Order number {number}'],
  pdfSent: ['PDF an {email} gesendet', 'PDF sent to {email}'],
  pdfSending: ['PDF wird an {email} gesendet', 'PDF being sent to {email}'],
  pdfHeld: [
    'Die E-Mail an {email} ist noch nicht verschickt – das PDF liegt hier bereit.',
    'The e-mail to {email} has not been sent yet – the PDF is ready here.',
  ],
  pdfNoMail: [
    'Dieser Shop verschickt keine E-Mails, auch nicht an {email} – bitte lade das PDF hier herunter.',
    'This shop sends no e-mails, not to {email} either – please download the PDF here.',
  ],
  receiptSent: ['Beleg an {email} gesendet', 'Receipt sent to {email}'],
  receiptSending: ['Beleg wird an {email} gesendet', 'Receipt being sent to {email}'],
  receiptHeld: [
    'Die E-Mail an {email} ist noch nicht verschickt – der Beleg liegt hier bereit.',
    'The e-mail to {email} has not been sent yet – the receipt is here.',
  ],
  receiptNoMail: [
    'Dieser Shop verschickt keine E-Mails, auch nicht an {email} – bitte bewahre diesen Beleg auf (z. B. als Bildschirmfoto).',
    'This shop sends no e-mails, not to {email} either – please keep this receipt (as a screenshot, for example).',
  ],
  invalidConfirmationText: [
    'Zu dieser Adresse gibt es keine Bestellung – vielleicht ist sie unvollständig. Nach dem Bezahlen öffnet sich deine Bestätigung von selbst.',
    'There is no order at this address – it may be incomplete. After paying, your confirmation opens by itself.',
  ],
} satisfies Record<string, [string, string]>;

export type AfterPaymentKey = keyof typeof afterPaymentTexts;

/** An after-payment text in the shop's language, `{name}` filled from `values`. */
export const ta = (key: AfterPaymentKey, values?: Record<string, string | number>) =>
  fillText(afterPaymentTexts[key][lang.value === 'de' ? 0 : 1], values);
