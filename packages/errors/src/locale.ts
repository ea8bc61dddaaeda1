import { MESSAGES, isMsgKey } from './messages.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './types.js';

export { DEFAULT_LOCALE, LOCALES, type Locale } from './types.js';

/** True when `value` is exactly one of the supported locales (`'en'`, `'zh'`). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Maps one language tag to a supported locale, or undefined when unsupported.
 * Case-insensitive, `_` accepted for `-`: `zh`, `zh-CN`, `zh-Hans`, `zh-TW`, `zh_CN` → `zh`;
 * `en`, `en-US` → `en`. Useful for a stored user `locale` too.
 */
export function toLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const primary = tag.trim().toLowerCase().replace(/_/g, '-').split('-')[0];
  return isLocale(primary) ? primary : undefined;
}

/**
 * Picks the response locale from an `Accept-Language` header (RFC 9110): ranges are ordered by
 * q-value (default 1; equal q keeps header order), `q=0` or a malformed q excludes a range, and the
 * first supported range wins. `*`, no header or nothing supported → `en`.
 * Accepts Express/Node header values (`string | string[] | undefined`).
 */
export function negotiateLocale(header: string | readonly string[] | null | undefined): Locale {
  const raw = typeof header === 'string' ? header : Array.isArray(header) ? header.join(',') : '';
  const ranges: { tag: string; q: number; index: number }[] = [];
  raw.split(',').forEach((part, index) => {
    const [tagPart, ...params] = part.split(';');
    const tag = tagPart?.trim() ?? '';
    if (tag === '') return;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*(.*?)\s*$/i.exec(param);
      if (!match) continue;
      const value = match[1] ? Number(match[1]) : Number.NaN;
      q = value >= 0 && value <= 1 ? value : 0;
    }
    if (q > 0) ranges.push({ tag, q, index });
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    if (tag === '*') return DEFAULT_LOCALE;
    const locale = toLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/**
 * Replaces `{name}` with `params[name]` when that is a string, number, boolean or bigint; other
 * placeholders stay as written (a missing value is visible rather than silently blank).
 */
export function interpolate(text: string, params?: Readonly<Record<string, unknown>> | null): string {
  if (!params) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const value = params[name];
    const kind = typeof value;
    return kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'bigint'
      ? String(value)
      : whole;
  });
}

/**
 * The text of `msgKey` in `locale`, falling back to `en` and then to the key itself, with
 * `{placeholders}` filled from `params` (typically the error's `data`).
 */
export function translate(
  msgKey: string,
  locale: Locale,
  params?: Readonly<Record<string, unknown>> | null,
): string {
  const texts = isMsgKey(msgKey) ? MESSAGES[msgKey] : undefined;
  const text = texts?.[locale] || texts?.[DEFAULT_LOCALE] || msgKey;
  return interpolate(text, params);
}
