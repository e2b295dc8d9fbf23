import type { ProviderAvailability } from "../catalog/availability.js";
import type { ModelsListing } from "../catalog/listing.js";
import type { ModelsDevClient } from "../catalog/models-dev-client.js";
import { UserError } from "../kernel/errors.js";
import { modelsDevClientFor, openBootLocation } from "./open-catalog.js";
import type { Boot } from "./start.js";

/** The catalog as `bosun models --all --json` lists it (every provider, available or not), and each provider's availability. */
export interface CatalogView {
  listing: ModelsListing;
  availability: ReadonlyMap<string, ProviderAvailability>;
  source: string;
}

/**
 * Reads the catalog for `cwd` (models.dev's list as `modelsDev` has it, bosun.json's providers and
 * plugins, the policy, the stored keys) into a listing: what `catalog_search` and the dashboard's
 * catalog search. The location is closed before it returns.
 */
export async function readCatalogView(boot: Boot, cwd: string, modelsDev: ModelsDevClient = modelsDevClientFor(boot, boot.log)): Promise<CatalogView> {
  const [{ listModels }, { providerAvailability }] = await Promise.all([import("../catalog/listing.js"), import("../catalog/availability.js")]);
  const location = await openBootLocation(boot, modelsDev, boot.log, cwd);
  try {
    await location.settled(15_000);
    // Without the stored keys the providers they serve would look unavailable.
    const authProblem = location.authStoreProblem();
    if (authProblem) throw new UserError(authProblem);
    const reader = location.catalog.read();
    const listing = listModels(reader, modelsDev.current().source, { all: true });
    return { listing, availability: new Map(listing.providers.map((provider) => [provider.id, providerAvailability(reader, provider.id)])), source: modelsDev.current().source };
  } finally {
    await location.close();
  }
}

/** The listing with only `provider`'s models (every provider's when absent); an unknown one is a `UserError` saying `without`. */
export function onlyProvider(view: CatalogView, provider: string | undefined, without: string): ModelsListing {
  if (provider === undefined) return view.listing;
  if (!view.listing.providers.some((entry) => entry.id === provider)) throw new UserError(`unknown provider ${JSON.stringify(provider.slice(0, 60))}; ${without}`);
  return { ...view.listing, providers: view.listing.providers.filter((entry) => entry.id === provider) };
}
