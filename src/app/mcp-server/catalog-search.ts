import type { ProviderAvailability } from "../../catalog/availability.js";
import type { ListedModel, ModelsListing } from "../../catalog/listing.js";

/** One model a search found: the listing's fields, with its provider, whether it can be used and why. */
export interface FoundModel extends ListedModel {
  provider: string;
  providerName: string;
  available: boolean;
  /** Where the key comes from, or what would make the provider available (variable names and commands only). */
  why: string;
}

export interface SearchOptions {
  /** Words that must all appear in the provider's or the model's id or name (any case); all models when absent. */
  query?: string;
  limit: number;
  /** Leave out the models of providers that are not available. */
  availableOnly?: boolean;
}

export interface ModelSearch {
  query: string | null;
  /** How many models matched, before the limit. */
  matched: number;
  /** The first `limit` of them: available providers' first, each group in catalog order (providers as listed, models newest first). */
  models: FoundModel[];
  truncated: boolean;
}

/**
 * Searches a catalog listing (`bosun models --all`'s, or one provider's). Pure: the listing and
 * each provider's availability are given.
 */
export function searchModels(listing: ModelsListing, availability: (providerID: string) => ProviderAvailability, options: SearchOptions): ModelSearch {
  const words = (options.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const found: FoundModel[] = [];
  for (const provider of listing.providers) {
    const { available, why } = availability(provider.id);
    if (options.availableOnly && !available) continue;
    for (const model of provider.models) {
      const haystack = `${provider.id} ${provider.name} ${model.id} ${model.name} ${provider.id}/${model.id}`.toLowerCase();
      if (words.every((word) => haystack.includes(word))) found.push({ provider: provider.id, providerName: provider.name, ...model, available, why });
    }
  }
  // A stable sort: the catalog's order within each group.
  const ordered = [...found.filter((model) => model.available), ...found.filter((model) => !model.available)];
  return { query: words.length > 0 ? words.join(" ") : null, matched: ordered.length, models: ordered.slice(0, options.limit), truncated: ordered.length > options.limit };
}
