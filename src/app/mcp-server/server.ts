import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeError, isUserError } from "../../kernel/errors.js";
import { packageVersion } from "../../kernel/package-info.js";
import type { Redactor } from "../../kernel/redact/secrets.js";
import { UnknownToolError } from "./errors.js";
import { checkToolInput, inputJsonSchema } from "./tool-input.js";
import { answerResult, errorResult } from "./tool-result.js";
import type { ServeContext, ServerTool } from "./tool.js";
import { SERVER_TOOLS } from "./tools.js";

/** How long a stop waits for running calls to end after cancelling them (a delegate saves its session). */
const STOP_WAIT_MS = 10_000;

const INSTRUCTIONS =
  "bosun is a host for AI coding agents. Its read-only tools say which coding agents are installed and signed in (agents), which workflow packs bosun installed into them and what drifted (installed_packs), " +
  "which models bosun's catalog has and which can be used (catalog_search), and whether the installed packs work (doctor). delegate runs tasks on bosun's own agent and its sub-agents, " +
  "under the approval rules bosun mcp serve was started with: a tool call that would need the user's approval is refused.";

export interface McpServeOptions {
  context: ServeContext;
  /** The protocol's streams: JSON-RPC messages in, and out (nothing else is written there). */
  stdin: Readable;
  stdout: Writable;
  /** Every answer goes through it (serve-redactor.ts). */
  redactor: Redactor;
  tools?: readonly ServerTool[];
}

export interface McpServeHandle {
  /** Settles once the server has stopped: stdin closed, or `close`. */
  readonly closed: Promise<void>;
  /** Cancels every running call, waits for them (bounded) to answer, and closes the connection; `why` goes to the log. */
  close(why: string): Promise<void>;
}

/**
 * bosun as an MCP server over stdio, with the SDK's low-level Server: the tools are bosun's
 * (tools.ts), their input is checked here (one line for a wrong argument, not the SDK's list of
 * zod issues), and each call gets a signal (the caller's cancellation, or the server stopping) and
 * a progress reporter (when the caller sent a progressToken). A call that fails answers with an
 * MCP tool error in one line; the log has every call. The server stops when stdin ends.
 */
export async function serveMcp(options: McpServeOptions): Promise<McpServeHandle> {
  const { context, redactor, stdin } = options;
  const { log } = context.boot;
  const tools = options.tools ?? SERVER_TOOLS;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: "bosun", title: "bosun", version: packageVersion() }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  const running = new Set<{ controller: AbortController; done: Promise<CallToolResult> }>();

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const controller = new AbortController();
    const cancel = () => controller.abort(extra.signal.reason);
    if (extra.signal.aborted) cancel();
    else extra.signal.addEventListener("abort", cancel, { once: true });
    const token = request.params._meta?.progressToken;
    let step = 0;
    const progress = (message: string) => {
      if (token === undefined) return;
      step++;
      // Progress is best effort: a caller that is gone does not fail the call.
      extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: step, message: redactor.text(message) } }).catch(() => undefined);
    };
    const name = request.params.name;
    const started = Date.now();
    const done = (async (): Promise<CallToolResult> => {
      try {
        const tool = byName.get(name);
        if (!tool) throw new UnknownToolError(name, [...byName.keys()]);
        const input = checkToolInput(tool, request.params.arguments);
        const answer = await tool.call(input, context, { signal: controller.signal, progress });
        log.info("mcp tool call", { tool: name, ms: Date.now() - started, ...(answer.isError ? { isError: true } : {}), ...(controller.signal.aborted ? { cancelled: true } : {}) });
        return answerResult(answer, redactor);
      } catch (error) {
        const line = errorLine(error);
        log.warn("mcp tool call failed", { tool: name.slice(0, 60), ms: Date.now() - started, error: redactor.text(line) });
        return errorResult(line, redactor);
      }
    })();
    const entry = { controller, done };
    running.add(entry);
    try {
      return await done;
    } finally {
      running.delete(entry);
      extra.signal.removeEventListener("abort", cancel);
    }
  });
  server.onerror = (error) => log.warn("mcp server error", { error: redactor.text(describeError(error)) });

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  let stopping: Promise<void> | null = null;
  const close = (why: string): Promise<void> =>
    (stopping ??= (async () => {
      log.info("mcp server stopping", { reason: why, running: running.size });
      for (const entry of running) entry.controller.abort(new Error(why));
      await settledWithin([...running].map((entry) => entry.done), STOP_WAIT_MS);
      // The calls' answers (a cancelled delegate's report) go out before the connection closes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    })());
  // The stdio transport reads stdin but does not watch its end: the caller closing it is the end of the session.
  const onEnd = () => void close("stdin closed");
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  await server.connect(new StdioServerTransport(stdin, options.stdout));
  log.info("mcp server started", { tools: tools.map((tool) => tool.name), mode: context.mode, cwd: context.cwd });
  return { closed, close };
}

function describeTool(tool: ServerTool): Tool {
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: inputJsonSchema(tool), annotations: { title: tool.title, ...tool.annotations } };
}

/** What a failed call answers: a user error's own line, anything else as an internal error; always one line. */
function errorLine(error: unknown): string {
  const line = isUserError(error) ? error.message : `internal error: ${describeError(error)}`;
  return line.replace(/\s*\n\s*/g, " ").trim();
}

/** Waits for the promises to settle, or for `ms`, whichever comes first. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
