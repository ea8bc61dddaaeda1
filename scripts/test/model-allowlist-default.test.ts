import { describe, expect, it } from 'vitest';
import { OFFICIAL_MODEL_ORIGINS } from '../../services/identity/src/domain/settings/model-endpoint-allowlist.js';
import { SETTING_DEFINITIONS } from '../../services/identity/src/domain/settings/site-settings.js';
import { officialOrigins, PROVIDERS } from '../../services/models/src/domain/catalog/providers.js';

// Identity owns the setting, models owns the catalog, and services never import each other's
// code: this repository-level test is what keeps the shipped allowlist equal to the catalog.
describe('model_endpoint_allowlist default', () => {
  it("equals the models catalog's official origins (20, the decision provider's among them)", () => {
    expect([...OFFICIAL_MODEL_ORIGINS].sort()).toEqual(officialOrigins().sort());
    expect(OFFICIAL_MODEL_ORIGINS).toHaveLength(20);
    expect(SETTING_DEFINITIONS.model_endpoint_allowlist.default).toEqual([...OFFICIAL_MODEL_ORIGINS]);
    const decision = PROVIDERS.find((provider) => provider.is_decision_provider)!;
    expect(OFFICIAL_MODEL_ORIGINS).toContain(new URL(decision.default_base_url!).origin);
  });

  it('every provider default endpoint (general and per type) is covered by the default', () => {
    for (const provider of PROVIDERS) {
      for (const url of [provider.default_base_url, ...Object.values(provider.type_base_urls)]) {
        if (url) expect(OFFICIAL_MODEL_ORIGINS, `${provider.id} ${url}`).toContain(new URL(url).origin);
      }
    }
  });
});
