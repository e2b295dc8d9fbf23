import type { LoadedConfig } from "../../../kernel/config/config.js";
import type { CatalogConfig, ProviderConfig } from "../../config-schema.js";
import type { CatalogEditor } from "../../editor.js";
import { parseModelRef } from "../../records.js";
import type { BosunPlugin } from "../api.js";
import { transformPlugin } from "./transform-plugin.js";

/**
 * `bosun.json`'s `providers` (merged over the models.dev provider of the same id, file by file,
 * the project's last), `disabled_providers` (from every file) and `model` (the default).
 */
export function configProvidersPlugin(config: LoadedConfig<CatalogConfig>): BosunPlugin {
  return transformPlugin("config-providers", (editor) => applyConfigProviders(editor, config));
}

export function applyConfigProviders(editor: CatalogEditor, config: LoadedConfig<CatalogConfig>): void {
  for (const layer of config.layers) {
    for (const [id, entry] of Object.entries(layer.value.providers ?? {})) applyProvider(editor, id, entry);
  }
  for (const layer of config.layers) {
    for (const id of layer.value.disabled_providers ?? []) {
      if (editor.provider.get(id)) editor.provider.update(id, (provider) => void (provider.disabled = true));
    }
  }
  const ref = config.value.model ? parseModelRef(config.value.model) : undefined;
  if (ref) editor.model.default.set(ref.providerID, ref.modelID);
}

function applyProvider(editor: CatalogEditor, id: string, entry: ProviderConfig): void {
  editor.provider.update(id, (provider) => {
    if (entry.name) provider.name = entry.name;
    if (entry.npm) provider.api = { type: "aisdk", package: entry.npm, ...(provider.api.url ? { url: provider.api.url } : {}), settings: { ...provider.api.settings } };
    if (entry.baseURL) provider.api.url = entry.baseURL;
    if (entry.apiKey) provider.request.body.apiKey = entry.apiKey;
    if (entry.env) provider.env = [...entry.env];
    if (entry.headers) Object.assign(provider.request.headers, entry.headers);
  });
  for (const [modelID, settings] of Object.entries(entry.models ?? {})) {
    const known = editor.model.get(id, modelID) !== undefined;
    editor.model.update(id, modelID, (model) => {
      if (!known) {
        // A model only the config names: assume a text chat model that can call tools, as
        // local and OpenAI-compatible servers mostly serve; `toolCall: false` says otherwise.
        model.capabilities = { tools: true, reasoning: false, input: ["text"], output: ["text"] };
      }
      if (settings.name) model.name = settings.name;
      if (settings.contextLimit !== undefined) model.limit.context = settings.contextLimit;
      if (settings.outputLimit !== undefined) model.limit.output = settings.outputLimit;
      if (settings.toolCall !== undefined) model.capabilities.tools = settings.toolCall;
      if (settings.reasoning !== undefined) model.capabilities.reasoning = settings.reasoning;
    });
  }
}
