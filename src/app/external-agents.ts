import { callCost } from "../llm/call-cost.js";
import type { ModelSource } from "../llm/model-source.js";
import type { ExternalAgents, PreparedKind } from "../agent/subagents/external/external-agents.js";
import type { ExternalKind } from "../agent/subagents/kinds.js";
import type { Boot } from "./start.js";

/** The catalog provider that prices each CLI's models (OpenCode names the provider itself: `provider/model`). */
const KIND_PROVIDERS: Partial<Record<ExternalKind, string>> = { claude: "anthropic", codex: "openai", gemini: "google", grok: "xai" };

/**
 * The user's agent CLIs as sub-agent kinds of a `bosun run` in `cwd`: a kind is ready when
 * `bosun agents` would show it installed and signed in (the same detection, the same truth), and
 * runs with its `bosun.json` `agents.<id>` settings over its headless defaults, in the
 * environment bosun gives agents (the user's, their keys included). Calls are priced from the
 * catalog when the CLI does not price them itself.
 */
export function externalAgents(boot: Boot, source: ModelSource, cwd: string): ExternalAgents {
  const agents = boot.config?.value.agents;
  return {
    env: boot.agentEnv,
    async prepare(kind): Promise<PreparedKind> {
      // Detection is loaded only when a task names one of the user's agents.
      const [{ reportRuntime, runtimeConfig }, { effectiveHeadless }, { machineDetectionContext }, { getRuntime }, { agentFolders }] = await Promise.all([
        import("../runtimes/collect-status.js"),
        import("../runtimes/headless.js"),
        import("../runtimes/kit/machine.js"),
        import("../runtimes/registry.js"),
        import("../runtimes/agent-folders.js"),
      ]);
      const ctx = machineDetectionContext(boot.agentEnv, boot.paths, cwd);
      const runtime = getRuntime(kind);
      const config = runtimeConfig(agents, kind);
      const report = await reportRuntime(runtime, config, ctx);
      if (!report.installed) return { ok: false, problem: `${report.title} is not installed (${report.binary} is not on PATH): ${report.installHint}` };
      if (!report.auth.connected) {
        const why = report.auth.error ? `: ${report.auth.error}` : "";
        return { ok: false, problem: `${report.title} is not signed in${why} (${report.loginHint})` };
      }
      return { ok: true, binary: report.binary, config: effectiveHeadless(runtime.headless, config), writes: agentFolders(kind, ctx) };
    },
    price(kind, model, usage) {
      if (!model || !source.prices) return null;
      const provider = KIND_PROVIDERS[kind];
      const slash = model.indexOf("/");
      const [providerID, modelID] = provider ? [provider, model] : slash > 0 ? [model.slice(0, slash), model.slice(slash + 1)] : [null, null];
      if (!providerID || !modelID) return null;
      const prices = source.prices(providerID, modelID);
      return prices ? callCost(prices, usage.input, usage.output) : null;
    },
  };
}
