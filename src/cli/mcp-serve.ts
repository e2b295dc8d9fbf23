import { Console } from "node:console";
import type { Readable, Writable } from "node:stream";
import type { ApprovalModeFlags } from "./approval-mode-flag.js";
import { bootForCommand } from "./boot.js";
import type { Output } from "./output.js";

/** `bosun mcp serve`'s flags: the approval mode of delegated tasks (as `bosun run --mode`/`--yes`). */
export type McpServeFlags = ApprovalModeFlags;

/**
 * `bosun mcp serve`: bosun as an MCP server on stdin/stdout (src/app/mcp-server/). stdout carries
 * the protocol and nothing else: bosun starts with its stdout pointed at stderr, and so does the
 * console (a library that logs would otherwise break the protocol). Delegated tasks run in the
 * approval mode of the flags, else bosun.json `permissions.mode`, else ask; nobody can approve,
 * so what would ask is refused. The server stops when stdin ends, or on SIGTERM or SIGINT,
 * cancelling what runs first.
 */
export async function mcpServeAction(flags: McpServeFlags, output: Output): Promise<void> {
  const modeFlag = (await import("./approval-mode-flag.js")).approvalModeFlag(flags);
  globalThis.console = new Console({ stdout: output.stderr, stderr: output.stderr });
  const boot = await bootForCommand({ ...output, stdout: output.stderr });
  const [{ serveMcp }, { serveRedactor }] = await Promise.all([import("../app/mcp-server/server.js"), import("../app/mcp-server/serve-redactor.js")]);
  const mode = modeFlag ?? boot.config?.value.permissions?.mode ?? "ask";
  const server = await serveMcp({
    context: { boot, cwd: process.cwd(), mode },
    stdin: (output.stdin ?? process.stdin) as Readable,
    stdout: output.stdout as Writable,
    redactor: await serveRedactor(boot),
  });
  // The first signal stops the server cleanly; a second one (a stop that takes too long) quits at once.
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) process.exit(signal === "SIGINT" ? 130 : 143);
    void server.close(signal);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    await server.closed;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
}
