/** Where the catalog's inputs live: the models.dev source and cache, the built-in list, the key store. */
import { join } from "node:path";
import type { Env } from "../kernel/paths.js";
import { requireLazily } from "../kernel/fs/require.js";

export const DEFAULT_MODELS_SOURCE = "https://models.dev";

/** Where the list comes from: `BOSUN_MODELS_URL`, else models.dev (no trailing slash). */
export function modelsSourceUrl(env: Env): string {
  const custom = env.BOSUN_MODELS_URL?.trim();
  return (custom || DEFAULT_MODELS_SOURCE).replace(/\/+$/, "");
}

/** The cache file of a source: `models-dev/api.json`, or one file per custom source so sources never mix. */
export function modelsCacheFile(cacheDir: string, sourceUrl: string): string {
  if (sourceUrl === DEFAULT_MODELS_SOURCE) return join(cacheDir, "models-dev", "api.json");
  // node:crypto is loaded only for a custom source.
  const { createHash } = requireLazily("node:crypto") as typeof import("node:crypto");
  return join(cacheDir, "models-dev", `api-${createHash("sha1").update(sourceUrl).digest("hex").slice(0, 12)}.json`);
}

/** The list bosun ships. */
export function embeddedProvidersFile(packageRoot: string): string {
  return join(packageRoot, "assets", "providers.json");
}

/** bosun's own store of API keys. */
export function authStoreFile(dataDir: string): string {
  return join(dataDir, "auth.json");
}
