import type { ToolAccess } from "../tools/tool.js";

export const APPROVAL_MODES = ["ask", "auto-edit", "full-access"] as const;
/** `ask`: edits and commands ask; `auto-edit`: edits are allowed, commands ask; `full-access`: all allowed. */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export const APPROVAL_POLICIES = ["allow", "ask", "deny"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/** `bosun.json` `permissions`, as the approval rules read it. */
export interface PermissionRules {
  mode?: ApprovalMode;
  /** For calls the dangerous-command detector flags; default ask. */
  dangerous?: ApprovalPolicy;
  [tool: string]: ApprovalPolicy | ApprovalMode | undefined;
}

export interface ApprovalQuestion {
  tool: string;
  access: ToolAccess;
  /** Why this call is dangerous, or null. */
  danger: string | null;
  /** What the call does, one line (dangerous calls are granted "for the session" by it). */
  description: string;
  /**
   * What the call needs beyond the sandbox, one line ("writes outside the sandbox: /x"), or
   * null. Only the user can allow it: no mode or rule does.
   */
  escape?: string | null;
}

export type ApprovalDecision =
  | { action: "allow" }
  | { action: "deny"; reason: string }
  /** Ask the user; `grantKey` is what an "always for this session" answer remembers. */
  | { action: "ask"; grantKey: string };

/**
 * Whether a tool call may run, must be asked about, or is refused. Pure: the mode, the
 * `permissions` rules and this session's grants are arguments. The order of the rules:
 *
 * 1. a tool whose policy is `deny` never runs;
 * 1b. a call that needs more than the sandbox allows asks, in every mode, whatever the rules say;
 * 2. a dangerous call asks in every mode (full-access included) unless `permissions.dangerous` is
 *    `allow` (it then follows the rules below) or `deny` (refused);
 * 3. full-access allows everything else;
 * 4. a tool's own policy (`allow` or `ask`) comes next;
 * 5. otherwise the mode decides: reading and talking to the user are always allowed; edits ask in
 *    `ask` mode; commands ask in `ask` and `auto-edit`.
 *
 * An ask that the user answered "always for this session" is remembered by tool name (by the
 * exact command for a dangerous one, and for one that needs more than the sandbox) and not asked again.
 */
export function decideApproval(question: ApprovalQuestion, mode: ApprovalMode, rules: PermissionRules, grants: ReadonlySet<string>): ApprovalDecision {
  const toolPolicy = policyOf(rules[question.tool]);
  if (toolPolicy === "deny") return { action: "deny", reason: `permissions.${question.tool} is deny in bosun.json` };
  if (question.escape) {
    const grantKey = `${question.tool}!sandbox!${question.description}!${question.escape}`;
    return grants.has(grantKey) ? { action: "allow" } : { action: "ask", grantKey };
  }
  if (question.danger) {
    const dangerous = rules.dangerous ?? "ask";
    if (dangerous === "deny") return { action: "deny", reason: `it ${question.danger}, and permissions.dangerous is deny in bosun.json` };
    if (dangerous === "ask") {
      const grantKey = `${question.tool}!${question.description}`;
      return grants.has(grantKey) ? { action: "allow" } : { action: "ask", grantKey };
    }
  }
  if (mode === "full-access") return { action: "allow" };
  const policy = toolPolicy ?? defaultPolicy(question.access, mode);
  if (policy === "allow") return { action: "allow" };
  return grants.has(question.tool) ? { action: "allow" } : { action: "ask", grantKey: question.tool };
}

function defaultPolicy(access: ToolAccess, mode: ApprovalMode): ApprovalPolicy {
  if (access === "read" || access === "interact") return "allow";
  if (access === "edit") return mode === "ask" ? "ask" : "allow";
  return "ask";
}

function policyOf(value: ApprovalPolicy | ApprovalMode | undefined): ApprovalPolicy | undefined {
  return value === "allow" || value === "ask" || value === "deny" ? value : undefined;
}
