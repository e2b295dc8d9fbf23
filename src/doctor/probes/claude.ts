import { isObject, jsonLines, strings, type CliListing, type ListedHook } from "../listing.js";
import { claudeMcpServers } from "./mcp-lists.js";

/**
 * `claude -p --output-format stream-json --verbose x`: the stream's `system/init` event lists the
 * skills, slash commands (skills too), agents and MCP servers (each started, with how that went)
 * Claude loaded, global and project; the hook
 * events before it say how each SessionStart hook ran (no other event's hooks run before the
 * model is asked, and Claude lists none). Null when there is no init event.
 */
export function parseClaudeStream(stdout: string): CliListing | null {
  const events = jsonLines(stdout);
  const init = events.find((event) => event.type === "system" && event.subtype === "init");
  if (!init) return null;
  const hooks: ListedHook[] = [];
  for (const event of events) {
    if (event.type !== "system" || event.subtype !== "hook_response" || typeof event.hook_event !== "string") continue;
    const exitCode = typeof event.exit_code === "number" ? event.exit_code : null;
    const stdoutText = typeof event.stdout === "string" ? event.stdout : "";
    hooks.push({ event: event.hook_event, ran: { ok: event.outcome === "success", exitCode, printedBosunLine: /^bosun\b/.test(stdoutText) } });
  }
  return {
    skills: strings(init.skills).map((name) => ({ name })),
    commands: strings(init.slash_commands).map((name) => ({ name })),
    agents: strings(init.agents).map((name) => ({ name })),
    mcpServers: claudeMcpServers(init.mcp_servers),
    hooks,
    // It lists no hooks: only the SessionStart ones it ran before the init event show.
    hookEvents: ["SessionStart"],
    errors: [],
  };
}

/** The init event is there: the probe can stop Claude before it tries the model. */
export function claudeInitSeen(stdout: string): boolean {
  return /"subtype"\s*:\s*"init"[^\n]*\n/.test(stdout) && jsonLines(stdout).some((event) => isObject(event) && event.subtype === "init");
}
