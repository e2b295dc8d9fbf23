import { join } from "node:path";
import type { Boot } from "./start.js";
import type { Log } from "../kernel/log.js";
import type { Secret } from "../kernel/redact/redact.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import { configuredServers, type ConfiguredServer } from "../mcp/configured-servers.js";
import type { McpServerError } from "../mcp/client/errors.js";
import type { McpServers, McpToolEntry, StartResult } from "../mcp/client/server-pool.js";
import type { ToolListCache } from "../mcp/client/tool-cache.js";
import type { AgentUi } from "../agent/events.js";
import type { AgentTool } from "../agent/tools/tool.js";
import { toolEnv } from "../agent/tools/tool-env.js";
import type { AgentLanguageModel } from "../llm/agent-language-model.js";
import { startingAfterFirstCall } from "../llm/first-call.js";

/** What one turn needs of the servers: where to say what failed (redacted, and in the redacting log), and the turn's signal. */
export interface McpTurn {
  ui: AgentUi;
  redactor: Redactor;
  log: Log;
  signal: AbortSignal;
}

/** A line about the servers for the log and (with `message`) the user, said at a turn. */
interface Notice {
  message?: string;
  logMessage: string;
  fields: Record<string, unknown>;
}

/**
 * The MCP servers of one `bosun run` (every turn of an interactive session). A run without servers
 * waits for nothing: `RunMcp.open` gives null, and the MCP client is never loaded. Servers bosun
 * has seen before (their last tool list is in the tool-list cache) start once the first model
 * request is out (`afterFirstRequest`; or at the first call of one of their tools), so that
 * request goes out as fast as without them: its tools are the cached lists, and a call waits for
 * its server's start. When a server has never been seen, they all start at once, in parallel, as
 * soon as the run is set up (while bosun resolves the model and opens the session), and the first
 * request waits for what is left of their start: it needs their lists. Each later turn gets the
 * tools of the servers that are ready and still used, as they list them (kept for the next run).
 * A server that failed is said once, in one line, and the run goes on without it; one that stops
 * during the run is said when it does. `stop` ends them all with the run.
 */
export class RunMcp {
  /** Lines not said yet: the start's, then drops between turns. */
  private unsaid: Notice[] = [];
  private startSeen = false;
  private turn: McpTurn | null = null;

  private constructor(
    private readonly servers: McpServers,
    private readonly agentTool: (entry: McpToolEntry) => AgentTool,
    private readonly cache: ToolListCache,
    private readonly workdir: string,
  ) {}

  /**
   * The servers of `bosun.json` (global and project) for a run in `workdir`, or null when none
   * is enabled: already starting unless every one has a cached tool list. Their references are
   * resolved here: `secrets` holds the values.
   */
  static async open(boot: Boot, workdir: string): Promise<RunMcp | null> {
    const servers = configuredServers(boot.config?.layers ?? []);
    if (!servers.some((entry) => entry.server.enabled !== false)) return null;
    const [{ McpServers }, { mcpAgentTool }, { ToolListCache, TOOL_CACHE_FILE }] = await Promise.all([import("../mcp/client/server-pool.js"), import("../agent/tools/mcp-tools.js"), import("../mcp/client/tool-cache.js")]);
    let run: RunMcp | null = null;
    const pool = new McpServers({
      ...mcpServerSources(boot, servers),
      workdir,
      onDropped: (error) => run?.dropped(error),
      onStarted: (result) => run?.startOver(result),
    });
    run = new RunMcp(pool, mcpAgentTool, ToolListCache.open(join(boot.paths.cache, TOOL_CACHE_FILE)), workdir);
    if (run.cachedTools() === null) run.begin();
    return run;
  }

  /**
   * The model, which starts the servers once its first request is answered (headers received),
   * when they are not starting yet: they start while the model works on its reply, not in the
   * way of the request.
   */
  afterFirstRequest(model: AgentLanguageModel): Promise<AgentLanguageModel> {
    return startingAfterFirstCall(model, () => this.begin());
  }

  /** The values the servers' `{env:…}` and `{file:…}` references stand for: the run redacts them. */
  secrets(): Secret[] {
    return this.servers.secrets();
  }

  /**
   * The tools for one turn: until every start is over, the ready servers' own and the cached
   * lists of those still starting, when every one of those has a cached list; else (and later)
   * those of the ready servers once the start is over (or the turn is cancelled: then none).
   * Lines not said yet are said on the turn's UI and in the log.
   */
  async toolsFor(turn: McpTurn): Promise<AgentTool[]> {
    this.turn = turn;
    if (!this.startSeen) {
      const now = this.cachedTools();
      if (now) {
        this.sayUnsaid();
        return now.map(this.agentTool);
      }
    }
    this.begin();
    const aborted = new Promise<null>((resolve) => {
      if (turn.signal.aborted) resolve(null);
      turn.signal.addEventListener("abort", () => resolve(null), { once: true });
    });
    const current = await Promise.race([this.servers.current(), aborted]);
    if (!current) return [];
    this.sayUnsaid();
    return current.tools.map(this.agentTool);
  }

  /** The tools to offer without waiting (the started servers' own, the cached lists of the others), or null. */
  private cachedTools(): McpToolEntry[] | null {
    return this.servers.toolsNow((configured) => this.cache.tools(this.cache.key(configured, this.workdir)));
  }

  /** Starts the servers, once (their start is taken in by `startOver`). */
  private begin(): void {
    if (!this.servers.started) void this.servers.start();
  }

  /** The turn is over: a server that stops now is said at the next one. */
  endTurn(): void {
    this.turn = null;
  }

  /** Stops every server and waits until they are gone. */
  stop(): Promise<void> {
    this.turn = null;
    return this.servers.stop();
  }

  /** Every start is over: the ready servers logged and their lists cached, failures and left-out tools queued to be said. */
  private startOver(result: StartResult): void {
    this.startSeen = true;
    const ready = result.servers.flatMap((outcome) => (outcome.state === "ready" ? [outcome] : []));
    if (ready.length > 0) this.notice({ logMessage: "mcp servers ready", fields: { servers: ready.map((outcome) => ({ server: outcome.configured.name, tools: outcome.connection.tools.length, ms: outcome.ms })) } });
    for (const outcome of result.servers) {
      if (outcome.state === "failed") this.notice(failure(outcome.error));
      if (outcome.state !== "ready") continue;
      const server = outcome.configured.name;
      for (const left of outcome.connection.leftOut) this.notice({ message: `MCP server ${server}: its tool ${left.name} is left out: ${left.reason}`, logMessage: "mcp tool left out", fields: { server, tool: left.name, reason: left.reason } });
      this.cache.remember(this.cache.key(outcome.configured, this.workdir), outcome.connection.tools);
    }
    this.cache.save();
  }

  private dropped(error: McpServerError): void {
    this.notice(failure(error));
  }

  /** Said now during a turn whose tools are given, else at the next one. */
  private notice(notice: Notice): void {
    this.unsaid.push(notice);
    if (this.turn) this.sayUnsaid();
  }

  private sayUnsaid(): void {
    const turn = this.turn;
    if (!turn) return;
    for (const { message, logMessage, fields } of this.unsaid.splice(0)) {
      if (message === undefined) {
        turn.log.info(logMessage, fields);
        continue;
      }
      turn.log.warn(logMessage, fields);
      turn.ui.onEvent({ type: "notice", message: turn.redactor.text(message) });
    }
  }
}

function failure(error: McpServerError): Notice {
  return { message: `${error.message}; bosun run goes on without it`, logMessage: "mcp server not used", fields: { server: error.server, reason: error.reason } };
}

/**
 * Where a run's (or `bosun mcp list`'s) servers get their values: `{env:NAME}` from bosun's
 * environment (with its `.env`); a started server's environment is the one the agent's commands
 * get, without the variables that hold credentials (it is given those it names in its `env`).
 */
export function mcpServerSources(boot: Boot, servers: readonly ConfiguredServer[]): { servers: readonly ConfiguredServer[]; referenceEnv: Boot["env"]; baseEnv: Boot["env"]; home: string } {
  return { servers, referenceEnv: boot.env, baseEnv: serverBaseEnv(boot), home: boot.paths.home };
}

function serverBaseEnv(boot: Boot): Boot["env"] {
  return toolEnv(boot.env, { secretNames: boot.config?.value.secrets ?? [], allow: [] }).env;
}
