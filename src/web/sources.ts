import type { ModelSearch } from "../app/mcp-server/catalog-search.js";
import type { SessionSummary } from "../agent/session/list.js";
import type { DoctorReport } from "../doctor/doctor.js";
import type { RootStatus } from "../install/records/install-status.js";
import type { InstallReport } from "../install/report.js";
import type { AgentReport } from "../runtimes/collect-status.js";

/** One subsystem's line of `bosun status`. */
export interface StatusSection {
  name: string;
  title: string;
  state: string;
  detail: string;
}

/** What the Status view shows of `bosun status --json`. */
export interface DashboardStatus {
  version: string;
  summary: string;
  paths: Record<string, string | null>;
  migrations: { id: string; state: string; detail: string }[];
  plugins: { name: string; state: string; detail: string }[];
  sections: StatusSection[];
}

/** Where the catalog's model list comes from. */
export interface ModelListState {
  /** `network` or `cache` (models.dev's list), or `embedded` (bosun's built-in one). */
  source: string;
  /** The cache file (as shown) and how long ago it was written (ms; null: none). */
  cache: string;
  ageMs: number | null;
  providers: number;
  models: number;
  url: string;
  /** BOSUN_DISABLE_MODELS_FETCH is set. */
  downloadsOff: boolean;
}

/** A policy decision as the page shows it. */
export interface PolicyAnswer {
  action: string;
  resource: string;
  effect: "allow" | "deny";
  statement: { effect: string; action: string; resource: string; file: string | null; index: number | null; scope: string | null } | null;
  /** How many statements are in force. */
  statements: number;
}

/** An install the page asks for: bosun's own pack unless `pack` names a folder. */
export interface InstallRequest {
  runtimes: string[];
  scope: "global" | "local";
  pack?: string;
}

/** The key of one question of a plan in `choices`: its root folder and path. */
export const choiceKey = (dir: string, path: string) => `${dir}|${path}`;

/** A catalog search, as the page and `/api/catalog` ask it. */
export interface CatalogQuery {
  query?: string;
  provider?: string;
  availableOnly?: boolean;
  limit: number;
}

/** One event of a session's transcript, as the page shows it (already redacted by the session store). */
export interface TranscriptEntry {
  kind: "user" | "assistant" | "tool-call" | "tool-result" | "notice";
  text: string;
  /** A tool call's or result's tool name. */
  tool?: string;
}

/**
 * Where the dashboard's data comes from: the same functions the CLI's `--json` output is made
 * by (given by the command that starts the server, so the views and the API show the truth the
 * terminal shows). Each may throw a `UserError`: the page shows its one line.
 */
export interface DashboardSources {
  agents(): Promise<{ agents: AgentReport[] }>;
  status(): Promise<DashboardStatus>;
  installs(): Promise<{ runtimes: RootStatus[] }>;
  catalog(query: CatalogQuery): Promise<ModelSearch & { source: string }>;
  /** Changes when what a catalog search finds may have changed (the model list was refreshed, a key stored or removed); cheap. */
  catalogVersion(): string;
  sessions(): Promise<SessionSummary[]>;
  /** One session's summary and transcript; null when there is no such session. */
  session(id: string): Promise<{ summary: SessionSummary; transcript: TranscriptEntry[] } | null>;
  /** Codex's device login, in steps the server's login job runs (the CLI's own: `bosun agents login codex`). */
  codexLogin: {
    /** Asks the login server for a code (throws a `UserError` saying why it cannot). */
    start(signal: AbortSignal): Promise<{ userCode: string; verificationUrl: string; expiresAt: number; interval: number; wait(): Promise<{ accountId: string; authPath: string }> }>;
  };
  /** Disconnects an agent's bosun-owned sign-in: what it would do (`what`), and doing it. Agents without one: a `UserError`. */
  disconnect: {
    plan(id: string): Promise<{ title: string; what: string }>;
    carryOut(id: string): Promise<{ removed: boolean; message: string }>;
  };
  /** Installing a pack from the page: the same planner, lock and journal as `bosun install`. */
  install: {
    /** The runtimes a pack can go into, and whether each one's folder is here for the scope. */
    runtimes(scope: "global" | "local"): { id: string; title: string; detected: boolean }[];
    /** The dry run: what an install would do (`planId` names it, to apply exactly that). */
    plan(request: InstallRequest): Promise<{ planId: string; report: InstallReport }>;
    /** Applies a plan shown before: a `StalePlanError` when it changed since; `choices` answer its questions. */
    apply(request: InstallRequest & { planId: string; choices: Readonly<Record<string, "keep" | "remove">> }, onProgress: (done: number, total: number) => void): Promise<InstallReport>;
  };
  /** The model list behind the catalog: where it comes from, downloading it again, the hourly refresh of a long-running server. */
  modelList: {
    state(): ModelListState;
    /** Downloads the list now (models.dev; the cache's lock and rules). */
    refresh(): Promise<{ status: "fetched" | "fresh" | "disabled" | "failed"; error?: string }>;
    /** Refreshes the list when it is an hour old, every hour, until the returned function is called. */
    autoRefresh(): () => void;
  };
  /** `bosun doctor --json`'s report (it asks each agent's CLI: seconds), redacted. */
  doctor(): Promise<DoctorReport>;
  /** `bosun policy check ACTION RESOURCE`: the decision, and the statement that made it (null: none matched, the default allow). */
  policy(action: string, resource: string): Promise<PolicyAnswer>;
  /**
   * The folders whose changes are seen at once: the sessions (the live sessions list; the others are
   * looked at every second), the folder of bosun's key store (a key stored changes the catalog), and
   * the runs folder where running `bosun run` processes announce their control sockets (app/run-control).
   */
  watched: { sessions: string; keys: string; runs: string };
}

/** The plan the page showed is not what an install would do now (a file or the pack changed): plan again. */
export class StalePlanError extends Error {
  override name = "StalePlanError";
  constructor() {
    super("the plan changed since it was shown (a file or the pack changed): plan again, and check it");
  }
}
