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
} satisfies Record<string, [string, string]>;

export type AfterPaymentKey = keyof typeof afterPaymentTexts;

/** An after-payment text in the shop's language, `{name}` filled from `values`. */
export const ta = (key: AfterPaymentKey, values?: Record<string, string | number>) =>
  fillText(afterPaymentTexts[key][lang.value === 'de' ? 0 : 1], values);
