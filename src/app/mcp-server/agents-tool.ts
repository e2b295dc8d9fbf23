import { z } from "zod";
import { displayPath } from "../../kernel/paths.js";
import type { ServerTool } from "./tool.js";

const input = z
  .object({
    agents: z
      .array(z.string().trim().min(1, "an agent id is empty"))
      .max(64)
      .optional()
      .describe("Only these agents (ids such as claude, codex, gemini, opencode); every agent bosun knows by default"),
  })
  .strict();

/**
 * `agents`: which coding agents are installed and signed in, how (the sign-in mode) and where
 * (the binary, the credential file): what `bosun agents --json` prints, for all agents or the ones
 * named. Paths only, never a credential.
 */
export const agentsTool: ServerTool<z.infer<typeof input>> = {
  name: "agents",
  title: "Coding agents and their sign-in",
  description:
    "Which terminal coding agents (Claude Code, Codex, Gemini CLI, OpenCode, Cursor, …) are installed on this machine and signed in, " +
    "how each is signed in (mode: env, its own login, bosun's login) and where (binary, credential file path). The same as `bosun agents --json`; never a credential's value.",
  input,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async call({ agents }, { boot, cwd }) {
    const [status, { machineDetectionContext }, { getRuntime }, { collectHeadlessDefaults }] = await Promise.all([
      import("../../runtimes/collect-status.js"),
      import("../../runtimes/kit/machine.js"),
      import("../../runtimes/registry.js"),
      import("../../runtimes/headless.js"),
    ]);
    const config = boot.config?.value.agents;
    const ctx = machineDetectionContext(boot.agentEnv, boot.paths, cwd);
    // Named agents are checked before any probe runs: an unknown id is the whole answer.
    const named = agents ? [...new Set(agents.map((id) => getRuntime(id)))] : null;
    const reports = named ? await Promise.all(named.map((runtime) => status.reportRuntime(runtime, status.runtimeConfig(config, runtime.id), ctx))) : await status.collectAgentReports(ctx, config);
    const defaults = collectHeadlessDefaults(config);
    const lines = reports.map((report) => {
      const signIn = report.auth.error ? `sign-in unreadable: ${report.auth.error}` : report.auth.connected ? `signed in (${status.signInLabel(report)})` : "not signed in";
      const where = report.auth.authPath ? ` · ${displayPath(report.auth.authPath, boot.paths.home)}` : "";
      return `- ${report.id}: ${report.installed ? "installed" : "not installed"}, ${signIn}${where}`;
    });
    return {
      data: { agents: reports, defaults: Object.fromEntries(reports.map((report) => [report.id, defaults[report.id]])) },
      text: [`Agents: ${status.agentsHeadline(reports)}`, ...lines].join("\n"),
    };
  },
};
