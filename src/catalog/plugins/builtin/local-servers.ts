import type { CatalogEditor } from "../../editor.js";
import type { ProviderRecord } from "../../records.js";
import type { BosunPlugin } from "../api.js";
import { transformPlugin } from "./transform-plugin.js";
import { hostOf } from "./tweak-helpers.js";

const OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

/** Local servers bosun knows by provider id: their usual port and display name. */
const KNOWN_SERVERS: Record<string, { port: number; name: string }> = {
  ollama: { port: 11434, name: "Ollama" },
  lmstudio: { port: 1234, name: "LM Studio" },
  "llama.cpp": { port: 8080, name: "llama.cpp server" },
  llamacpp: { port: 8080, name: "llama.cpp server" },
  "llama-cpp": { port: 8080, name: "llama.cpp server" },
};

/**
 * Makes OpenAI-compatible servers on this machine (Ollama, LM Studio, llama.cpp's server) work
 * from a `baseURL` alone: they speak the OpenAI chat API through `@ai-sdk/openai-compatible`,
 * report token usage when asked, and a known id gets its usual URL and name. One that the
 * user's config names (without listing key variables) needs no key; local servers merely listed
 * by models.dev stay unavailable until configured, so a fresh bosun does not pick a server that
 * is not there as its default.
 */
export function localServersPlugin(keyless: ReadonlySet<string>): BosunPlugin {
  return transformPlugin("provider-local", (editor) => applyLocalServerTweaks(editor, keyless));
}

export function applyLocalServerTweaks(editor: CatalogEditor, keyless: ReadonlySet<string>): void {
  for (const { provider } of editor.provider.list()) {
    const known = KNOWN_SERVERS[provider.id];
    if (!known && !isLoopback(hostOf(provider.api.url))) continue;
    editor.provider.update(provider.id, (record) => tweak(record, known, keyless.has(record.id)));
  }
}

/** The address a local server bosun knows by its provider id usually listens at, and its name. */
export function usualLocalServer(providerID: string): { url: string; name: string } | undefined {
  const known = KNOWN_SERVERS[providerID];
  return known ? { url: `http://127.0.0.1:${known.port}/v1`, name: known.name } : undefined;
}

function tweak(provider: ProviderRecord, known: { port: number; name: string } | undefined, keyless: boolean): void {
  const url = provider.api.url ?? usualLocalServer(provider.id)?.url;
  if (provider.api.type === "native") {
    provider.api = { type: "aisdk", package: OPENAI_COMPATIBLE, settings: { ...provider.api.settings } };
  }
  if (url) provider.api.url = url;
  if (provider.api.type === "aisdk" && provider.api.package === OPENAI_COMPATIBLE) {
    provider.api.settings = { includeUsage: true, ...provider.api.settings };
  }
  if (known && provider.name === provider.id) provider.name = known.name;
  // A server on this machine that the user set up needs no key: the key variables models.dev
  // lists (LMSTUDIO_API_KEY) would make it look unavailable until one is set.
  if (keyless && isLoopback(hostOf(provider.api.url)) && provider.integrationID === undefined) provider.env = [];
}

function isLoopback(host: string | undefined): boolean {
  if (!host) return false;
  return host === "localhost" || host === "[::1]" || host === "::1" || host === "0.0.0.0" || /^127(\.\d{1,3}){3}$/.test(host);
}
