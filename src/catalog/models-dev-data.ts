import { UserError } from "../kernel/errors.js";

/** A model as models.dev's `api.json` describes it (the fields bosun reads). */
export interface ModelsDevModel {
  id?: string;
  name?: string;
  family?: string;
  attachment?: boolean;
  reasoning?: boolean;
  tool_call?: boolean;
  release_date?: string;
  modalities?: { input?: string[]; output?: string[] };
  limit?: { context?: number; input?: number; output?: number };
  status?: string;
  cost?: ModelsDevCost & { tiers?: (ModelsDevCost & { tier?: { type?: string; size?: number } })[]; context_over_200k?: ModelsDevCost };
  experimental?: { modes?: Record<string, { cost?: ModelsDevCost; provider?: { headers?: Record<string, string>; body?: Record<string, unknown> } }> };
  provider?: { npm?: string; api?: string; headers?: Record<string, string>; body?: Record<string, unknown> };
}

export interface ModelsDevCost {
  input?: number;
  output?: number;
  cache_read?: number;
  cache_write?: number;
}

export interface ModelsDevProvider {
  id?: string;
  name?: string;
  env?: string[];
  npm?: string;
  api?: string;
  doc?: string;
  models: Record<string, ModelsDevModel>;
}

/** `api.json`: providers keyed by id. */
export type ModelsDevData = Record<string, ModelsDevProvider>;

/** A models.dev document bosun cannot use (names where it came from and why). */
export class ModelsDevDataError extends UserError {
  override name = "ModelsDevDataError";
  constructor(
    readonly origin: string,
    readonly problem: string,
  ) {
    super(`${origin}: ${problem}`);
  }
}

/**
 * Parses and checks the outline of an `api.json` document: an object of providers, each with an
 * object of models. Entries of another shape are dropped (and counted) rather than failing the
 * whole document; fields inside a model are read defensively when records are built.
 */
export function parseModelsDevData(text: string, origin: string): { data: ModelsDevData; dropped: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ModelsDevDataError(origin, `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isObject(value)) throw new ModelsDevDataError(origin, "must be a JSON object of providers");
  let dropped = 0;
  let kept = 0;
  for (const [id, provider] of Object.entries(value)) {
    if (!isObject(provider) || !isObject(provider.models)) {
      delete value[id];
      dropped++;
      continue;
    }
    kept++;
  }
  if (kept === 0) throw new ModelsDevDataError(origin, "holds no provider with models");
  return { data: value as ModelsDevData, dropped };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
