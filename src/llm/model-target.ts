/**
 * What the agent loop needs to know about one model: enough to build an AI SDK language model and
 * to budget its context. The catalog produces these; tests build them by hand, pointing at the
 * scripted LLM server.
 */
export interface ModelTarget {
  providerID: string;
  /** The id the provider's API knows the model by. */
  modelID: string;
  /** Display name. */
  name: string;
  /** The AI SDK provider package that speaks this provider's protocol. */
  npm: ProviderPackage;
  /** API base URL; the package's default when absent (required for openai-compatible). */
  baseURL?: string;
  /**
   * Where the base URL was set, for the error that says it cannot be reached (it follows the URL
   * in parentheses): `set in /home/me/.config/bosun/bosun.json:5`, `from models.dev; …`.
   */
  baseURLOrigin?: string;
  /** Extra HTTP headers sent with every request. */
  headers: Record<string, string>;
  /** The credential, when the provider has one. Never printed or logged. */
  apiKey?: string;
  /**
   * Where a missing credential would come from, for the error that asks for it; null when the
   * provider needs none (local servers such as Ollama or llama.cpp).
   */
  credentialHint: CredentialHint | null;
  /** Token limits: the context window (input + output) and the most the model may write. */
  limits: { context: number; output: number };
  /** Whether the model can call tools; without it the agent runs without tools. */
  toolCall: boolean;
  /** What the model costs, when the catalog knows; the first entry is the base price. */
  prices?: ModelPrice[];
}

/** USD per million tokens; an entry with `aboveTokens` applies to requests with more input than that. */
export interface ModelPrice {
  input: number;
  output: number;
  aboveTokens?: number;
}

export interface CredentialHint {
  /** Environment variables that provide the key, in the order they are read. */
  env: string[];
}

export const PROVIDER_PACKAGES = ["@ai-sdk/openai", "@ai-sdk/openai-compatible", "@ai-sdk/anthropic", "@ai-sdk/google"] as const;

export type ProviderPackage = (typeof PROVIDER_PACKAGES)[number];

/**
 * Turns `--model provider/model` (or nothing, for the default model) into a target. The CLI gets
 * one from `createModelSource` (resolve-model.ts).
 */
export type ModelResolver = (spec: string | undefined) => Promise<ModelTarget>;

/** `provider/model` → its two parts; the model part may itself contain `/` (openrouter ids do). */
export function parseModelSpec(spec: string): { providerID: string; modelID: string } | null {
  const slash = spec.indexOf("/");
  if (slash <= 0 || slash === spec.length - 1) return null;
  return { providerID: spec.slice(0, slash), modelID: spec.slice(slash + 1) };
}
