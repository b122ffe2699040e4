// How erased data reads wherever it is shown: the protocol, the books' lists and the privacy
// routes name an anonymised vendor or an erased value alike, without leaning on the code that erases.

/**
 * The name an anonymised vendor's bookings stay under: German in the database (the office's
 * language, where the row needs a first name), each screen names it in its own language.
 */
export const pseudonym = (vendorId: number) => `Gelöscht #${vendorId}`;

/** An anonymised vendor as a list or CSV file in `language` names them: "Gelöscht #17" or "Deleted #17". */
export const pseudonymIn = (stored: string, language: 'de' | 'en') =>
  language === 'en' ? stored.replace(/^Gelöscht/, 'Deleted') : stored;

/** What an erased value reads as wherever a copy of it was kept (the protocol, Stripe's objects). */
export const ERASED = '[erased]';
