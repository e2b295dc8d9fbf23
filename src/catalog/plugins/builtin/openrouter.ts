import type { CatalogEditor } from "../../editor.js";
import type { ModelApi, ProviderApi } from "../../records.js";
import type { BosunPlugin } from "../api.js";
import { transformPlugin } from "./transform-plugin.js";
import { hostOf, packageOf, setHeaderIfUnset } from "./tweak-helpers.js";

const OPENROUTER_PACKAGE = "@openrouter/ai-sdk-provider";
const OPENROUTER_URL = "https://openrouter.ai/api/v1";
/** Chat-only variants that do not call tools, so an agent cannot use them. */
const CHAT_ONLY_MODELS = ["openai/gpt-5-chat", "gpt-5-chat-latest"];

/**
 * OpenRouter speaks the OpenAI chat API, so bosun reaches it through `@ai-sdk/openai-compatible`
 * (which it ships) at OpenRouter's URL, names itself in `X-Title` (OpenRouter's app attribution,
 * unless set), and switches off chat-only models that cannot call tools.
 */
export function openrouterPlugin(): BosunPlugin {
  return transformPlugin("provider-openrouter", applyOpenRouterTweaks);
}

export function applyOpenRouterTweaks(editor: CatalogEditor): void {
  for (const entry of editor.provider.list()) {
    const { provider } = entry;
    if (packageOf(provider.api) !== OPENROUTER_PACKAGE && hostOf(provider.api.url) !== "openrouter.ai") continue;
    editor.provider.update(provider.id, (record) => {
      record.api = compatible(record.api);
      setHeaderIfUnset(record.request.headers, "X-Title", "bosun");
    });
    for (const model of entry.models.values()) {
      if (packageOf(model.api) === OPENROUTER_PACKAGE) model.api = compatible(model.api) as ModelApi;
    }
    for (const id of CHAT_ONLY_MODELS) {
      if (editor.model.get(provider.id, id)) editor.model.update(provider.id, id, (model) => void (model.enabled = false));
    }
  }
}

function compatible<T extends ProviderApi>(api: T): T {
  if (api.type === "aisdk" && api.package !== OPENROUTER_PACKAGE) return api;
  const settings = api.settings ?? {};
  return { ...api, type: "aisdk", package: "@ai-sdk/openai-compatible", url: api.url ?? OPENROUTER_URL, settings } as T;
}
