import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import { approvalWays, refusedTools, type RefusedApproval } from "../agent/approval/refusal-advice.js";

/** A tool call refused because it needed approval and bosun had no terminal to ask on. */
export type UnapprovedCall = RefusedApproval;

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
  const ways = ["rerun in a terminal to be asked", ...approvalWays(calls, mode, { autoEdit: "with --mode auto-edit (edits)", yes: "with --yes (everything but dangerous calls)" })];
  const one = calls.length === 1;
  return (
    `${calls.length} tool call${one ? " was" : "s were"} refused (${refusedTools(calls)}): ${one ? "it" : "they"} needed approval and bosun is not attached to a terminal; ` +
    `to allow ${one ? "it" : "them"}: ${ways.join(", or ")}`
  );
}
