import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { describeError } from "../../kernel/errors.js";
import { classifyNetworkFailure } from "../../kernel/net/network-failure.js";
import { shownUrl } from "../../kernel/net/shown-url.js";
import { packageVersion } from "../../kernel/package-info.js";
import { displayPath, type Env } from "../../kernel/paths.js";
import type { ConfiguredServer } from "../configured-servers.js";
import { isRemote, MCP_DEFAULTS } from "../server-schema.js";
import { McpCallError, McpServerError } from "./errors.js";
import { ProcessTransport } from "./process-transport.js";
import { CwdProblem, serverProcess } from "./server-process.js";
import type { ResolvedValues } from "./resolve-references.js";
import { readToolList, type LeftOutTool, type McpToolDefinition } from "./tool-list.js";
import { InvalidToolResultError, toolResultText, type McpToolOutput } from "./tool-result.js";

export interface ConnectOptions {
  /** The environment a started server gets under its own `env` values: the user's. */
  baseEnv: Env;
  /** Where a server without `cwd` starts, and what a relative `cwd` is taken from. */
  workdir: string;
  home: string;
  signal?: AbortSignal;
  /** Told when a ready server stops being usable during the run (it exited, or stopped answering). */
  onDropped?(connection: McpConnection, reason: string): void;
  /** Told the process id of a server bosun starts, as soon as it runs. */
  onSpawned?(pid: number): void;
}

/** A server's limits in milliseconds and characters, its settings or the defaults. */
export interface ServerLimits {
  startupMs: number;
  callMs: number;
  maxOutput: number;
}

export function serverLimits(configured: ConfiguredServer): ServerLimits {
  const { server } = configured;
  return {
    startupMs: (server.startupTimeout ?? MCP_DEFAULTS.startupTimeout) * 1000,
    callMs: (server.callTimeout ?? MCP_DEFAULTS.callTimeout) * 1000,
    maxOutput: server.maxOutput ?? MCP_DEFAULTS.maxOutput,
  };
}

/** Results are checked by bosun (`toolResultText`, `readToolList`), which says what is wrong in one line. */
const ANY_RESULT = z.object({}).loose();
/** bosun reads tools' text, not their structured output: the SDK's output validation (ajv) is not used. */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) };
/** How long a server whose call timed out has to answer a ping before it counts as stopped. */
const PING_AFTER_TIMEOUT_MS = 5_000;
/** How long a server over HTTP has to end its session when bosun closes it. */
const TERMINATE_MS = 1_000;
/** Bounds a server that pages its tool list forever. */
const MAX_TOOL_PAGES = 500;

/**
 * One started MCP server: connected, initialized, its tools listed (all pages), within its
 * `startupTimeout`. Calls take `callTimeout` each and their results are cut at `maxOutput`. A
 * server that exits, or stops answering after a call timed out, is dropped: its process stopped,
 * every later call refused with the reason, `onDropped` told once.
 */
export class McpConnection {
  private dropReason: string | null = null;
  /** Set once `close` is called: the stop under way. */
  private closing: Promise<void> | null = null;

  private constructor(
    readonly configured: ConfiguredServer,
    private readonly client: Client,
    private readonly transport: ProcessTransport | StreamableHTTPClientTransport,
    private readonly options: ConnectOptions,
    readonly limits: ServerLimits,
    /** The tools bosun offers, and those it left out with why. */
    readonly tools: McpToolDefinition[],
    readonly leftOut: LeftOutTool[],
    /** The server's own name and version, from its initialize answer. */
    readonly serverInfo: { name: string; version: string },
  ) {
    client.onclose = () => {
      if (!this.closing) this.drop(exitReason(transport) ?? "the connection closed");
    };
  }

  get name(): string {
    return this.configured.name;
  }

  get kind(): "stdio" | "http" {
    return this.transport instanceof ProcessTransport ? "stdio" : "http";
  }

  /** The server's process id (a command's), for tests that check it is gone after the run. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.pid : undefined;
  }

  /** Why the server is no longer used, or null while it is. */
  get dropped(): string | null {
    return this.dropReason;
  }

  /**
   * Starts (or reaches) the server and lists its tools; `started` is its process when the pool
   * started it already (at `at`, when its `startupTimeout` began). Every failure is an
   * `McpServerError` whose reason says what happened (with the end of the server's stderr, or
   * what it wrote on stdout that is not MCP); the transport is closed first. An abort rejects
   * with the signal's reason.
   */
  static async open(configured: ConfiguredServer, resolved: ResolvedValues, options: ConnectOptions, started?: { transport: ProcessTransport; at: number }): Promise<McpConnection> {
    const limits = serverLimits(configured);
    const deadline = (started?.at ?? Date.now()) + limits.startupMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    const fail = (reason: string) => new McpServerError(configured.name, displayPath(configured.file, options.home), reason);
    const transport = makeTransport(configured, resolved, options, fail, started?.transport);
    const client = new Client({ name: "bosun", version: packageVersion() }, { capabilities: {}, jsonSchemaValidator: NO_OUTPUT_VALIDATION });
    // Protocol errors of single messages are the call's to report; the SDK would print them.
    client.onerror = () => undefined;
    let stage = "initialize";
    try {
      await withOwnSignal(options.signal, (signal) => client.connect(transport, { timeout: remaining(), signal }));
      stage = "tools/list";
      const entries: unknown[] = [];
      if (client.getServerCapabilities()?.tools) {
        let cursor: string | undefined;
        for (let page = 0; page < MAX_TOOL_PAGES; page++) {
          const result = await withOwnSignal(options.signal, (signal) => client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, ANY_RESULT, { timeout: remaining(), signal }));
          if (!Array.isArray(result.tools)) throw fail("its tools/list answer has no list of tools");
          entries.push(...(result.tools as unknown[]));
          cursor = typeof result.nextCursor === "string" && result.nextCursor !== "" ? result.nextCursor : undefined;
          if (!cursor) break;
        }
      }
      const { tools, leftOut } = readToolList(entries);
      const info = client.getServerVersion();
      return new McpConnection(configured, client, transport, options, limits, tools, leftOut, { name: info?.name ?? configured.name, version: info?.version ?? "" });
    } catch (error) {
      // Said before the transport is closed: stopping the process is not why it failed.
      const failure = error instanceof McpServerError ? error : fail(startFailure(error, transport, configured, stage, limits));
      await transport.close().catch(() => undefined);
      if (options.signal?.aborted) throw options.signal.reason;
      throw failure;
    }
  }

  /**
   * Calls one of its tools. The result is text for the model (`toolResultText`); a failure is an
   * `McpCallError` the model reads. On `signal`'s abort the call is cancelled (the server is told)
   * and the abort's reason thrown.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolOutput> {
    if (this.dropReason) throw new McpCallError(`the MCP server ${this.name} is no longer used in this run: ${this.dropReason}`);
    let result: Record<string, unknown>;
    try {
      result = await withOwnSignal(signal, (own) => this.client.request({ method: "tools/call", params: { name: tool, arguments: args } }, ANY_RESULT, { timeout: this.limits.callMs, signal: own }));
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw await this.callFailure(error);
    }
    try {
      return toolResultText(result, this.limits.maxOutput);
    } catch (error) {
      if (error instanceof InvalidToolResultError) throw new McpCallError(`the MCP server ${this.name} sent an invalid result: ${error.message}`);
      throw error;
    }
  }

  /**
   * Stops the server (a command's whole process group), or ends the session with a server over
   * HTTP (a DELETE, given TERMINATE_MS) and closes the connection; safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const transport = this.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId && !this.dropReason) {
      let timer: NodeJS.Timeout | undefined;
      const given = new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_MS)));
      await Promise.race([transport.terminateSession().catch(() => undefined), given]);
      clearTimeout(timer);
    }
    await this.client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }

  /** What the model reads about a call that failed; a server that stopped or stopped answering is dropped first. */
  private async callFailure(error: unknown): Promise<McpCallError> {
    const server = `the MCP server ${this.name}`;
    const gone = "its tools are not available for the rest of this run";
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const seconds = this.limits.callMs / 1000;
      const alive = await this.client.ping({ timeout: Math.min(PING_AFTER_TIMEOUT_MS, this.limits.callMs) }).then(
        () => true,
        () => false,
      );
      if (!alive) this.drop(`it stopped answering (a call got no answer within ${seconds} s, then a ping none either)`);
      return new McpCallError(`${server} did not answer within ${seconds} s (its callTimeout); the call was cancelled${alive ? "" : `, and the server no longer answers at all: ${gone}`}`);
    }
    const exit = exitReason(this.transport);
    if (exit || this.dropReason || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      this.drop(exit ?? "the connection closed");
      return new McpCallError(`${server} stopped during the call: ${this.dropReason}; ${gone}`);
    }
    if (error instanceof McpError) return new McpCallError(`${server} answered with an error: ${error.message.replace(/^MCP error -?\d+: /, "")}`);
    const network = classifyNetworkFailure(error);
    if (network && this.transport instanceof StreamableHTTPClientTransport) return new McpCallError(`${server} cannot be reached: ${network.reason}`);
    return new McpCallError(`the call to ${server} failed: ${describeError(error)}`);
  }

  /** Stops using the server for the rest of the run (once), with the reason every later call is told. */
  private drop(reason: string): void {
    if (this.dropReason || this.closing) return;
    this.dropReason = reason;
    this.options.onDropped?.(this, reason);
    void this.close();
  }
}

/**
 * Runs one SDK request with a signal of its own that follows `outer`: the SDK never takes its
 * listener off the signal it is given, and a run's signal (or the pool's) would gather one per
 * request otherwise.
 */
async function withOwnSignal<T>(outer: AbortSignal | undefined, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  try {
    return await request(own.signal);
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}

/** The transport of a configured server: its command (started, or to start) with its env, or its URL with its headers. */
function makeTransport(configured: ConfiguredServer, resolved: ResolvedValues, options: ConnectOptions, fail: (reason: string) => McpServerError, started?: ProcessTransport): ProcessTransport | StreamableHTTPClientTransport {
  const { server } = configured;
  if (isRemote(server)) return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: resolved.values } });
  if (started) return started;
  try {
    return serverProcess(server, resolved, options);
  } catch (error) {
    if (error instanceof CwdProblem) throw fail(error.message);
    throw error;
  }
}

/** Why a server could not be started or reached, in words: the line's reason. */
function startFailure(error: unknown, transport: ProcessTransport | StreamableHTTPClientTransport, configured: ConfiguredServer, stage: string, limits: ServerLimits): string {
  const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
  if (transport instanceof ProcessTransport) {
    const { server } = configured;
    const command = "command" in server ? server.command : "";
    if (transport.refused) return withOutput(transport.refused, transport, false);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `cannot start ${command}: no such command (ENOENT); is it installed, and on the PATH?`;
    if (code === "EACCES") return `cannot start ${command}: permission denied (EACCES)`;
    const exit = exitWords(transport);
    if (exit) return withOutput(`${exit} before it answered ${stage}`, transport);
    if (timedOut) return withOutput(`it did not answer ${stage} within ${limits.startupMs / 1000} s (its startupTimeout)`, transport);
    return withOutput(`its ${stage} failed: ${serverMessage(error)}`, transport);
  }
  const url = shownUrl(isRemote(configured.server) ? configured.server.url : "");
  if (timedOut) return `${url} did not answer ${stage} within ${limits.startupMs / 1000} s (its startupTimeout)`;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    const hint = error.code === 401 || error.code === 403 ? " (are its headers right? a token missing or wrong)" : error.code === 404 ? " (is the URL the server's MCP endpoint?)" : "";
    return `${url} answered ${stage} with HTTP ${error.code}${hint}`;
  }
  const network = classifyNetworkFailure(error);
  if (network) return `cannot reach ${url}: ${network.reason}`;
  return `its ${stage} failed: ${serverMessage(error)}`;
}

/** Why a server started by a command is gone, with what it said, or null while it runs (or for a URL). */
function exitReason(transport: ProcessTransport | StreamableHTTPClientTransport): string | null {
  if (!(transport instanceof ProcessTransport)) return null;
  if (transport.refused) return withOutput(transport.refused, transport, false);
  const exit = exitWords(transport);
  return exit ? withOutput(exit, transport) : null;
}

/** How the process ended, in words, or null while it runs. */
function exitWords(transport: ProcessTransport): string | null {
  const exit = transport.exit;
  if (!exit) return null;
  return exit.code !== null ? `it exited with code ${exit.code}` : exit.signal ? `it was ended by ${exit.signal}` : "it could not be started";
}

/** A reason with what the server said: the last line of its stderr, and what it wrote on stdout that is not MCP. */
function withOutput(reason: string, transport: ProcessTransport, stray = true): string {
  const stderr = transport.lastStderrLine();
  const strayLine = stray ? transport.firstStrayLine() : null;
  return [reason, ...(stderr ? [`its stderr ends: "${stderr}"`] : []), ...(strayLine ? [`it wrote on stdout what is not MCP: "${strayLine}"`] : [])].join("; ");
}

function serverMessage(error: unknown): string {
  return describeError(error).replace(/^MCP error -?\d+: /, "");
}
