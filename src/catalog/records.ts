/** JSON values that may travel in a request body. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * How a provider (or model) is reached: through an AI SDK package, or `native` when no package is
 * known (yet). `url` is the base URL; `settings` go to the package's provider factory.
 */
export type ProviderApi =
  | { type: "aisdk"; package: string; url?: string; settings?: Record<string, unknown> }
  | { type: "native"; url?: string; settings: Record<string, unknown> };

/** A model's api also names the model id the upstream API expects. */
export type ModelApi = ProviderApi & { id: string };

export interface RequestParts {
  headers: Record<string, string>;
  body: Record<string, Json>;
}

/** Which credential makes a provider usable; never the secret itself. */
export interface CredentialRef {
  source: "config" | "auth" | "env";
  /** The environment variable, for `env`. */
  variable?: string;
}

/**
 * Which credentials exist, by name only (the credentials plugin fills it on every rebuild):
 * availability is derived from it when read, so it holds for providers any plugin adds, in
 * whatever order the plugins ran.
 */
export interface CredentialIndex {
  /** Provider (or integration) ids with a key in bosun's auth store. */
  stored: ReadonlySet<string>;
  /** Environment variables that are set to a non-empty value. */
  env: ReadonlySet<string>;
}

export interface ProviderRecord {
  id: string;
  name: string;
  /** Credentials are looked up under this id instead of the provider's own. */
  integrationID?: string;
  /** Hard off switch: a disabled provider is listed but never available. */
  disabled?: boolean;
  /** Environment variables that can hold its API key, in order of preference. */
  env: string[];
  api: ProviderApi;
  request: RequestParts;
}

export interface CostEntry {
  /** Absent for the base price; later entries apply above a context size. */
  tier?: { type: "context"; size: number };
  input: number;
  output: number;
  cache: { read: number; write: number };
}

export type ModelStatus = "alpha" | "beta" | "deprecated" | "active";

export interface Variant {
  id: string;
  headers: Record<string, string>;
  body: Record<string, Json>;
}

export interface ModelRecord {
  id: string;
  providerID: string;
  family?: string;
  name: string;
  api: ModelApi;
  capabilities: { tools: boolean; reasoning: boolean; input: string[]; output: string[] };
  request: RequestParts & { variant?: string };
  variants: Variant[];
  /** Release time in epoch milliseconds; 0 when unknown. */
  time: { released: number };
  /** USD per million tokens; the first entry is the base price. Empty when unknown. */
  cost: CostEntry[];
  status: ModelStatus;
  enabled: boolean;
  /** Tokens; 0 when unknown. */
  limit: { context: number; input?: number; output: number };
}

export interface ProviderEntry {
  provider: ProviderRecord;
  models: Map<string, ModelRecord>;
}

export interface ModelRef {
  providerID: string;
  modelID: string;
}

/**
 * The catalog: providers keyed by id, each with its models keyed by model id (unique only within
 * a provider; ids may contain `/`). Insertion order is kept and is the listing order.
 */
export interface CatalogValue {
  providers: Map<string, ProviderEntry>;
  defaultModel: ModelRef | undefined;
  credentials: CredentialIndex;
}

export function emptyCatalog(): CatalogValue {
  return { providers: new Map(), defaultModel: undefined, credentials: { stored: new Set(), env: new Set() } };
}

/** A provider record as the editor creates it when a transform first names it. */
export function emptyProvider(id: string): ProviderRecord {
  return { id, name: id, env: [], api: { type: "native", settings: {} }, request: { headers: {}, body: {} } };
}

export function emptyModel(providerID: string, id: string): ModelRecord {
  return {
    id,
    providerID,
    name: id,
    api: { id, type: "native", settings: {} },
    capabilities: { tools: false, reasoning: false, input: [], output: [] },
    request: { headers: {}, body: {} },
    variants: [],
    time: { released: 0 },
    cost: [],
    status: "active",
    enabled: true,
    limit: { context: 0, output: 0 },
  };
}

/** `provider/model`, split at the first `/` (model ids may contain more). */
export function parseModelRef(text: string): ModelRef | undefined {
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return { providerID: text.slice(0, slash), modelID: text.slice(slash + 1) };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.providerID}/${ref.modelID}`;
}
