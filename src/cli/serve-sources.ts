import { PassThrough } from "node:stream";
import type { Boot } from "../app/start.js";
import { displayPath } from "../kernel/paths.js";
import type { ServeContext } from "../app/mcp-server/tool.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import { createHash } from "node:crypto";
import { UserError } from "../kernel/errors.js";
import { choiceKey, StalePlanError, type DashboardSources, type DashboardStatus, type InstallRequest } from "../web/sources.js";
import { redactJson } from "../web/redact-json.js";
import type { CatalogView } from "../app/catalog-view.js";
import type { ModelsDevClient } from "../catalog/models-dev-client.js";
import type { Output } from "./output.js";
import { runsDir } from "../app/run-control/run-records.js";
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { authStoreFile } from "../catalog/catalog-files.js";

/**
 * The dashboard's data, from the functions the CLI's own `--json` output comes from: the agents,
 * installed packs and catalog search answers of `bosun mcp serve`'s read-only tools, `bosun
 * status`'s report, the session store. Everything is redacted before it reaches a page.
 */
export async function dashboardSources(boot: Boot, cwd: string, redactor: Redactor, output: Output): Promise<DashboardSources> {
  const [{ agentsTool }, { installedPacksTool }, { searchModels }, { onlyProvider }, { buildStatusReport, SUBSYSTEM_TITLES }, { FileSessionStore }, { sessionsDir }, { transcriptEntries }] = await Promise.all([
    import("../app/mcp-server/agents-tool.js"),
    import("../app/mcp-server/installed-packs-tool.js"),
    import("../app/mcp-server/catalog-search.js"),
    import("../app/catalog-view.js"),
    import("./status-report.js"),
    import("../agent/session/store.js"),
    import("../agent/session/list.js"),
    import("../web/transcript-entries.js"),
  ]);
  const serve: ServeContext = { boot, cwd, mode: "ask" };
  const { modelsDevClientFor } = await import("../app/open-catalog.js");
  // One client for the server's life: its list is read once, refreshed every hour (autoRefresh).
  const modelsDev = modelsDevClientFor(boot, boot.log);
  const catalog = catalogReader(boot, cwd, modelsDev);
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
      const view = await catalog.read();
      const listing = onlyProvider(view, query.provider, "search without a provider to see every provider's models");
      const search = searchModels(listing, (id) => view.availability.get(id) ?? { available: false, why: "not available" }, { ...(query.query ? { query: query.query } : {}), limit: query.limit, availableOnly: Boolean(query.availableOnly) });
      return clean({ ...search, source: view.source });
    },
    catalogVersion: () => catalog.version(),
    doctor: async () => {
      const { doctorTool } = await import("../app/mcp-server/doctor-tool.js");
      return clean((await doctorTool.call({}, serve, call)).data as never);
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
    sessions: async () => clean(store.list((text) => redactor.text(text))),
    session: async (id) => {
      const summary = store.list((text) => redactor.text(text)).find((session) => session.id === id);
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
    install: await installSource(boot, cwd, quiet),
    modelList: {
      state() {
        const { data, source } = modelsDev.current();
        return {
          source,
          cache: displayPath(modelsDev.cacheFile, boot.paths.home),
          ageMs: modelsDev.cacheAge() ?? null,
          providers: Object.keys(data).length,
          models: Object.values(data).reduce((n, provider) => n + Object.keys(provider.models).length, 0),
          url: `${modelsDev.sourceUrl}/api.json`,
          downloadsOff: modelsDev.fetchDisabled,
        };
      },
      async refresh() {
        if (modelsDev.fetchDisabled) return { status: "disabled", error: "downloads are turned off by BOSUN_DISABLE_MODELS_FETCH; unset it to refresh the model list" };
        const outcome = await modelsDev.refresh({ force: true });
        catalog.forget();
        boot.log.info("model list refreshed from the dashboard", { status: outcome.status });
        return outcome.status === "failed" ? { status: "failed", error: outcome.error } : { status: outcome.status };
      },
      autoRefresh: () => modelsDev.startAutoRefresh(),
    },
    async policy(action, resource) {
      const { POLICY_ACTIONS, policyFromConfig } = await import("../catalog/policy.js");
      if (!(POLICY_ACTIONS as readonly string[]).includes(action)) throw new UserError(`action: use ${POLICY_ACTIONS.join(" or ")}`);
      if (resource.trim() === "" || resource.length > 300) throw new UserError("resource: give a provider id (provider.use) or provider/model (model.use)");
      const rules = policyFromConfig(boot.config?.layers ?? []);
      const decision = rules.evaluate(action as (typeof POLICY_ACTIONS)[number], resource.trim(), "allow");
      const statement = decision.statement;
      return clean({
        action,
        resource: resource.trim(),
        effect: decision.effect,
        statement: statement ? { effect: statement.effect, action: statement.action, resource: statement.resource, file: statement.origin ? displayPath(statement.origin.file, boot.paths.home) : null, index: statement.origin?.index ?? null, scope: statement.origin?.scope ?? null } : null,
        statements: rules.statements.length,
      });
    },
    watched: { sessions: sessionsDir(boot.paths), keys: dirname(authStoreFile(boot.paths.data)), runs: runsDir(boot.paths) },
  };
}

/**
 * Installs from the page, through the CLI's own path: the options `bosun install` gives
 * (runOptions), the dry run, the audit of what the pack will run, the hook snapshot after.
 */
async function installSource(boot: Boot, cwd: string, quiet: Output): Promise<DashboardSources["install"]> {
  const [installer, { runOptions, DEFAULT_LOCK_TIMEOUT_S }, { auditOfPreview }, { buildInstallReport }, registry, placements, { needsChoice, isBlocked }, errors] = await Promise.all([
    import("../install/install-pack.js"),
    import("./install.js"),
    import("./install-audit.js"),
    import("../install/report.js"),
    import("../runtimes/registry.js"),
    import("../install/plan/placements.js"),
    import("../install/plan/plan-types.js"),
    import("../install/install-errors.js"),
  ]);
  const options = (request: InstallRequest) => runOptions({ scope: request.scope, runtimes: request.runtimes, allDetected: false }, { packArg: request.pack, flags: {}, resolve: undefined, lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_S * 1000, cwd, boot, reuse: undefined });
  const plan = async (request: InstallRequest) => {
    if (request.runtimes.length === 0) throw new UserError("choose at least one runtime");
    const outcome = await installer.installPack({ ...options(request), trustSettled: false });
    const report = buildInstallReport(outcome, true, await auditOfPreview(outcome));
    const planId = createHash("sha256")
      .update(JSON.stringify({ pack: outcome.pack.digest ?? null, targets: report.targets.map((target) => target.roots.map((root) => [root.dir, root.actions.map((action) => [action.type, action.path, action.to ?? null, action.group])])) }))
      .digest("hex")
      .slice(0, 32);
    return { planId, report, outcome };
  };
  return {
    runtimes(scope) {
      const ctx = { env: boot.agentEnv, home: boot.paths.home, cwd };
      const found = new Set(placements.detectedRuntimes(registry.listInstallRuntimes(), scope, ctx).map((runtime) => runtime.id));
      return registry.listInstallRuntimes().map((runtime) => ({ id: runtime.id, title: runtime.title, detected: found.has(runtime.id) }));
    },
    plan: async (request) => {
      const { planId, report } = await plan(request);
      return { planId, report };
    },
    async apply(request, onProgress) {
      const now = await plan(request);
      if (now.planId !== request.planId) throw new StalePlanError();
      const all = now.outcome.result.targets.flatMap(({ roots }) => roots.flatMap((root) => root.plan.actions.map((action) => ({ root: root.root.dir, action }))));
      const blocked = all.filter(({ action }) => isBlocked(action));
      if (blocked.length > 0) throw new errors.InstallBlockedError(blocked);
      const open = all.filter(({ root, action }) => needsChoice(action) && request.choices[choiceKey(root, action.rel)] === undefined);
      if (open.length > 0) throw new UserError(`choose keep or remove for ${open.map(({ action }) => action.rel).join(", ")}`);
      const outcome = await installer.installPack({
        ...options(request),
        dryRun: false,
        onProgress,
        ask: async (questions) => {
          for (const { root, action } of questions) action.resolution = request.choices[choiceKey(root.dir, action.rel)] ?? "keep";
        },
      });
      boot.log.info("install applied from the dashboard", { pack: outcome.pack.name, version: outcome.pack.version, runtimes: request.runtimes, scope: request.scope });
      await (await import("./hook-snapshot.js")).saveHookSnapshotAfterInstall(boot, quiet, outcome);
      return buildInstallReport(outcome, false, null);
    },
  };
}

/** How long a catalog read serves searches while nothing it knows of changed (a plugin's own models may). */
const CATALOG_MAX_AGE_MS = 30_000;

/**
 * The catalog, read once for every search while what it is made of stays the same: a search is
 * then a pass over the listing in memory. It is read again at once when the model list was
 * replaced (a refresh, the hourly one included) or bosun's key store changed (`version`), and
 * after CATALOG_MAX_AGE_MS in any case. The server's config and plugins are those of its start.
 * The dashboard never downloads models.dev's list itself (it shows the cache).
 */
function catalogReader(boot: Boot, cwd: string, modelsDev: ModelsDevClient): { read(): Promise<CatalogView>; forget(): void; version(): string } {
  let last: { at: number; version: string; view: Promise<CatalogView> } | null = null;
  let lists = 0;
  let list: unknown = null;
  const keys = authStoreFile(boot.paths.data);
  const version = () => {
    if (modelsDev.current() !== list) {
      list = modelsDev.current();
      lists++;
    }
    let stamp = "none";
    try {
      const info = statSync(keys);
      stamp = `${info.mtimeMs}:${info.size}:${info.ino}`;
    } catch {
      // no key stored
    }
    const now = `${lists}|${stamp}`;
    // An outdated read is let go at once (a 5,000-model listing): the next search reads again.
    if (last && last.version !== now) last = null;
    return now;
  };
  return {
    version,
    forget() {
      last = null;
    },
    read() {
      const now = version();
      if (!last || last.version !== now || Date.now() - last.at >= CATALOG_MAX_AGE_MS) {
        const view = import("../app/catalog-view.js").then(({ readCatalogView }) => readCatalogView(boot, cwd, modelsDev));
        const entry = { at: Date.now(), version: now, view };
        last = entry;
        view.catch(() => {
          if (last === entry) last = null;
        });
      }
      return last.view;
    },
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
