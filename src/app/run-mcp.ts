import type { Boot } from "./start.js";
import type { Log } from "../kernel/log.js";
import type { Secret } from "../kernel/redact/redact.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import { configuredServers, type ConfiguredServer } from "../mcp/configured-servers.js";
import type { McpServerError } from "../mcp/client/errors.js";
import type { McpServers, McpToolEntry } from "../mcp/client/server-pool.js";
import type { AgentUi } from "../agent/events.js";
import type { AgentTool } from "../agent/tools/tool.js";
import { toolEnv } from "../agent/tools/tool-env.js";

/** What one turn needs of the servers: where to say what failed (redacted, and in the redacting log), and the turn's signal. */
export interface McpTurn {
  ui: AgentUi;
  redactor: Redactor;
  log: Log;
  signal: AbortSignal;
}

/**
 * The MCP servers of one `bosun run` (every turn of an interactive session): started in the
 * background as soon as the run is set up, in parallel, while bosun resolves the model and opens
 * the session, so the first model request waits only for what is left of the slowest start (and
 * a run without servers waits for nothing: `RunMcp.open` gives null, and the MCP client is never
 * loaded). Each turn gets the tools of the servers that are ready and still used; a server that
 * failed is said once, in one line, and the run goes on without it; one that stops during the
 * run is said when it does. `stop` ends them all with the run.
 */
export class RunMcp {
  /** Failures not said yet: the start's, then drops between turns. */
  private unsaid: McpServerError[] = [];
  private startReported = false;
  private turn: McpTurn | null = null;

  private constructor(
    private readonly servers: McpServers,
    private readonly agentTool: (entry: McpToolEntry) => AgentTool,
  ) {}

  /**
   * The servers of `bosun.json` (global and project) for a run in `workdir`, already starting,
   * or null when none is enabled. Their references are resolved here: `secrets` holds the values.
   */
  static async open(boot: Boot, workdir: string): Promise<RunMcp | null> {
    const servers = configuredServers(boot.config?.layers ?? []);
    if (!servers.some((entry) => entry.server.enabled !== false)) return null;
    const [{ McpServers }, { mcpAgentTool }] = await Promise.all([import("../mcp/client/server-pool.js"), import("../agent/tools/mcp-tools.js")]);
    let run: RunMcp | null = null;
    const pool = new McpServers({
      ...mcpServerSources(boot, servers),
      workdir,
      onDropped: (error) => run?.dropped(error),
    });
    run = new RunMcp(pool, mcpAgentTool);
    void pool.start();
    return run;
  }

  /** The values the servers' `{env:…}` and `{file:…}` references stand for: the run redacts them. */
  secrets(): Secret[] {
    return this.servers.secrets();
  }

  /**
   * The tools of the ready servers for one turn, once their start is over (or the turn is
   * cancelled: then none). Failures not said yet are said on the turn's UI and in the log.
   */
  async toolsFor(turn: McpTurn): Promise<AgentTool[]> {
    this.turn = turn;
    const aborted = new Promise<null>((resolve) => {
      if (turn.signal.aborted) resolve(null);
      turn.signal.addEventListener("abort", () => resolve(null), { once: true });
    });
    const current = await Promise.race([this.servers.current(), aborted]);
    if (!current) return [];
    if (!this.startReported) {
      this.startReported = true;
      const ready = current.servers.flatMap((outcome) => (outcome.state === "ready" ? [{ server: outcome.configured.name, tools: outcome.connection.tools.length, ms: outcome.ms }] : []));
      if (ready.length > 0) turn.log.info("mcp servers ready", { servers: ready });
      for (const outcome of current.servers) {
        if (outcome.state === "failed") this.unsaid.push(outcome.error);
        if (outcome.state === "ready") for (const left of outcome.connection.leftOut) this.say(`MCP server ${outcome.configured.name}: its tool ${left.name} is left out: ${left.reason}`, "mcp tool left out", { server: outcome.configured.name, tool: left.name, reason: left.reason });
      }
    }
    for (const error of this.unsaid.splice(0)) this.sayFailure(error);
    return current.tools.map(this.agentTool);
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

  private dropped(error: McpServerError): void {
    if (this.turn && this.startReported) this.sayFailure(error);
    else this.unsaid.push(error);
  }

  private sayFailure(error: McpServerError): void {
    this.say(`${error.message}; bosun run goes on without it`, "mcp server not used", { server: error.server, reason: error.reason });
  }

  private say(message: string, logMessage: string, fields: Record<string, unknown>): void {
    const turn = this.turn;
    if (!turn) return;
    turn.log.warn(logMessage, fields);
    turn.ui.onEvent({ type: "notice", message: turn.redactor.text(message) });
  }
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
