import { decideApproval, ruleSetting, type ApprovalDecision, type ApprovalMode, type ApprovalQuestion, type PermissionRules } from "./approval-policy.js";
import { QuestionTurns } from "../question-turns.js";

/** The user's answer: run it this once, run it and don't ask again this session, or refuse. */
export type ApprovalAnswer = "once" | "session" | "deny";

export interface ApprovalRequest extends ApprovalQuestion {
  callId: string;
  /** Which sub-agent asks (e.g. "sub-agent #3"); absent for the top-level agent. */
  agent?: string;
  /** Lines to show with the question (the change an edit makes, …), already redacted. */
  preview?: string;
  /** How many other questions wait for their turn behind this one (absent when none). */
  waiting?: number;
}

/**
 * What an approver answers: the user's answer, or "nobody" when it turned out nobody could be
 * asked after all (the only dashboard page that could answer was closed): the call is then
 * refused as when there is no approver at all.
 */
export type ApprovalReply = ApprovalAnswer | "nobody";

/** Whoever can approve: a terminal prompt, a dashboard page, or a host's callback. It is asked one question at a time. */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply>;

/** `noApprover`: refused only because the call had to ask and nobody can be asked (what makes `bosun run` exit 3). */
export type ApprovalOutcome = { allowed: true } | { allowed: false; message: string; noApprover?: true };

export interface ApprovalGateOptions {
  mode: ApprovalMode;
  rules: PermissionRules;
  /** Null when nobody can be asked (no terminal, no callback): asks are then refused. */
  approver: Approver | null;
  /** Grants already given in this session (restored on resume). */
  grants?: Set<string>;
  /** Called when the user grants something for the session (the loop records it). */
  onGrant?: (key: string) => void;
  /** The turns questions take; a sub-agent's gate shares its parent's. */
  questions?: QuestionTurns;
}

/**
 * Applies the approval rules to each tool call and asks the approver when they say so. The
 * message of a refusal is written for the model: what was refused, why, and what to do instead.
 *
 * The approver gets one question at a time for the whole agent tree (`questions`): a call that
 * must ask while another question is open waits for its turn, and is decided again when its turn
 * comes, since the answer to the question before it ("always for this session") may cover it.
 */
export class ApprovalGate {
  readonly mode: ApprovalMode;
  readonly rules: PermissionRules;
  readonly approver: Approver | null;
  readonly questions: QuestionTurns;
  private readonly grants: Set<string>;
  private readonly onGrant: ((key: string) => void) | undefined;

  constructor(options: ApprovalGateOptions) {
    this.mode = options.mode;
    this.rules = options.rules;
    this.approver = options.approver;
    this.grants = options.grants ?? new Set();
    this.onGrant = options.onGrant;
    this.questions = options.questions ?? new QuestionTurns();
  }

  async check(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalOutcome> {
    const decision = this.decide(request);
    if (decision.action !== "ask") return this.outcome(decision);
    const approver = this.approver;
    if (!approver) return { allowed: false, message: noApproverMessage(request, this.mode), noApprover: true };
    return this.questions.take(signal, async () => {
      const now = this.decide(request);
      if (now.action !== "ask") return this.outcome(now);
      const waiting = this.questions.waiting;
      const answer = await approver(waiting > 0 ? { ...request, waiting } : request, signal);
      if (answer === "nobody") return { allowed: false, message: noApproverMessage(request, this.mode), noApprover: true };
      if (answer === "deny") {
        return { allowed: false, message: "Not run: the user declined this call. Do not retry the same call; ask the user or try a different approach." };
      }
      if (answer === "session") {
        this.grants.add(now.grantKey);
        this.onGrant?.(now.grantKey);
      }
      return { allowed: true };
    });
  }

  /**
   * Asks the approver a question someone else's rules decided must be asked (a sub-agent on a
   * worker), in its turn with this tree's other questions; "nobody" when nobody can be asked.
   * A "session" answer is granted here too.
   */
  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> {
    const approver = this.approver;
    if (!approver) return "nobody";
    return this.questions.take(signal, async () => {
      const answer = await approver(this.questions.waiting > 0 ? { ...request, waiting: this.questions.waiting } : request, signal);
      if (answer === "session") {
        const decision = this.decide(request);
        if (decision.action === "ask") {
          this.grants.add(decision.grantKey);
          this.onGrant?.(decision.grantKey);
        }
      }
      return answer;
    });
  }

  /** What the user granted for the session so far (their keys), for a sub-agent's gate elsewhere. */
  grantKeys(): string[] {
    return [...this.grants];
  }

  /**
   * The gate for a sub-agent: same mode, rules, approver, grants and question turns, except that
   * dangerous calls are never loosened below "ask" (a child cannot run what its parent would have
   * had to ask about). With `label`, the approver is told which sub-agent asks.
   */
  forSubAgent(label?: string): ApprovalGate {
    const rules: PermissionRules = { ...this.rules, dangerous: this.rules.dangerous === "deny" ? "deny" : "ask" };
    const parent = this.approver;
    const approver: Approver | null = parent && label ? (request, signal) => parent({ ...request, agent: request.agent ?? label }, signal) : parent;
    return new ApprovalGate({ mode: this.mode, rules, approver, grants: this.grants, questions: this.questions, ...(this.onGrant ? { onGrant: this.onGrant } : {}) });
  }

  private decide(request: ApprovalRequest): ApprovalDecision {
    return decideApproval(request, this.mode, this.rules, this.grants);
  }

  private outcome(decision: Exclude<ApprovalDecision, { action: "ask" }>): ApprovalOutcome {
    if (decision.action === "allow") return { allowed: true };
    return { allowed: false, message: `Not run: ${decision.reason}. Do not retry it; find another way or tell the user what you need.` };
  }
}

function noApproverMessage(request: ApprovalRequest, mode: ApprovalMode): string {
  if (request.escape) {
    return (
      `Not run: this call ${request.escape}, which only the user can allow (not --yes, not a permissions rule), and nobody can approve in this session ` +
      "(bosun is not attached to a terminal). Do not retry it. Work inside the working directory, or tell the user what you need: they can add a folder to sandbox.writable in bosun.json."
    );
  }
  if (request.danger) {
    return (
      `Not run: this call ${request.danger}, which always needs the user's approval (even with --yes), and nobody can approve in this session ` +
      "(bosun is not attached to a terminal). Do not retry it. Tell the user what you wanted to run; they can run it themselves or set permissions.dangerous to allow in bosun.json."
    );
  }
  return (
    `Not run: ${request.tool} needs the user's approval in ${mode} mode, and nobody can approve in this session (bosun is not attached to a terminal). ` +
    `Do not retry it. Tell the user what you wanted to do; they can rerun with --yes or --mode, or set ${ruleSetting(request)} to allow in bosun.json.`
  );
}
