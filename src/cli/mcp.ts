import type { Command } from "commander";
import { collect } from "./collect-flag.js";
import type { McpServeFlags } from "./mcp-serve.js";
import type { McpSyncFlags } from "./mcp-sync.js";
import type { Output } from "./output.js";

/**
 * `bosun mcp`: the MCP servers of `bosun.json` synced into every agent (`sync`), started and
 * listed as bosun's own agent sees them (`list`, `test`), and bosun itself as an MCP server
 * (`serve`). Each subcommand loads only its own module.
 */
export function registerMcp(program: Command, output: Output): void {
  const mcp = program.command("mcp").description("MCP servers: sync bosun.json's into every agent, list and test them, serve bosun itself over MCP");
  mcp
    .command("sync")
    .description("write the MCP servers of bosun.json into every detected agent (global servers into the agents' user config, a project's into the project)")
    .option("--runtime <ids>", "only these runtimes, comma-separated or repeated (claude, codex, gemini, opencode, …)", collect)
    .option("--dry-run", "show the plan and change nothing")
    .option("-y, --yes", "apply without asking, and keep yours where a server of yours has the same name")
    .option("--json", "print the result as JSON")
    .action(async (flags: McpSyncFlags) => (await import("./mcp-sync.js")).mcpSyncAction(flags, output));
  mcp
    .command("list")
    .description("start the MCP servers of bosun.json and list each one's state and tools, as `bosun run` would see them")
    .option("--json", "print the list as JSON")
    .action(async (flags: { json?: boolean }) => (await import("./mcp-list.js")).mcpListAction(flags, output));
  mcp
    .command("test")
    .description("start one MCP server of bosun.json, list its tools and stop it; exit 1 with the reason when it fails")
    .argument("<name>", "the server's name in bosun.json mcp")
    .option("--json", "print the result as JSON")
    .action(async (name: string, flags: { json?: boolean }) => (await import("./mcp-list.js")).mcpTestAction(name, flags, output));
  mcp
    .command("serve")
    .description("run bosun as an MCP server on stdin/stdout: agents and sign-in, installed packs and drift, catalog search, doctor, and delegate to bosun's sub-agents")
    .option("--mode <mode>", "approval mode of delegated tasks: ask, auto-edit or full-access (default: permissions.mode in bosun.json, else ask); calls that would need approval are refused")
    .option("-y, --yes", "full-access mode for delegated tasks: every tool without asking (dangerous calls are still refused)")
    .action(async (flags: McpServeFlags) => (await import("./mcp-serve.js")).mcpServeAction(flags, output));
}
