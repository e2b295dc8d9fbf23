import type { CatalogEditor } from "./editor.js";
import type { ModelsDevCost, ModelsDevData, ModelsDevModel, ModelsDevProvider } from "./models-dev-data.js";
import type { CostEntry, Json, ModelApi, ModelRecord, ModelStatus, ProviderApi } from "./records.js";

const STATUSES = new Set<string>(["alpha", "beta", "deprecated", "active"]);
const LEGACY_TIER_SIZE = 200_000;

/**
 * Writes models.dev data into the catalog being built: one provider per entry (its AI SDK
 * package and base URL, its key variables) and one model per model, plus one extra model per
 * experimental mode (`<id>-<mode>`, e.g. a faster serving tier). Runs on every rebuild, so each
 * record is built in one go.
 */
export function applyModelsDev(editor: CatalogEditor, data: ModelsDevData): void {
  const dates = new Map<string, number>();
  for (const providerID in data) {
    const source = data[providerID]!;
    editor.provider.update(providerID, (provider) => {
      provider.name = text(source.name) ?? providerID;
      provider.env = strings(source.env);
      provider.api = providerApi(source);
    });
    const models = source.models;
    for (const modelID in models) {
      const model = models[modelID];
      if (typeof model !== "object" || model === null) continue;
      editor.model.set(providerID, buildModel(providerID, modelID, model, source, dates));
      const modes = model.experimental?.modes;
      if (typeof modes !== "object" || modes === null) continue;
      for (const mode in modes) {
        const settings = modes[mode];
        const record = buildModel(providerID, `${modelID}-${mode}`, model, source, dates);
        record.api.id = modelID;
        record.name = `${record.name} ${mode.charAt(0).toUpperCase()}${mode.slice(1)}`;
        record.cost = mergeModeCost(record.cost, settings?.cost);
        Object.assign(record.request.headers, copyObject(settings?.provider?.headers ?? {}));
        Object.assign(record.request.body, copyObject((settings?.provider?.body ?? {}) as Record<string, Json>));
        editor.model.set(providerID, record);
      }
    }
  }
}

function providerApi(source: ModelsDevProvider): ProviderApi {
  const url = text(source.api);
  const npm = text(source.npm);
  const api: ProviderApi = npm ? { type: "aisdk", package: npm } : { type: "native", settings: {} };
  if (url) api.url = url;
  return api;
}

function buildModel(providerID: string, id: string, model: ModelsDevModel, provider: ModelsDevProvider, dates: Map<string, number>): ModelRecord {
  const limit = model.limit;
  const serving = model.provider;
  const record: ModelRecord = {
    id,
    providerID,
    name: text(model.name) ?? id,
    api: modelApi(id, model, provider),
    capabilities: {
      tools: model.tool_call === true,
      reasoning: model.reasoning === true,
      input: strings(model.modalities?.input),
      output: strings(model.modalities?.output),
    },
    request: {
      headers: serving?.headers ? copyObject(serving.headers) : {},
      body: serving?.body ? copyObject(serving.body as Record<string, Json>) : {},
    },
    variants: [],
    time: { released: releaseTime(model.release_date, dates) },
    cost: costList(model.cost),
    status: typeof model.status === "string" && STATUSES.has(model.status) ? (model.status as ModelStatus) : "active",
    enabled: true,
    limit: typeof limit?.input === "number" ? { context: count(limit.context), input: limit.input, output: count(limit.output) } : { context: count(limit?.context), output: count(limit?.output) },
  };
  const family = text(model.family);
  if (family) record.family = family;
  return record;
}

// Thousands of models share a few hundred release dates; parsing each once keeps rebuilds fast.
function releaseTime(date: unknown, dates: Map<string, number>): number {
  if (typeof date !== "string") return 0;
  let time = dates.get(date);
  if (time === undefined) {
    const parsed = Date.parse(date);
    time = Number.isNaN(parsed) ? 0 : parsed;
    dates.set(date, time);
  }
  return time;
}

/**
 * A model served differently from its provider (its own package or URL) gets an endpoint of its
 * own; otherwise it keeps the empty native endpoint and inherits the provider's when read.
 */
function modelApi(id: string, model: ModelsDevModel, provider: ModelsDevProvider): ModelApi {
  const npm = text(model.provider?.npm);
  const url = text(model.provider?.api);
  const providerNpm = text(provider.npm);
  if (npm || (url && providerNpm)) {
    const api: ModelApi = { id, type: "aisdk", package: (npm ?? providerNpm)! };
    if (url) api.url = url;
    return api;
  }
  const api: ModelApi = { id, type: "native", settings: {} };
  if (url) api.url = url;
  return api;
}

/**
 * Base price, then one entry per context tier. models.dev also repeats a single tier of 200k or
 * more as `context_over_200k`; that copy is used only when no tier list is given, so a price is
 * never listed twice.
 */
function costList(cost: ModelsDevModel["cost"]): CostEntry[] {
  if (typeof cost !== "object" || cost === null) return [];
  const list: CostEntry[] = [price(cost, undefined)];
  const tiers = cost.tiers;
  if (Array.isArray(tiers)) {
    for (const tier of tiers) {
      const size = tier?.tier?.size;
      if (typeof size === "number") list.push(price(tier, size));
    }
  }
  if (!Array.isArray(tiers) || tiers.length === 0) {
    const over = cost.context_over_200k;
    if (typeof over === "object" && over !== null) list.push(price(over, LEGACY_TIER_SIZE));
  }
  return list;
}

/**
 * A mode's prices over its model's: each field the mode names, and its tiers by size. `base` was
 * built for this one record, so it is edited in place.
 */
function mergeModeCost(base: CostEntry[], mode: ModelsDevModel["cost"] | undefined): CostEntry[] {
  if (typeof mode !== "object" || mode === null) return base;
  const own = costList(mode);
  const modeBase = own[0];
  if (modeBase) {
    const first = base[0] ?? modeBase;
    base[0] = costEntry(
      typeof mode.input === "number" ? modeBase.input : first.input,
      typeof mode.output === "number" ? modeBase.output : first.output,
      typeof mode.cache_read === "number" ? modeBase.cache.read : first.cache.read,
      typeof mode.cache_write === "number" ? modeBase.cache.write : first.cache.write,
      undefined,
    );
  }
  for (let i = 1; i < own.length; i++) {
    const tier = own[i]!;
    const index = base.findIndex((entry) => entry.tier?.size === tier.tier?.size);
    if (index >= 0) base[index] = tier;
    else base.push(tier);
  }
  return base;
}

function price(cost: ModelsDevCost, tierSize: number | undefined): CostEntry {
  return costEntry(count(cost.input), count(cost.output), count(cost.cache_read), count(cost.cache_write), tierSize);
}

/**
 * Every price entry is made here, the tier added to the base shape, so that all entries share one
 * layout of their numbers: the diff after each rebuild then reads them in place (over mixed
 * layouts it boxes every number it reads).
 */
function costEntry(input: number, output: number, read: number, write: number, tierSize: number | undefined): CostEntry {
  const entry: CostEntry = { input, output, cache: { read, write } };
  if (tierSize !== undefined) entry.tier = { type: "context", size: tierSize };
  return entry;
}

/**
 * A copy of a JSON object from the data that shares nothing with it, so that a transform editing
 * a record (a nested body value included) can never edit the data the next rebuild reads. Its
 * values are mostly strings, which need no copying.
 */
function copyObject<T extends Record<string, unknown>>(value: T): T {
  const copy = { ...value };
  for (const key in copy) {
    const item = copy[key];
    if (typeof item === "object" && item !== null) copy[key] = structuredClone(item);
  }
  return copy;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  for (const item of value) if (typeof item !== "string") return value.filter((entry): entry is string => typeof entry === "string");
  return value.slice();
}
