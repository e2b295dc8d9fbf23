import type { CatalogReader } from "./reader.js";

/** Whether a provider's models can be used, and why, in words: where its key comes from, or what would make it available. */
export interface ProviderAvailability {
  available: boolean;
  /** Names variables and commands, never a key's value. */
  why: string;
}

/**
 * Why a provider is available or not, as `bosun models` says it (and `bosun mcp serve`'s
 * catalog search): switched off in bosun.json, which key variable or command would make it
 * available, or where its key comes from (a variable's name, bosun auth, bosun.json), or that it
 * needs none.
 */
export function providerAvailability(reader: CatalogReader, providerID: string): ProviderAvailability {
  const record = reader.provider.get(providerID);
  if (!reader.isAvailable(providerID)) {
    if (record?.disabled) return { available: false, why: "not available: switched off in bosun.json (disabled_providers)" };
    const variables = record?.env ?? [];
    const hint = variables.length > 0 ? `set ${variables.join(" or ")}, or run bosun auth set ${providerID}` : `run bosun auth set ${providerID}`;
    return { available: false, why: `not available: ${hint}` };
  }
  const credential = reader.credential(providerID);
  if (!credential) return { available: true, why: "no key needed" };
  if (credential.source === "env") return { available: true, why: `key from ${credential.variable}` };
  if (credential.source === "auth") return { available: true, why: "key from bosun auth" };
  return { available: true, why: "key from bosun.json" };
}
