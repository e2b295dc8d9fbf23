import type { CatalogModel } from "./projection.js";
import type { CatalogReader } from "./reader.js";
import type { ModelRef } from "./records.js";
import type { ModelsSource } from "./models-dev-client.js";

/** `bosun models --json`: a stable shape. */
export interface ModelsListing {
  source: ModelsSource;
  providers: ListedProvider[];
  default: ModelRef | null;
}

export interface ListedProvider {
  id: string;
  name: string;
  available: boolean;
  models: ListedModel[];
}

export interface ListedModel {
  id: string;
  name: string;
  /** Tokens; null when unknown. */
  contextLimit: number | null;
  outputLimit: number | null;
  toolCall: boolean;
  reasoning: boolean;
  /** USD per million tokens (base price); null when unknown. */
  cost: { input: number | null; output: number | null };
}

export interface ListingOptions {
  /** Only this provider (listed even when unavailable). */
  provider?: string;
  /** Include unavailable providers (marked `available: false`). */
  all?: boolean;
}

/**
 * The catalog as `bosun models` shows it: providers in catalog order, each with its switched-on
 * models newest first. By default only available providers are listed.
 */
export function listModels(reader: CatalogReader, source: ModelsSource, options: ListingOptions = {}): ModelsListing {
  const byProvider = new Map<string, CatalogModel[]>();
  for (const model of reader.model.all()) {
    if (!model.enabled) continue;
    const list = byProvider.get(model.providerID) ?? [];
    list.push(model);
    byProvider.set(model.providerID, list);
  }
  const providers: ListedProvider[] = [];
  for (const provider of reader.provider.all()) {
    if (options.provider !== undefined && provider.id !== options.provider) continue;
    const available = reader.isAvailable(provider.id);
    if (!available && !options.all && options.provider === undefined) continue;
    providers.push({ id: provider.id, name: provider.name, available, models: (byProvider.get(provider.id) ?? []).map(listedModel) });
  }
  const fallback = reader.model.default();
  return { source, providers, default: fallback ? { providerID: fallback.providerID, modelID: fallback.id } : null };
}

function listedModel(model: CatalogModel): ListedModel {
  const base = model.cost[0];
  return {
    id: model.id,
    name: model.name,
    contextLimit: model.limit.context > 0 ? model.limit.context : null,
    outputLimit: model.limit.output > 0 ? model.limit.output : null,
    toolCall: model.capabilities.tools,
    reasoning: model.capabilities.reasoning,
    cost: { input: base ? base.input : null, output: base ? base.output : null },
  };
}
