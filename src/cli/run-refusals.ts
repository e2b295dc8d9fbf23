import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import type { ToolAccess } from "../agent/tools/tool.js";

/** A tool call refused because it needed approval and bosun had no terminal to ask on. */
export interface UnapprovedCall {
  tool: string;
  access: ToolAccess;
  dangerous: boolean;
  /** It needed more than the sandbox allows: no flag or rule allows that, only a person at a terminal. */
  sandbox: boolean;
  /** Where its rule is set when not in `permissions` (an MCP server's tool: `mcp.<server>.tools.<tool>`). */
  setting?: string;
}

/** The exit code of a run that finished but had tool calls refused for want of approval. */
export const EXIT_UNAPPROVED = 3;

/**
 * The closing line of such a run: how many calls, which tools, and each way to allow them that
 * would work for these calls (auto-edit only helps edits in ask mode, --yes never helps a
 * dangerous call), ending with the `permissions` rule for exactly the refused tools (for an MCP
 * server's tool, its `mcp.<server>.tools.<tool>` setting). A call that
 * needed more than the sandbox allows can only be allowed at a terminal (or by widening the
 * sandbox in bosun.json): none of the flags or rules is offered for it.
 */
export function unapprovedAdvice(calls: UnapprovedCall[], mode: ApprovalMode): string {
  const ruled = calls.filter((call) => !call.sandbox);
  const plain = ruled.filter((call) => !call.dangerous);
  const ways = ["rerun in a terminal to be asked"];
  if (mode === "ask" && plain.some((call) => call.access === "edit")) ways.push("with --mode auto-edit (edits)");
  if (plain.length > 0) ways.push("with --yes (everything but dangerous calls)");
  const rules: string[] = [...new Set(plain.filter((call) => !call.setting).map((call) => call.tool))].map((tool) => `"${tool}": "allow"`);
  if (ruled.some((call) => call.dangerous)) rules.push('"dangerous": "allow"');
  if (rules.length > 0) ways.push(`set in bosun.json "permissions": { ${rules.join(", ")} }`);
  const settings = [...new Set(plain.flatMap((call) => (call.setting ? [call.setting] : [])))];
  if (settings.length > 0) ways.push(`set ${settings.join(", ")} to "allow" in bosun.json`);
  if (calls.some((call) => call.sandbox)) ways.push('for what the sandbox stopped: add the folders to write to "sandbox.writable", or the credential files to read to "sandbox.readable", in your own bosun.json');

  const counts = new Map<string, number>();
  for (const call of calls) {
    const name = call.sandbox ? `${call.tool} (beyond the sandbox)` : call.dangerous ? `${call.tool} (dangerous)` : call.tool;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const tools = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
  const one = calls.length === 1;
  return (
    `${calls.length} tool call${one ? " was" : "s were"} refused (${tools}): ${one ? "it" : "they"} needed approval and bosun is not attached to a terminal; ` +
    `to allow ${one ? "it" : "them"}: ${ways.join(", or ")}`
  );
}
