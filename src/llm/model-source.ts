import { UserError } from "../kernel/errors.js";
import type { Secret } from "../kernel/redact/redact.js";
import type { ModelPrice, ModelResolver } from "./model-target.js";

/** Where `bosun run` gets its model and knows its credentials from. */
export interface ModelSource {
  resolve: ModelResolver;
  /** Env vars that hold provider credentials: their values are redacted everywhere. */
  credentialEnvVars: string[];
  /** Credentials bosun stores itself (`bosun auth`), redacted too. */
  storedCredentials(): Promise<Secret[]>;
  /** The catalog's prices of a model (USD per million tokens), or null when it has none; absent: no catalog. */
  prices?(providerID: string, modelID: string): ModelPrice[] | null;
}

export class NoModelError extends UserError {
  override name = "NoModelError";
}
