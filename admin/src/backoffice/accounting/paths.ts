/** The DATEV settings screen's address (the screen itself loads when opened). */
export const datevSettingsPath = '/settings/datev';

/** The trial balance (Summen und Salden); `?from=&to=` opens it on a period. */
export const trialBalancePath = '/trial-balance';
