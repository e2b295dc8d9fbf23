import type { ToolAccess } from "../tools/tool.js";
import type { ApprovalMode } from "./approval-policy.js";

/** A tool call refused because it needed an approval nobody could give. */
export interface RefusedApproval {
  tool: string;
  access: ToolAccess;
  dangerous: boolean;
  /** It needed more than the sandbox allows: no flag or rule allows that, only widening the sandbox (or a person at a terminal). */
  sandbox: boolean;
  /** Where its rule is set when not in `permissions` (an MCP server's tool: `mcp.<server>.tools.<tool>`). */
  setting?: string;
}

/** How the flags that loosen the mode are given where the refused calls ran (`bosun run`'s own, or `bosun mcp serve`'s). */
export interface ModeFlagWords {
  autoEdit: string;
  yes: string;
}

/**
 * Each way to allow the refused calls that would work for them, none looser than they need:
 * auto-edit only helps edits in ask mode, `--yes` never helps a dangerous call, then the
 * `permissions` rule for exactly the refused tools (an MCP tool's own setting instead), and for
 * what the sandbox stopped only widening the sandbox.
 */
export function approvalWays(calls: readonly RefusedApproval[], mode: ApprovalMode, flags: ModeFlagWords): string[] {
  const ruled = calls.filter((call) => !call.sandbox);
  const plain = ruled.filter((call) => !call.dangerous);
  const ways: string[] = [];
  if (mode === "ask" && plain.some((call) => call.access === "edit")) ways.push(flags.autoEdit);
  if (plain.length > 0) ways.push(flags.yes);
  const rules = [...new Set(plain.filter((call) => !call.setting).map((call) => call.tool))].map((tool) => `"${tool}": "allow"`);
  if (ruled.some((call) => call.dangerous)) rules.push('"dangerous": "allow"');
  if (rules.length > 0) ways.push(`set in bosun.json "permissions": { ${rules.join(", ")} }`);
  const settings = [...new Set(plain.flatMap((call) => (call.setting ? [call.setting] : [])))];
  if (settings.length > 0) ways.push(`set ${settings.join(", ")} to "allow" in bosun.json`);
  if (calls.some((call) => call.sandbox)) ways.push('for what the sandbox stopped: add the folders to write to "sandbox.writable", or the credential files to read to "sandbox.readable", in your own bosun.json');
  return ways;
}

/** The refused calls by tool, for one line: `bash ×2, edit, write (beyond the sandbox)`. */
export function refusedTools(calls: readonly RefusedApproval[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) {
    const name = call.sandbox ? `${call.tool} (beyond the sandbox)` : call.dangerous ? `${call.tool} (dangerous)` : call.tool;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}
