import type { AgentLanguageModel } from "./agent-language-model.js";

/**
 * The model, calling `onFirst` once: when its first call (streamed or not) has been answered (the
 * response has begun) or has failed. What waits for it (bosun run's MCP servers seen before) then
 * starts while the model works on its reply, out of the way of the request itself.
 */
export async function startingAfterFirstCall(model: AgentLanguageModel, onFirst: () => void): Promise<AgentLanguageModel> {
  const { wrapLanguageModel } = await import("ai");
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    onFirst();
  };
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
    middleware: {
      specificationVersion: "v3",
      async wrapStream({ doStream }) {
        try {
          return await doStream();
        } finally {
          once();
        }
      },
      async wrapGenerate({ doGenerate }) {
        try {
          return await doGenerate();
        } finally {
          once();
        }
      },
    },
  });
}
