/**
 * The site settings as identity's GetEffectiveSettings gives them (secrets decrypted). In
 * production this is `@platform/settings-client` (cached, dropped on `settings.changed`).
 */
export interface SettingsSource {
  get(): Promise<Readonly<Record<string, unknown>>>;
}
