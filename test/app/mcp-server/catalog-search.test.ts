import { describe, expect, it } from "vitest";
import type { ModelsListing } from "../../../src/catalog/listing.js";
import { searchModels } from "../../../src/app/mcp-server/catalog-search.js";

const model = (id: string, name = id) => ({ id, name, contextLimit: 100_000, outputLimit: 8_000, toolCall: true, reasoning: false, cost: { input: 1, output: 2 } });
const listing: ModelsListing = {
  source: "cache",
  default: { providerID: "beta", modelID: "beta-mini" },
  providers: [
    { id: "alpha", name: "Alpha Labs", available: false, models: [model("alpha-large", "Alpha Large"), model("alpha-mini", "Alpha Mini")] },
    { id: "beta", name: "Beta", available: true, models: [model("beta-mini", "Beta Mini"), model("beta-pro")] },
  ],
};
const availability = (id: string) => (id === "beta" ? { available: true, why: "key from BETA_API_KEY" } : { available: false, why: "not available: set ALPHA_API_KEY, or run bosun auth set alpha" });

describe("catalog search", () => {
  it("finds models by every word of the query in provider and model ids and names, any case, available providers first", () => {
    const found = searchModels(listing, availability, { query: "MINI", limit: 10 });
    expect(found.models.map((m) => `${m.provider}/${m.id} ${m.available} ${m.why}`)).toEqual([
      "beta/beta-mini true key from BETA_API_KEY",
      "alpha/alpha-mini false not available: set ALPHA_API_KEY, or run bosun auth set alpha",
    ]);
    expect(found).toMatchObject({ query: "mini", matched: 2, truncated: false });
    expect(searchModels(listing, availability, { query: "labs large", limit: 10 }).models.map((m) => m.id)).toEqual(["alpha-large"]);
    expect(searchModels(listing, availability, { query: "beta/beta-pro", limit: 10 }).models.map((m) => m.id)).toEqual(["beta-pro"]);
    expect(searchModels(listing, availability, { query: "gamma", limit: 10 })).toEqual({ query: "gamma", matched: 0, models: [], truncated: false });
  });

  it("keeps the listing's fields, cuts at the limit, and can leave out unavailable providers", () => {
    const all = searchModels(listing, availability, { query: "  ", limit: 3 });
    expect(all).toMatchObject({ query: null, matched: 4, truncated: true });
    expect(all.models.map((m) => m.id)).toEqual(["beta-mini", "beta-pro", "alpha-large"]);
    expect(all.models[0]).toEqual({ provider: "beta", providerName: "Beta", ...model("beta-mini", "Beta Mini"), available: true, why: "key from BETA_API_KEY" });
    expect(searchModels(listing, availability, { limit: 10, availableOnly: true }).models.map((m) => m.provider)).toEqual(["beta", "beta"]);
  });
});
