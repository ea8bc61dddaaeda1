/** Languages the API localizes `msg` into. `en` is the default and the fallback. */
export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** One text per supported language. `zh` is Simplified Chinese. */
export type Translations = Readonly<Record<Locale, string>>;

/** `data` of an error envelope: an object (e.g. `{errors}`, `{lockout_seconds}`) or null. */
export type ErrorData = Record<string, unknown> | null;
