import { isProviderAvailable } from "./projection.js";
import { formatModelRef, type CatalogValue, type CostEntry, type CredentialIndex, type ModelApi, type ModelRecord, type ModelRef } from "./records.js";

/** How many ids each list of a diff names at most; the counts are always complete. */
export const DIFF_LIST_LIMIT = 20;

interface Changes {
  added: string[];
  removed: string[];
  changed: string[];
  counts: { added: number; removed: number; changed: number };
}

/**
 * What a rebuild changed, small enough to log or send: provider ids, and `provider/model` ids
 * (lists capped at `DIFF_LIST_LIMIT`, counts complete; the models of an added or removed
 * provider count as added or removed).
 */
export interface CatalogDiff {
  providers: Changes;
  models: Changes;
  /** Present when the configured default changed. */
  defaultModel?: { before: ModelRef | null; after: ModelRef | null };
  /** True when the set of known credentials changed (providers whose availability flipped are listed as changed). */
  credentials?: true;
}

/** The difference between two committed values, or null when they are equal. */
export function diffCatalogs(before: CatalogValue, after: CatalogValue): CatalogDiff | null {
  const providers = changes();
  const models = changes();
  const credentialsChanged = !sameCredentials(before.credentials, after.credentials);
  for (const [id, entry] of after.providers) {
    const old = before.providers.get(id);
    if (!old) {
      note(providers, "added", id);
      for (const modelID of entry.models.keys()) note(models, "added", formatModelRef({ providerID: id, modelID }));
      continue;
    }
    if (
      !deepEqual(old.provider, entry.provider) ||
      (credentialsChanged && isProviderAvailable(old.provider, before.credentials) !== isProviderAvailable(entry.provider, after.credentials))
    ) {
      note(providers, "changed", id);
    }
    // forEach allocates nothing per model (an entries loop makes a pair for each).
    let found = 0;
    entry.models.forEach((model, modelID) => {
      const previous = old.models.get(modelID);
      if (!previous) return note(models, "added", formatModelRef({ providerID: id, modelID }));
      found++;
      if (previous !== model && !sameModel(previous, model)) note(models, "changed", formatModelRef({ providerID: id, modelID }));
    });
    // Every old model was found again unless fewer were found than there were.
    if (found === old.models.size) continue;
    for (const modelID of old.models.keys()) {
      if (!entry.models.has(modelID)) note(models, "removed", formatModelRef({ providerID: id, modelID }));
    }
  }
  for (const [id, entry] of before.providers) {
    if (after.providers.has(id)) continue;
    note(providers, "removed", id);
    for (const modelID of entry.models.keys()) note(models, "removed", formatModelRef({ providerID: id, modelID }));
  }
  const defaultChanged = !deepEqual(before.defaultModel, after.defaultModel);
  const total = (c: Changes) => c.counts.added + c.counts.removed + c.counts.changed;
  if (total(providers) === 0 && total(models) === 0 && !defaultChanged && !credentialsChanged) return null;
  const diff: CatalogDiff = { providers, models };
  if (defaultChanged) diff.defaultModel = { before: before.defaultModel ?? null, after: after.defaultModel ?? null };
  if (credentialsChanged) diff.credentials = true;
  return diff;
}

function sameCredentials(a: CredentialIndex, b: CredentialIndex): boolean {
  return sameSet(a.stored, b.stored) && sameSet(a.env, b.env);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

function changes(): Changes {
  return { added: [], removed: [], changed: [], counts: { added: 0, removed: 0, changed: 0 } };
}

function note(target: Changes, kind: "added" | "removed" | "changed", id: string): void {
  if (target.counts[kind]++ < DIFF_LIST_LIMIT) target[kind].push(id);
}

/**
 * Model equality, exactly as `deepEqual` defines it, but with each field of the record's known
 * shape compared through its own property (thousands of models are compared after every
 * rebuild, and a generic walk looks every key up by name and boxes every number it reads). A
 * record or part holding keys of a plugin's own, or a key set to undefined, is compared
 * generically. Fields are assumed to be plain properties, as literals and assignments make them.
 */
function sameModel(a: ModelRecord, b: ModelRecord): boolean {
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== modelKeys(a) || keyCount(b) !== modelKeys(b)) return deepEqual(a, b);
  return (
    a.id === b.id &&
    a.providerID === b.providerID &&
    same(a.name, b.name) &&
    same(a.family, b.family) &&
    same(a.status, b.status) &&
    same(a.enabled, b.enabled) &&
    sameTime(a.time, b.time) &&
    sameLimit(a.limit, b.limit) &&
    sameCapabilities(a.capabilities, b.capabilities) &&
    sameCosts(a.cost, b.cost) &&
    sameApi(a.api, b.api) &&
    sameRequest(a.request, b.request) &&
    sameList(a.variants, b.variants)
  );
}

/** How many of a model record's own fields are set (the count of keys it has when it has no others). */
function modelKeys(m: ModelRecord): number {
  return (
    defined(m.id) + defined(m.providerID) + defined(m.family) + defined(m.name) + defined(m.api) + defined(m.capabilities) + defined(m.request) +
    defined(m.variants) + defined(m.time) + defined(m.cost) + defined(m.status) + defined(m.enabled) + defined(m.limit)
  );
}

// Fields that hold fractions (times, prices) are compared with `===` in place: handing such a
// number to a function that is not inlined boxes it, an allocation per field per rebuild.

function sameTime(a: ModelRecord["time"], b: ModelRecord["time"]): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== (a.released === undefined ? 0 : 1) || keyCount(b) !== (b.released === undefined ? 0 : 1)) return deepEqual(a, b);
  return a.released === b.released || same(a.released, b.released);
}

function sameLimit(a: ModelRecord["limit"], b: ModelRecord["limit"]): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== limitKeys(a) || keyCount(b) !== limitKeys(b)) return deepEqual(a, b);
  return same(a.context, b.context) && same(a.input, b.input) && same(a.output, b.output);
}

function limitKeys(l: ModelRecord["limit"]): number {
  return defined(l.context) + defined(l.input) + defined(l.output);
}

function sameCapabilities(a: ModelRecord["capabilities"], b: ModelRecord["capabilities"]): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== capabilityKeys(a) || keyCount(b) !== capabilityKeys(b)) return deepEqual(a, b);
  return same(a.tools, b.tools) && same(a.reasoning, b.reasoning) && sameList(a.input, b.input) && sameList(a.output, b.output);
}

function capabilityKeys(c: ModelRecord["capabilities"]): number {
  return defined(c.tools) + defined(c.reasoning) + defined(c.input) + defined(c.output);
}

function sameCosts(a: CostEntry[], b: CostEntry[]): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameCost(a[i]!, b[i]!)) return false;
  return true;
}

function sameCost(a: CostEntry, b: CostEntry): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== costKeys(a) || keyCount(b) !== costKeys(b)) return deepEqual(a, b);
  return (a.input === b.input || same(a.input, b.input)) && (a.output === b.output || same(a.output, b.output)) && sameCache(a.cache, b.cache) && same(a.tier, b.tier);
}

function costKeys(c: CostEntry): number {
  return defined(c.tier) + (c.input === undefined ? 0 : 1) + (c.output === undefined ? 0 : 1) + defined(c.cache);
}

function sameCache(a: CostEntry["cache"], b: CostEntry["cache"]): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== cacheKeys(a) || keyCount(b) !== cacheKeys(b)) return deepEqual(a, b);
  return (a.read === b.read || same(a.read, b.read)) && (a.write === b.write || same(a.write, b.write));
}

function cacheKeys(c: CostEntry["cache"]): number {
  return (c.read === undefined ? 0 : 1) + (c.write === undefined ? 0 : 1);
}

type AnyApi = { id?: string; type?: string; package?: string; url?: string; settings?: Record<string, unknown> };

function sameApi(left: ModelApi, right: ModelApi): boolean {
  const a = left as AnyApi;
  const b = right as AnyApi;
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== apiKeys(a) || keyCount(b) !== apiKeys(b)) return deepEqual(a, b);
  return same(a.id, b.id) && same(a.type, b.type) && same(a.package, b.package) && same(a.url, b.url) && same(a.settings, b.settings);
}

function apiKeys(api: AnyApi): number {
  return defined(api.id) + defined(api.type) + defined(api.package) + defined(api.url) + defined(api.settings);
}

function sameRequest(a: ModelRecord["request"], b: ModelRecord["request"]): boolean {
  if (a === b) return true;
  if (!isRecord(a) || !isRecord(b) || keyCount(a) !== requestKeys(a) || keyCount(b) !== requestKeys(b)) return deepEqual(a, b);
  return same(a.headers, b.headers) && same(a.body, b.body) && same(a.variant, b.variant);
}

function requestKeys(r: ModelRecord["request"]): number {
  return defined(r.headers) + defined(r.body) + defined(r.variant);
}

/** Arrays compared item by item (anything else generically). */
function sameList(a: unknown[], b: unknown[]): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}

/** `deepEqual`, answered without a call when both are the same value. */
function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "object" && typeof b === "object" && deepEqual(a, b));
}

function defined(value: unknown): number {
  return value === undefined ? 0 : 1;
}

/** A non-array object. */
function isRecord(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How many keys `for...in` visits: with no key set to undefined, the number of set fields. */
function keyCount(record: object): number {
  let count = 0;
  for (const _ in record) count++;
  return count;
}

/** Structural equality of JSON-like values (plain objects, arrays, primitives). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    count++;
    if (!deepEqual(left[key], right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) count--;
  return count === 0;
}
