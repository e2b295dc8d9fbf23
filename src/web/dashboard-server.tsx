import { html } from "./views/html.js";
import { serve, type ServerType } from "@hono/node-server";
import { setMaxListeners } from "node:events";
import type { AddressInfo } from "node:net";
import { UserError } from "../kernel/errors.js";
import { dashboardApp } from "./app.js";
import { LiveHub } from "./live/live-hub.js";
import { Refresher } from "./live/refresher.js";
import { FreshData } from "./fresh-data.js";
import { LoginJob } from "./login-job.js";
import { DoctorJob } from "./doctor-job.js";
import { DoctorVerdicts } from "./views/doctor-view.js";
import { InstallJob } from "./install-job.js";
import { InstallProgress } from "./views/install-plan-view.js";
import { CatalogStatus } from "./views/catalog-status-view.js";
import { CatalogVersion } from "./views/catalog-view.js";
import { ModelListJob } from "./model-list-job.js";
import { CodexLogin } from "./views/login-view.js";
import { allowedHosts } from "./security/allowed-hosts.js";
import { DashboardAuth } from "./security/dashboard-auth.js";
import type { DashboardSources } from "./sources.js";
import { StaticAssets } from "./static-assets.js";
import { AgentsTable } from "./views/agents-view.js";
import { InstallsTable } from "./views/installs-view.js";
import { SessionsList } from "./views/sessions-view.js";
import { RunWatcher } from "./live/run-watcher.js";
import { LiveRunPublisher } from "./live/run-publisher.js";
import { liveSessions } from "./session-routes.js";
import { StatusSections } from "./views/status-view.js";

/**
 * How often (in passes of the refresher, one a second) the agents' sign-in and the status screen
 * are looked at while a page is open: they change seldom and cost the most to look at (every
 * agent's files; the whole status report). The installs are looked at every second, and the
 * status screen again at once when what it sums up changed.
 */
const AGENTS_EVERY = 2;
const STATUS_EVERY = 5;

/** How long the runs are still told a page is open after the last one's stream ended (it may be loading the next view). */
const PAGE_GRACE_MS = 3_000;

/** The port `bosun serve` takes unless told otherwise (fixed, so a bookmark keeps working). */
export const DEFAULT_PORT = 7480;

/** The port is taken: one line saying what to do. */
export class PortTakenError extends UserError {
  override name = "PortTakenError";
  constructor(readonly host: string, readonly port: number) {
    super(`port ${port} on ${host} is taken (another bosun serve, or another program): stop it, or pass --port N`);
  }
}

export interface DashboardOptions {
  /** The address to listen on: 127.0.0.1 unless `--host` names another. */
  host: string;
  port: number;
  sources: DashboardSources;
  secret: Buffer;
  packageRoot: string;
  home: string;
  /** Where the page's actions are told (the log). */
  audit?: (message: string, fields: Record<string, unknown>) => void;
  /** False: no hourly refresh of the model list (tests). */
  autoRefresh?: boolean;
  /** How often the live elements are looked at while a page is open (ms). */
  refreshMs?: number;
  heartbeatMs?: number;
}

export interface RunningDashboard {
  /** `http://HOST:PORT`. */
  url: string;
  port: number;
  /** A new single-use launch link. */
  launchUrl(): string;
  /** Looks at everything again and pushes what changed. */
  refresh(): Promise<void>;
  /** How many live streams are open. */
  streams(): number;
  close(): Promise<void>;
}

/**
 * Starts the dashboard: listens on `host` (127.0.0.1 by default: never every interface) and
 * `port`, answers only to its own names (with the port), and keeps the live elements current
 * while a page is open. A taken port is a `PortTakenError`, never another port.
 */
export async function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const { sources, home } = options;
  // A run without a terminal asks its questions on the pages only while one is open: every run is
  // told how many are. None is said only after PAGE_GRACE_MS without one: a page going to another
  // view closes its stream and opens the next at once.
  let noPages: NodeJS.Timeout | null = null;
  const hub = new LiveHub((count) => {
    if (noPages) clearTimeout(noPages);
    noPages = null;
    if (count > 0) runs.setPages(count);
    else {
      noPages = setTimeout(() => runs.setPages(0), PAGE_GRACE_MS);
      noPages.unref();
    }
  });
  const closing = new AbortController();
  // Each open live stream listens to it: a hundred pages is expected, not a leak.
  setMaxListeners(0, closing.signal);
  const auth = new DashboardAuth(options.secret);
  const assets = new StaticAssets(options.packageRoot);
  // Each pass of the refresher looks again (fresh), and the views and the API share what it saw.
  const fresh = new FreshData(options.refreshMs ?? 1000);
  const refresher = new Refresher(
    [
      { target: "agents-table", render: async () => html(<AgentsTable agents={(await fresh.get("agents", () => sources.agents(), true)).agents} home={home} />), every: AGENTS_EVERY },
      { target: "installs-table", render: async () => html(<InstallsTable runtimes={(await fresh.get("installs", () => sources.installs(), true)).runtimes} home={home} />) },
      { target: "sessions-list", render: async () => html(<SessionsList sessions={await fresh.get("sessions", () => sources.sessions(), true)} live={liveSessions(runs)} />), watch: sources.watched.sessions, changed: () => fresh.drop("sessions") },
      { target: "catalog-status", render: () => catalogStatus() },
      { target: "catalog-version", render: () => catalogVersion(), watch: sources.watched.keys },
      // The status screen sums up the agents, installs, catalog and sessions: looked at again when they change.
      { target: "status-sections", render: async () => html(<StatusSections status={await fresh.get("status", () => sources.status(), true)} />), every: STATUS_EVERY, follows: ["agents-table", "installs-table", "catalog-version", "sessions-list"], changed: () => fresh.drop("status") },
    ],
    (target, text) => hub.publish(target, text),
    { intervalMs: options.refreshMs ?? 1000, active: () => hub.streams > 0 },
  );
  const runs: RunWatcher = new RunWatcher(sources.watched.runs, (run, previous, gone) => liveRuns.changed(run, previous, gone));
  const liveRuns = new LiveRunPublisher(runs, hub, sources, () => void refresher.now());
  let port = options.port;
  const hostName = options.host.includes(":") ? `[${options.host}]` : options.host;
  const extraHosts = ["127.0.0.1", "localhost", "::1"].includes(options.host) ? [] : [hostName];
  let hosts = allowedHosts(port, extraHosts);
  const audit = options.audit ?? (() => undefined);
  // The model list's refresh from the page: its start and end go to the open pages at once.
  // A new list changes the catalog too: the open Catalog pages search again (catalog-version).
  const modelList = new ModelListJob(sources.modelList, () => {
    void catalogStatus().then((text) => hub.publish("catalog-status", text));
    void catalogVersion().then((text) => hub.publish("catalog-version", text));
  });
  const catalogVersion = () => html(<CatalogVersion version={sources.catalogVersion()} />);
  const catalogStatus = () => html(<CatalogStatus list={sources.modelList.state()} refreshing={modelList.refreshing()} last={modelList.last()} />);
  const stopAutoRefresh = options.autoRefresh === false ? () => undefined : sources.modelList.autoRefresh();
  const login = new LoginJob(
    sources.codexLogin,
    (state) => {
      void html(<CodexLogin login={state} />).then((text) => hub.publish("codex-login", text));
      if (state.state === "signed-in") {
        fresh.drop("agents", "status");
        void refresher.now();
      }
    },
    audit,
  );
  const doctor = new DoctorJob(() => sources.doctor(), (state) => void html(<DoctorVerdicts doctor={state} home={home} />).then((text) => hub.publish("doctor-verdicts", text)), audit);
  const installs = new InstallJob(sources.install, (state, seq) => {
    void html(<InstallProgress state={state} seq={seq} />).then((text) => hub.publish("install-progress", text));
    if (state.state !== "applying") {
      fresh.drop("installs", "status");
      void refresher.now();
    }
  });
  const app = dashboardApp({ doctor, runs, modelList, fresh, login, installs, audit, hosts: () => hosts, auth, sources, hub, assets, home, closing: closing.signal, ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}), refresh: () => refresher.now() });
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: options.host, port }, () => resolve(started));
    started.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "EADDRINUSE" ? new PortTakenError(options.host, port) : error));
  });
  port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port, extraHosts);
  refresher.start();
  runs.start();
  liveRuns.start();
  void refresher.now();
  const url = `http://${hostName}:${port}`;
  return {
    url,
    port,
    launchUrl: () => `${url}/auth?token=${auth.mintLaunchToken()}`,
    refresh: () => refresher.now(),
    streams: () => hub.streams,
    async close() {
      stopAutoRefresh();
      login.stop();
      closing.abort();
      refresher.stop();
      if (noPages) clearTimeout(noPages);
      runs.stop();
      liveRuns.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
