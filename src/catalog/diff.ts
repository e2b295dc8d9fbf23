import { isProviderAvailable } from "./projection.js";
import { formatModelRef, type CatalogValue, type CredentialIndex, type ModelRecord, type ModelRef } from "./records.js";

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
    for (const [modelID, model] of entry.models) {
      const previous = old.models.get(modelID);
      if (!previous) note(models, "added", formatModelRef({ providerID: id, modelID }));
      else if (previous !== model && !sameModel(previous, model)) note(models, "changed", formatModelRef({ providerID: id, modelID }));
    }
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

/** The fields every model record has (`family` is the one optional field). */
const MODEL_FIELDS = 12;

/**
 * Model equality, with the record's own fields compared directly (thousands of models are
 * compared after every rebuild); a record with fields of a plugin's own is compared generically.
 */
function sameModel(a: ModelRecord, b: ModelRecord): boolean {
  const expected = MODEL_FIELDS + (a.family === undefined ? 0 : 1);
  if (keyCount(a) !== expected || keyCount(b) !== expected + (b.family === undefined ? 0 : 1) - (a.family === undefined ? 0 : 1)) return deepEqual(a, b);
  return (
    a.id === b.id &&
    a.providerID === b.providerID &&
    a.name === b.name &&
    a.family === b.family &&
    a.status === b.status &&
    a.enabled === b.enabled &&
    deepEqual(a.time, b.time) &&
    deepEqual(a.limit, b.limit) &&
    deepEqual(a.capabilities, b.capabilities) &&
    deepEqual(a.cost, b.cost) &&
    deepEqual(a.api, b.api) &&
    deepEqual(a.request, b.request) &&
    deepEqual(a.variants, b.variants)
  );
}

function keyCount(record: object): number {
  let count = 0;
  for (const key in record) if ((record as Record<string, unknown>)[key] !== undefined) count++;
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
