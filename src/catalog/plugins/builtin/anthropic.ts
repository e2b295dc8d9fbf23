import type { CatalogEditor } from "../../editor.js";
import type { BosunPlugin } from "../api.js";
import { transformPlugin } from "./transform-plugin.js";
import { packageOf, setHeaderIfUnset } from "./tweak-helpers.js";

/** The betas bosun's agent relies on: thinking between tool calls, and streamed tool arguments. */
export const ANTHROPIC_BETAS = "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14";

/** Providers served through `@ai-sdk/anthropic` (Anthropic's own and compatible ones) get bosun's beta header, unless set. */
export function anthropicPlugin(): BosunPlugin {
  return transformPlugin("provider-anthropic", applyAnthropicTweaks);
}

export function applyAnthropicTweaks(editor: CatalogEditor): void {
  for (const { provider } of editor.provider.list()) {
    if (packageOf(provider.api) !== "@ai-sdk/anthropic") continue;
    editor.provider.update(provider.id, (record) => setHeaderIfUnset(record.request.headers, "anthropic-beta", ANTHROPIC_BETAS));
  }
}
