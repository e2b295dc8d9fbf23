import { Hono, type Context } from "hono";
import { raw } from "hono/html";
import { UserError } from "../kernel/errors.js";
import { catalogQuery, QueryError } from "./catalog-query.js";
import { problem } from "./problem.js";
import { requestGuard } from "./security/request-guard.js";
import { securityHeaders } from "./security/headers.js";
import { launchRoute, sessionGate, sessionOf } from "./security/session-gate.js";
import type { DashboardAuth } from "./security/dashboard-auth.js";
import { liveRoute } from "./live/live-route.js";
import type { LiveHub } from "./live/live-hub.js";
import type { LoginJob } from "./login-job.js";
import type { DoctorJob } from "./doctor-job.js";
import { DoctorVerdicts } from "./views/doctor-view.js";
import type { ModelListJob } from "./model-list-job.js";
import type { FreshData } from "./fresh-data.js";
import { InstallBusyError, type InstallJob } from "./install-job.js";
import { installRequest, applyRequest } from "./install-request.js";
import { InstallForm, InstallPlan, InstallProgress } from "./views/install-plan-view.js";
import { StalePlanError } from "./sources.js";
import type { DashboardSources } from "./sources.js";
import { CodexLogin } from "./views/login-view.js";
import type { StaticAssets } from "./static-assets.js";
import { AgentsTable } from "./views/agents-view.js";
import { CatalogForm, CatalogResults, CatalogVersion } from "./views/catalog-view.js";
import { CatalogStatus, PolicyForm, PolicyResult } from "./views/catalog-status-view.js";
import { InstallsTable } from "./views/installs-view.js";
import { Layout, type ViewId } from "./views/layout.js";
import { ApprovalsBanner } from "./views/live-run-view.js";
import { sessionRoutes, type LiveRuns } from "./session-routes.js";
import { StatusSections } from "./views/status-view.js";

export interface DashboardAppOptions {
  /** The names the dashboard answers to, with its port (allowed-hosts.ts); known once it listens. */
  hosts: () => ReadonlySet<string>;
  auth: DashboardAuth;
  sources: DashboardSources;
  hub: LiveHub;
  assets: StaticAssets;
  home: string;
  /** Aborted when the server stops: the live streams end. */
  closing: AbortSignal;
  heartbeatMs?: number;
  /** `POST /api/refresh`: look at everything again now and push what changed to the open pages. */
  refresh?: () => Promise<void>;
  /** Codex's device login, a job of the server. */
  login: LoginJob;
  /** The sources' answers, shared by the views, the API and the live refresher. */
  fresh: FreshData;
  /** The model list's refresh from the page. */
  modelList: ModelListJob;
  /** `bosun doctor` from the page, a job of the server. */
  doctor: DoctorJob;
  /** Installing from the page, a job of the server. */
  installs: InstallJob;
  /** The running `bosun run` processes: their live sessions, approvals, sub-agents. */
  runs: LiveRuns;
  /** Tells the log what the page changed (an audit line per action). */
  audit: (message: string, fields: Record<string, unknown>) => void;
}

/** A form's fields as `installRequest` reads them (a field given once is a string, more often an array). */
function formValues(body: Record<string, string | File | (string | File)[]>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]));
}

/**
 * The dashboard: every request passes the guard (Host, Fetch Metadata, Origin) and the security
 * headers; `/auth` swaps a launch token for the session cookie; everything else needs the session
 * (and a change its CSRF token). The JSON API under `/api/` is the contract; the pages render the
 * same data (hono/jsx: every text escaped).
 */
export function dashboardApp(options: DashboardAppOptions): Hono {
  const { sources, home } = options;
  const app = new Hono();
  // The answers the views and the API share, at most a second old (fresh-data.ts).
  const data = { agents: () => sources.agents(), status: () => sources.status(), installs: () => sources.installs() };
  const agents = () => options.fresh.get("agents", data.agents);
  const installs = () => options.fresh.get("installs", data.installs);
  const status = () => options.fresh.get("status", data.status);
  const sessions = () => options.fresh.get("sessions", () => sources.sessions());
  app.use("*", securityHeaders());
  app.use("*", requestGuard(options.hosts));
  app.get("/auth", launchRoute(options.auth));
  // Browsers ask for it on every page, the refusals included: nothing, rather than a 404 in their console.
  app.get("/favicon.ico", (c) => c.body(null, 204));
  app.use("*", sessionGate(options.auth));
  app.onError((error, c) => {
    if (error instanceof InstallBusyError || error instanceof StalePlanError) return problem(c, 409, error.message);
    if (error instanceof UserError || error instanceof QueryError) return problem(c, 400, error.message);
    options.audit("dashboard request failed", { path: c.req.path, error: error.message });
    return problem(c, 500, `internal error: ${error.message}`);
  });
  app.notFound((c) => problem(c, 404, `no page ${c.req.path}`));

  app.get("/assets/:name", (c) => options.assets.serve(c, c.req.param("name")));
  app.get("/live", liveRoute(options.hub, options.closing, options.heartbeatMs, options.refresh));

  // A doctype first: without one the browser lays the page out in quirks mode.
  const page = (c: Context, view: ViewId, title: string, body: unknown) =>
    c.html(
      <>
        {raw("<!DOCTYPE html>")}
        <Layout view={view} title={title} csrf={options.auth.csrfToken(sessionOf(c))} assets={options.assets} banner={<ApprovalsBanner runs={options.runs.runs().map((run) => run.state!)} />}>
          {body as never}
        </Layout>
      </>,
    );

  const cachedJson = async (c: Context, name: keyof typeof data) => {
    c.header("Content-Type", "application/json");
    return c.body(await options.fresh.json(name, data[name]));
  };
  app.get("/api/agents", (c) => cachedJson(c, "agents"));
  app.get("/api/status", (c) => cachedJson(c, "status"));
  app.get("/api/installs", (c) => cachedJson(c, "installs"));
  app.get("/api/catalog", async (c) => c.json(await sources.catalog(catalogQuery(c.req.query()))));
  sessionRoutes(app, { sources, sessions, runs: options.runs, audit: options.audit, page: (c, title, body) => page(c, "sessions", title, body) });
  app.post("/api/refresh", async (c) => {
    await options.refresh?.();
    return c.json({ refreshed: true });
  });

  app.get("/api/agents/codex/login", (c) => c.json(options.login.state));
  app.post("/api/agents/codex/login", async (c) => c.json(await options.login.start()));
  app.delete("/api/agents/codex/login", (c) => c.json(options.login.stop()));
  app.post("/agents/codex/login", async (c) => c.html(<CodexLogin login={await options.login.start()} />));
  app.delete("/agents/codex/login", (c) => c.html(<CodexLogin login={options.login.stop()} />));
  const disconnect = async (c: Context) => {
    const id = c.req.param("id") as string;
    const { title, what } = await sources.disconnect.plan(id);
    const outcome = await sources.disconnect.carryOut(id);
    options.fresh.drop("agents", "status");
    options.audit("agent disconnected from the dashboard", { agent: id, title, what, removed: outcome.removed });
    return outcome;
  };
  app.get("/api/doctor", (c) => c.json(options.doctor.state));
  // The API waits for the run's end (seconds: it asks each agent's CLI); the page gets it live.
  app.post("/api/doctor", async (c) => c.json(await options.doctor.run()));
  app.post("/agents/doctor", (c) => {
    void options.doctor.run();
    return c.html(<DoctorVerdicts doctor={options.doctor.state} home={home} />);
  });
  app.post("/api/agents/:id/disconnect", async (c) => c.json(await disconnect(c)));
  app.post("/agents/:id/disconnect", async (c) => {
    await disconnect(c);
    return c.html(<AgentsTable agents={(await agents()).agents} home={home} />);
  });

  app.get("/", async (c) =>
    page(
      c,
      "agents",
      "Agents",
      <>
        <AgentsTable agents={(await agents()).agents} home={home} />
        <CodexLogin login={options.login.state} />
        <DoctorVerdicts doctor={options.doctor.state} home={home} />
      </>,
    ),
  );
  app.get("/installs", async (c) => {
    const scope = c.req.query("scope") === "local" ? "local" : "global";
    return page(
      c,
      "installs",
      "Installs",
      <>
        <InstallsTable runtimes={(await installs()).runtimes} home={home} />
        <InstallForm runtimes={sources.install.runtimes(scope)} scope={scope} />
        <InstallPlan request={null} planId={null} report={null} home={home} />
        <InstallProgress state={options.installs.state} seq={options.installs.seq} />
      </>,
    );
  });
  app.post("/api/installs/plan", async (c) => c.json(await sources.install.plan(installRequest(await c.req.json().catch(() => undefined)))));
  app.post("/installs/plan", async (c) => {
    const request = installRequest(formValues(await c.req.parseBody({ all: true })));
    const { planId, report } = await sources.install.plan(request);
    return c.html(<InstallPlan request={request} planId={planId} report={report} home={home} />);
  });
  const apply = async (c: Context, body: unknown) => {
    const request = applyRequest(body);
    options.audit("install started from the dashboard", { runtimes: request.runtimes, scope: request.scope, pack: request.pack ?? "bosun" });
    return options.installs.start(request);
  };
  app.post("/api/installs/apply", async (c) => {
    const { finished } = await apply(c, await c.req.json().catch(() => undefined));
    // The API waits for the end: a stale plan is a 409, a failure a 400, with the one line.
    const state = await finished;
    if (state.state === "failed") return problem(c, state.stale ? 409 : 400, state.message);
    return c.json(state);
  });
  app.post("/installs/apply", async (c) => {
    const { state, seq } = await apply(c, formValues(await c.req.parseBody({ all: true })));
    return c.html(<InstallProgress state={state} seq={seq} />);
  });
  app.get("/api/installs/job", (c) => c.json(options.installs.state));
  app.get("/catalog", async (c) => {
    const query = catalogQuery(c.req.query());
    const search = await sources.catalog(query);
    return page(
      c,
      "catalog",
      "Catalog",
      <>
        <CatalogStatus list={sources.modelList.state()} refreshing={options.modelList.refreshing()} last={options.modelList.last()} />
        <CatalogForm query={query} />
        <CatalogVersion version={sources.catalogVersion()} />
        <CatalogResults search={search} />
        <PolicyForm />
        <PolicyResult answer={null} />
      </>,
    );
  });
  app.post("/api/catalog/refresh", async (c) => {
    const outcome = await options.modelList.refresh();
    return outcome.status === "failed" || outcome.status === "disabled" ? problem(c, 400, outcome.error ?? outcome.status) : c.json({ ...outcome, list: sources.modelList.state() });
  });
  app.post("/catalog/refresh", async (c) => {
    void options.modelList.refresh();
    return c.html(<CatalogStatus list={sources.modelList.state()} refreshing={options.modelList.refreshing()} last={options.modelList.last()} />);
  });
  app.get("/api/catalog/list", (c) => c.json(sources.modelList.state()));
  app.get("/api/policy", async (c) => c.json(await sources.policy(c.req.query("action") ?? "", c.req.query("resource") ?? "")));
  app.get("/catalog/policy", async (c) => c.html(<PolicyResult answer={await sources.policy(c.req.query("action") ?? "", c.req.query("resource") ?? "")} />));
  app.get("/catalog/results", async (c) => c.html(<CatalogResults search={await sources.catalog(catalogQuery(c.req.query()))} />));
  app.get("/status", async (c) => page(c, "status", "Status", <StatusSections status={await status()} />));
  return app;
}
