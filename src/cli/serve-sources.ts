import { PassThrough } from "node:stream";
import type { Boot } from "../app/start.js";
import { displayPath } from "../kernel/paths.js";
import type { ServeContext } from "../app/mcp-server/tool.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import type { DashboardSources, DashboardStatus } from "../web/sources.js";
import { redactJson } from "../web/redact-json.js";
import type { Output } from "./output.js";

/**
 * The dashboard's data, from the functions the CLI's own `--json` output comes from: the agents,
 * installed packs and catalog search answers of `bosun mcp serve`'s read-only tools, `bosun
 * status`'s report, the session store. Everything is redacted before it reaches a page.
 */
export async function dashboardSources(boot: Boot, cwd: string, redactor: Redactor, output: Output): Promise<DashboardSources> {
  const [{ agentsTool }, { installedPacksTool }, { catalogSearchTool }, { buildStatusReport, SUBSYSTEM_TITLES }, { FileSessionStore }, { sessionsDir }, { transcriptEntries }] = await Promise.all([
    import("../app/mcp-server/agents-tool.js"),
    import("../app/mcp-server/installed-packs-tool.js"),
    import("../app/mcp-server/catalog-search-tool.js"),
    import("./status-report.js"),
    import("../agent/session/store.js"),
    import("../agent/session/list.js"),
    import("../web/transcript-entries.js"),
  ]);
  const serve: ServeContext = { boot, cwd, mode: "ask" };
  const call = { signal: new AbortController().signal, progress: () => undefined };
  const clean = <T>(value: T): T => redactJson(value, (text) => redactor.text(text));
  const store = new FileSessionStore(sessionsDir(boot.paths));
  // The status report's section lines are rendered for a terminal: a sink that is not one.
  const sink = new PassThrough();
  sink.resume();
  const quiet: Output = { ...output, stdout: sink, stderr: sink, verbosity: "quiet" };
  return {
    agents: async () => clean((await agentsTool.call({}, serve, call)).data as never),
    installs: async () => clean((await installedPacksTool.call({}, serve, call)).data as never),
    catalog: async (query) => {
      const answer = await catalogSearchTool.call({ ...(query.query ? { query: query.query } : {}), ...(query.provider ? { provider: query.provider } : {}), limit: query.limit, ...(query.availableOnly ? { available_only: true } : {}), offline: true }, serve, call);
      return clean(answer.data as never);
    },
    status: async () => {
      const { report } = await buildStatusReport(boot, quiet);
      const status: DashboardStatus = {
        version: report.version,
        summary: report.summary,
        paths: { config: report.paths.config, data: report.paths.data, cache: report.paths.cache, state: report.paths.state, project: report.project?.root ?? null },
        migrations: report.migrations.steps.map((step) => ({ id: step.id, state: step.actions.length === 0 ? "nothing to do" : `${step.actions.length} change${step.actions.length === 1 ? "" : "s"}`, detail: step.notes.map((note) => note.message).join("; ") })),
        plugins: report.plugins.map((plugin) => ({ name: plugin.name, state: plugin.problem ? "problem" : plugin.enabled ? "enabled" : "disabled", detail: plugin.problem ?? plugin.version ?? "" })),
        sections: (Object.keys(SUBSYSTEM_TITLES) as (keyof typeof SUBSYSTEM_TITLES)[]).map((name) => ({ name, title: SUBSYSTEM_TITLES[name], state: report.subsystems[name]?.state ?? "unknown", detail: report.subsystems[name]?.detail ?? "" })),
      };
      return clean(status);
    },
    sessions: async () => clean(store.list()),
    session: async (id) => {
      const summary = store.list().find((session) => session.id === id);
      if (!summary) return null;
      return clean({ summary, transcript: transcriptEntries(store.read(id)) });
    },
    codexLogin: {
      async start(signal) {
        const [login, { machineDetectionContext }] = await Promise.all([import("../runtimes/codex-device-login.js"), import("../runtimes/kit/machine.js")]);
        const ctx = machineDetectionContext(boot.agentEnv, boot.paths);
        login.checkCodexLoginFolder(ctx);
        const io = { base: login.codexAuthBase(boot.env), signal };
        const started = await login.startCodexDeviceLogin(io);
        return {
          userCode: started.userCode,
          verificationUrl: started.verificationUrl,
          expiresAt: started.expiresAt,
          interval: started.interval,
          async wait() {
            const tokens = await login.waitForCodexDeviceLogin(started, io);
            const authPath = await login.saveCodexLogin(ctx, tokens);
            return { accountId: tokens.accountId, authPath: displayPath(authPath, boot.paths.home) };
          },
        };
      },
    },
    disconnect: {
      async plan(id) {
        const { runtime, plan, describe } = await disconnectPlan(boot, id);
        return { title: runtime.title, what: describe(plan) };
      },
      async carryOut(id) {
        const { runtime, plan, ctx } = await disconnectPlan(boot, id);
        const { carryOutDisconnect } = await import("../runtimes/kit/disconnect.js");
        const outcome = await carryOutDisconnect(runtime, plan, ctx);
        return { removed: outcome.removed, message: outcome.removed ? `Disconnected ${runtime.title}.` : (outcome.message ?? "nothing removed") };
      },
    },
    watched: { sessions: sessionsDir(boot.paths), catalog: null, installs: [] },
  };
}

/** An agent's disconnect, planned as `bosun agents disconnect` plans it (an agent without a bosun-owned sign-in: a `UserError`). */
async function disconnectPlan(boot: Boot, id: string) {
  const [registry, collect, { machineDetectionContext }, disconnect] = await Promise.all([import("../runtimes/registry.js"), import("../runtimes/collect-status.js"), import("../runtimes/kit/machine.js"), import("../runtimes/kit/disconnect.js")]);
  const runtime = registry.getRuntime(id);
  const ctx = machineDetectionContext(boot.agentEnv, boot.paths);
  const plan = await disconnect.planRuntimeDisconnect(runtime, collect.runtimeConfig(boot.config?.value.agents, runtime.id), ctx);
  return { runtime, plan, ctx, describe: (planned: typeof plan) => disconnect.describeDisconnectPlan(planned, boot.paths.home) };
}
