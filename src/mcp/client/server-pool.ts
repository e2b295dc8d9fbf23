import { setMaxListeners } from "node:events";
import { describeError } from "../../kernel/errors.js";
import { displayPath, type Env } from "../../kernel/paths.js";
import type { Secret } from "../../kernel/redact/redact.js";
import type { ConfiguredServer } from "../configured-servers.js";
import { isRemote } from "../server-schema.js";
import type { ConnectOptions, McpConnection } from "./connection.js";
import { McpCallError, McpServerError } from "./errors.js";
import { ProcessGroups } from "./process-groups.js";
import type { ProcessTransport } from "./process-transport.js";
import { CwdProblem, serverProcess } from "./server-process.js";
import { resolveServerValues, type ResolvedValues } from "./resolve-references.js";
import { toolApproval, type McpToolApproval } from "./tool-approval.js";
import type { McpToolDefinition } from "./tool-list.js";
import type { McpToolOutput } from "./tool-result.js";
import { modelToolNames } from "./tool-names.js";

/** How one configured server came out of the start. */
export type ServerOutcome =
  | { configured: ConfiguredServer; state: "ready"; connection: McpConnection; ms: number }
  | { configured: ConfiguredServer; state: "failed"; error: McpServerError; ms: number }
  | { configured: ConfiguredServer; state: "disabled" };

/** What a tool's calls go to: a ready server's connection, or a server still starting (its calls wait for it). */
export interface ToolServer {
  readonly name: string;
  readonly configured: ConfiguredServer;
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolOutput>;
}

/** One tool of a server as the model would see it: its name for the model and the approval that applies. */
export interface McpToolEntry {
  connection: ToolServer;
  tool: McpToolDefinition;
  /** `<server>__<tool>`, or a safe unique name when a model API cannot take that (see `modelToolNames`). */
  modelName: string;
  approval: McpToolApproval;
}

export interface McpServersOptions {
  /** Every server of `bosun.json` (`configuredServers`); those with `enabled: false` are not started. */
  servers: readonly ConfiguredServer[];
  /** Where `{env:NAME}` references are looked up (bosun's environment, with its `.env`). */
  referenceEnv: Env;
  /** What a started server's environment is made of before its own `env` (the user's, as the shell gave it). */
  baseEnv: Env;
  workdir: string;
  home: string;
  /** Reads a `{file:PATH}` reference (tests); the file system otherwise. */
  readFile?: (path: string) => string;
  /** Told when a ready server stops being usable during the run, with the line that says why. */
  onDropped?(error: McpServerError): void;
  /** Told when every start is over (whoever began it: `start`, or a call of a cached tool). */
  onStarted?(result: StartResult): void;
}

export interface StartResult {
  servers: ServerOutcome[];
  /** The tools of the ready servers, each with its model name and approval, sorted by server and tool. */
  tools: McpToolEntry[];
}

/**
 * The MCP servers of one run (or one `bosun mcp list`): their references are resolved when the
 * pool is made (so the run's redactor knows the values before anything is written), and the
 * servers start when `start` is first called, all at once, each within its own `startupTimeout`.
 * A server that fails is an outcome, never a throw: the rest are used without it. `stop` ends
 * every server (their process groups, a start still under way included) and waits for it; should
 * bosun end without it, `ProcessGroups` kills them on the way out.
 */
export class McpServers {
  private readonly resolved = new Map<string, ResolvedValues | McpServerError>();
  private starting: Promise<StartResult> | null = null;
  /** Each enabled server's start, and its outcome once it is over. */
  private readonly starts = new Map<string, Promise<ServerOutcome>>();
  private readonly outcomes = new Map<string, ServerOutcome>();
  private readonly connections: McpConnection[] = [];
  /** The process groups of the servers bosun started, until the pool stops. */
  private readonly groups = new ProcessGroups();
  private readonly stopping = new AbortController();

  constructor(private readonly options: McpServersOptions) {
    for (const configured of options.servers) {
      if (configured.server.enabled === false) continue;
      try {
        this.resolved.set(configured.name, resolveServerValues(configured, { env: options.referenceEnv, home: options.home, ...(options.readFile ? { readFile: options.readFile } : {}) }));
      } catch (error) {
        if (!(error instanceof McpServerError)) throw error;
        this.resolved.set(configured.name, error);
      }
    }
  }

  /** Whether any server is to be started. */
  get enabledCount(): number {
    return this.resolved.size;
  }

  /** The values the servers' references resolved to: secrets to redact everywhere. */
  secrets(): Secret[] {
    return [...this.resolved.values()].flatMap((entry) => (entry instanceof McpServerError ? [] : entry.secrets));
  }

  /** Starts every enabled server in parallel (once: later calls get the same result). */
  start(): Promise<StartResult> {
    this.starting ??= this.startAll().then((result) => {
      this.options.onStarted?.(result);
      return result;
    });
    return this.starting;
  }

  /** The ready servers that are still used (none dropped since), and their tools. */
  async current(): Promise<StartResult> {
    const { servers } = await this.start();
    const kept = servers.filter((outcome) => outcome.state !== "ready" || outcome.connection.dropped === null);
    return { servers: kept, tools: toolEntries(kept) };
  }

  /**
   * The tools to offer now, without waiting for a start (nor making one): a server's own once its
   * start is over, and before that the list `cached` has for it (its calls start the servers if
   * they are not starting yet, wait for its start, then go to the server or fail saying why).
   * Null when a server whose start is not over has no cached list: then wait for `current`.
   */
  toolsNow(cached: (configured: ConfiguredServer) => McpToolDefinition[] | null): McpToolEntry[] | null {
    const sources: { server: ToolServer; tools: readonly McpToolDefinition[] }[] = [];
    for (const configured of this.options.servers) {
      const resolved = this.resolved.get(configured.name);
      if (!resolved || resolved instanceof McpServerError) continue;
      const outcome = this.outcomes.get(configured.name);
      if (outcome) {
        if (outcome.state === "ready" && outcome.connection.dropped === null) sources.push({ server: outcome.connection, tools: outcome.connection.tools });
        continue;
      }
      const tools = cached(configured);
      if (!tools) return null;
      sources.push({ server: new StartingServer(configured, () => this.outcome(configured.name)), tools });
    }
    return entriesOf(sources);
  }

  /** Whether `start` was called. */
  get started(): boolean {
    return this.starting !== null;
  }

  /** One server's outcome, once its own start is over (the servers are started if they are not starting yet). */
  private outcome(name: string): Promise<ServerOutcome> {
    void this.start();
    return this.starts.get(name) as Promise<ServerOutcome>;
  }

  /** Stops every server, those still starting too, and waits until they are gone. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error("the MCP servers are stopped"));
    await this.starting?.catch(() => undefined);
    await Promise.all(this.connections.map((connection) => connection.close()));
    this.groups.clear();
  }

  private async startAll(): Promise<StartResult> {
    // Each start listens to it while it runs: more than Node's default of 10 with many servers, and expected.
    setMaxListeners(Math.max(10, this.options.servers.length + 1), this.stopping.signal);
    const connect: ConnectOptions = {
      baseEnv: this.options.baseEnv,
      workdir: this.options.workdir,
      home: this.options.home,
      signal: this.stopping.signal,
      onDropped: (connection, reason) => this.options.onDropped?.(new McpServerError(connection.name, displayPath(connection.configured.file, this.options.home), reason)),
      onSpawned: (pid) => this.groups.add(pid),
    };
    const servers = await Promise.all(
      this.options.servers.map((configured) => {
        const start = this.startOne(configured, connect).then((outcome) => {
          this.outcomes.set(configured.name, outcome);
          return outcome;
        });
        this.starts.set(configured.name, start);
        return start;
      }),
    );
    return { servers, tools: toolEntries(servers) };
  }

  /**
   * One server: a command's process is started at once, the SDK's client (loaded once, by the
   * first server that needs it) connects to it when it is loaded, so that loading it and the
   * server's own start overlap; its `startupTimeout` runs from the start of the process.
   */
  private async startOne(configured: ConfiguredServer, connect: ConnectOptions): Promise<ServerOutcome> {
    const resolved = this.resolved.get(configured.name);
    if (!resolved) return { configured, state: "disabled" };
    const started = Date.now();
    const failed = (reason: string): ServerOutcome => ({ configured, state: "failed", error: new McpServerError(configured.name, displayPath(configured.file, this.options.home), reason), ms: Date.now() - started });
    if (resolved instanceof McpServerError) return { configured, state: "failed", error: resolved, ms: 0 };
    let early: { transport: ProcessTransport; at: number } | undefined;
    if (!isRemote(configured.server)) {
      try {
        early = { transport: serverProcess(configured.server, resolved, connect), at: started };
      } catch (error) {
        if (error instanceof CwdProblem) return failed(error.message);
        throw error;
      }
      // A command that cannot be started is said when the client connects (the same promise).
      early.transport.start().catch(() => undefined);
    }
    try {
      const { McpConnection } = await loadClient();
      const connection = await McpConnection.open(configured, resolved, connect, early);
      this.connections.push(connection);
      return { configured, state: "ready", connection, ms: Date.now() - started };
    } catch (error) {
      // Stopped while it started (the run ended first): killed at once; otherwise asked to leave.
      await (this.stopping.signal.aborted ? early?.transport.kill() : early?.transport.close());
      if (error instanceof McpServerError) return { configured, state: "failed", error, ms: Date.now() - started };
      return failed(this.stopping.signal.aborted ? "bosun stopped it while it started" : describeError(error));
    }
  }

}

/** The ready servers' tools with their model names (unique across servers) and approvals. */
function toolEntries(servers: readonly ServerOutcome[]): McpToolEntry[] {
  return entriesOf(servers.flatMap((outcome) => (outcome.state === "ready" ? [{ server: outcome.connection, tools: outcome.connection.tools }] : [])));
}

function entriesOf(sources: readonly { server: ToolServer; tools: readonly McpToolDefinition[] }[]): McpToolEntry[] {
  const pairs = sources.flatMap(({ server, tools }) => tools.map((tool) => ({ connection: server, tool })));
  const names = modelToolNames(pairs.map(({ connection, tool }) => ({ server: connection.name, tool: tool.name })));
  return pairs.map(({ connection, tool }, index) => ({
    connection,
    tool,
    modelName: names[index]!,
    approval: toolApproval(connection.name, connection.configured.server, tool.name, tool.hints),
  }));
}

/**
 * A server still starting, as the calls of its cached tools see it: a call waits for the start
 * (or its own cancellation), then goes to the server, or fails with why it cannot: the server did
 * not start, or no longer offers the tool (its own list is offered from the next turn).
 */
class StartingServer implements ToolServer {
  constructor(
    readonly configured: ConfiguredServer,
    private readonly start: () => Promise<ServerOutcome>,
  ) {}

  get name(): string {
    return this.configured.name;
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolOutput> {
    const outcome = await untilAborted(this.start(), signal);
    if (outcome.state === "failed") throw new McpCallError(`the MCP server ${this.name} is not available in this run: ${outcome.error.reason}`);
    if (outcome.state !== "ready") throw new McpCallError(`the MCP server ${this.name} is not available in this run`);
    if (!outcome.connection.tools.some((offered) => offered.name === tool)) throw new McpCallError(`the MCP server ${this.name} no longer offers the tool ${tool}; the tools it offers now are offered from the next turn`);
    return outcome.connection.call(tool, args, signal);
  }
}

/** The promise's value, or the signal's reason thrown if it aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The SDK's client and bosun's connection around it: loaded once, when the first server needs them. */
let client: Promise<typeof import("./connection.js")> | null = null;
function loadClient(): Promise<typeof import("./connection.js")> {
  client ??= import("./connection.js");
  return client;
}
