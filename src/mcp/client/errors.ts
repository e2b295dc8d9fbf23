import { UserError } from "../../kernel/errors.js";

/**
 * A configured server bosun cannot use: it would not start, does not speak MCP, or stopped. The
 * message names the server and the `bosun.json` that declared it, so the line alone says what to
 * fix and where; a run goes on without the server, `bosun mcp test` exits 1 with it.
 */
export class McpServerError extends UserError {
  override name = "McpServerError";
  constructor(
    readonly server: string,
    /** The `bosun.json` as shown (`~/…`). */
    readonly file: string,
    readonly reason: string,
  ) {
    super(`MCP server ${server} (declared in ${file}): ${reason}`);
  }
}

/** One tool call that failed (no answer in time, the server stopped, an invalid result): the model reads the message. */
export class McpCallError extends Error {
  override name = "McpCallError";
}

/** A server's name that `bosun.json` does not declare (`bosun mcp test NAME`); the message lists the names it does. */
export class UnknownMcpServerError extends UserError {
  override name = "UnknownMcpServerError";
  constructor(
    readonly server: string,
    readonly known: readonly string[],
  ) {
    super(
      known.length === 0
        ? `no MCP server named ${JSON.stringify(server)}: bosun.json declares no MCP servers (add them under "mcp", in your global bosun.json or the project's)`
        : `no MCP server named ${JSON.stringify(server)} in bosun.json; the configured ones are ${known.join(", ")}`,
    );
  }
}
