import type { ApprovalMode } from "../../agent/approval/approval-policy.js";
import { approvalWays, refusedTools } from "../../agent/approval/refusal-advice.js";
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
  const ways = approvalWays(calls, mode, { autoEdit: "start bosun mcp serve with --mode auto-edit (edits)", yes: "start it with --yes (everything but dangerous calls)" });
  const one = calls.length === 1;
  return `${calls.length} tool call${one ? " was" : "s were"} refused (${refusedTools(calls)}): ${one ? "it" : "they"} needed approval in ${mode} mode, and nobody can approve a delegated task; to allow ${one ? "it" : "them"}: ${ways.join(", or ")}`;
}
