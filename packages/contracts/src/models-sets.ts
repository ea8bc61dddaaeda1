import { ModelProvider, ModelType } from './gen/platform/models/v1/models.js';
import { enumSet } from './enum-set.js';

/**
 * The models API's closed sets (models.proto) and field rules, each written once: the gateway's
 * request schemas and the OpenAPI document are built from them, the models service's catalog and
 * its checks for callers that skip the gateway use the same tables.
 */
export const MODEL_TYPES = enumSet(ModelType, 'MODEL_TYPE_');
export type ModelTypeName = (typeof MODEL_TYPES.names)[number];

/** The 23 provider ids of the catalog (its data: services/models/src/domain/catalog/providers.ts). */
export const MODEL_PROVIDERS = enumSet(ModelProvider, 'MODEL_PROVIDER_');
export type ModelProviderName = (typeof MODEL_PROVIDERS.names)[number];

/** The bounds of a model definition's fields (spec "Model definition"). */
export const MODEL_FIELD_RULES = {
  nameMaxLength: 100,
  modelIdMaxLength: 100,
  displayNameMaxLength: 100,
  baseUrlMaxLength: 512,
  apiKeyMaxLength: 4096,
  /** Largest price: 9 integer digits and 6 decimals = 15 significant digits, exact in a double. */
  maxPrice: 999_999_999.999999,
  priceDecimals: 6,
  int32Max: 2_147_483_647,
} as const;

/** Decimal places of a number as JSON wrote it (`1e-7` → 7, `0.25` → 2). */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** An absolute http(s) URL with a host: what a model's `base_url` must be. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^/?#\s]+/i.test(value) && URL.canParse(value);
}

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';

/**
 * `isHttpUrl` as the JSON Schema pattern the OpenAPI document carries: a lower-case scheme, a DNS
 * name (its last label starting with a letter) or a dotted IPv4 address, an optional port, then
 * any path without whitespace or NUL. A pattern cannot parse a URL, so it names the part every
 * value it admits parses; the function also takes what this leaves out (an upper-case scheme, an
 * IPv6 literal), so the document is never looser than the check.
 */
export const HTTP_URL_PATTERN = `^https?://(?:(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|(?:${OCTET}\\.){3}${OCTET})(?::${PORT})?(?:[/?#][^\\s\\u0000]*)?$`;
