/** The language of a vendor's page, statements and data export: their record's choice, German by default. */
export const vendorLanguage = (language: string | null | undefined): 'de' | 'en' => (language === 'en' ? 'en' : 'de');
