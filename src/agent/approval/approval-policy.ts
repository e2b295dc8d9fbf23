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
  /**
   * The tool's own rule when it is set outside `permissions` (an MCP server's tool: `mcp.<server>`
   * in bosun.json): where the user sets it, and its policy there, if any. It takes the place of
   * `permissions.<tool>` in the rules below, and messages name `setting`.
   */
  rule?: ToolRule;
}

/**
 * A tool's approval rule set outside `permissions`: the setting that changes it, and its policy
 * when the user gave one, with the setting that policy comes from when that is another (a whole
 * MCP server's `mcp.<server>.approval`).
 */
export interface ToolRule {
  setting: string;
  policy?: ApprovalPolicy;
  policySetting?: string;
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
 * 1. a tool whose policy (`permissions.<tool>`, or the tool's own `rule`) is `deny` never runs;
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
  const toolPolicy = question.rule ? question.rule.policy : policyOf(rules[question.tool]);
  if (toolPolicy === "deny") return { action: "deny", reason: `${question.rule?.policySetting ?? ruleSetting(question)} is deny in bosun.json` };
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

/** Where the user sets a tool's approval: `permissions.<tool>`, or the tool's own rule. */
export function ruleSetting(question: Pick<ApprovalQuestion, "tool" | "rule">): string {
  return question.rule?.setting ?? `permissions.${question.tool}`;
}

function defaultPolicy(access: ToolAccess, mode: ApprovalMode): ApprovalPolicy {
  if (access === "read" || access === "interact") return "allow";
  if (access === "edit") return mode === "ask" ? "ask" : "allow";
  return "ask";
}

function policyOf(value: ApprovalPolicy | ApprovalMode | undefined): ApprovalPolicy | undefined {
  return value === "allow" || value === "ask" || value === "deny" ? value : undefined;
}
