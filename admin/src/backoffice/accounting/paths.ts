/** The DATEV settings screen's address (the screen itself loads when opened). */
export const datevSettingsPath = '/settings/datev';
