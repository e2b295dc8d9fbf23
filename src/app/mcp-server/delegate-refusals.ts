import type { ApprovalMode } from "../../agent/approval/approval-policy.js";
import type { RefusedCall } from "./delegate-tally.js";

/**
 * The note under a delegate result whose sub-agents had calls refused: how many, which tools, and
 * each way to allow them that would work (as `bosun run` says it without a terminal, for a server
 * that has none): the server's approval mode, a `permissions` rule (or the tool's own setting),
 * and for what the sandbox stopped, only widening the sandbox. Nothing a caller sends can
 * loosen the rules; these are the user's to change. Null when nothing was refused.
 */
export function refusalNote(calls: readonly RefusedCall[], mode: ApprovalMode): string | null {
  if (calls.length === 0) return null;
  const ruled = calls.filter((call) => !call.sandbox);
  const plain = ruled.filter((call) => !call.dangerous);
  const ways: string[] = [];
  if (mode === "ask" && plain.some((call) => call.access === "edit")) ways.push("start bosun mcp serve with --mode auto-edit (edits)");
  if (plain.length > 0) ways.push("start it with --yes (everything but dangerous calls)");
  const rules = [...new Set(plain.filter((call) => !call.setting).map((call) => call.tool))].map((tool) => `"${tool}": "allow"`);
  if (ruled.some((call) => call.dangerous)) rules.push('"dangerous": "allow"');
  if (rules.length > 0) ways.push(`set in bosun.json "permissions": { ${rules.join(", ")} }`);
  for (const setting of new Set(plain.flatMap((call) => (call.setting ? [call.setting] : [])))) ways.push(`set ${setting} to allow in bosun.json`);
  if (calls.some((call) => call.sandbox)) ways.push('for what the sandbox stopped: add the folders to "sandbox.writable" (or credential files to "sandbox.readable") in your own bosun.json');

  const counts = new Map<string, number>();
  for (const call of calls) {
    const name = call.sandbox ? `${call.tool} (beyond the sandbox)` : call.dangerous ? `${call.tool} (dangerous)` : call.tool;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const tools = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
  const one = calls.length === 1;
  return `${calls.length} tool call${one ? " was" : "s were"} refused (${tools}): ${one ? "it" : "they"} needed approval in ${mode} mode, and nobody can approve a delegated task; to allow ${one ? "it" : "them"}: ${ways.join(", or ")}`;
}
