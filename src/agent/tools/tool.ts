import type { JSONSchema7 } from "ai";
import type { z } from "zod";
import type { BackgroundJobs } from "./background-jobs.js";
import type { Sandbox } from "../sandbox/sandbox.js";

/**
 * How approval treats a tool: `read` never changes anything, `edit` changes files in the
 * workdir, `execute` runs commands, `interact` talks to the user (always allowed).
 */
export type ToolAccess = "read" | "edit" | "execute" | "interact";

/** What a tool may show the user and ask of them; absent pieces mean nobody is there. */
export interface ToolUi {
  /** Asks the user a question and returns the answer (only when a terminal is attached). */
  askUser?: (question: string, options: string[], signal: AbortSignal) => Promise<string>;
  /** Shows the model's current plan. */
  showPlan?: (items: PlanItem[]) => void;
}

export interface PlanItem {
  step: string;
  status: "pending" | "in_progress" | "done";
}

/** Where outputs too large for the model go, so the model can `read` them back later. */
export interface SpillStore {
  /** The folder (created on first write). */
  readonly dir: string;
  /** Writes a whole text and returns its absolute path. */
  write(name: string, content: string): string;
  /** Opens a file to stream into; returns its path and a sink. */
  open(name: string): { path: string; write(chunk: string): void; close(): Promise<void> };
}

export interface ToolContext {
  /** Every relative path is resolved against this folder. */
  workdir: string;
  /** Aborted when the user presses Ctrl-C or the run is cancelled: stop promptly. */
  signal: AbortSignal;
  callId: string;
  spill: SpillStore;
  ui: ToolUi;
  /** The environment commands run with (without the secrets, when a sandbox applies). */
  env: Record<string, string | undefined>;
  /** The run's sandbox (absent: none, as for programs that embed the loop without one). */
  sandbox?: Sandbox;
  /** What the user allowed this one call beyond the sandbox (see `SandboxNeeds`). */
  granted?: SandboxNeeds;
  /** Where commands left running (`background`) are kept until the run ends; absent: none may be. */
  jobs?: BackgroundJobs;
}

/**
 * What a call needs that the sandbox does not allow, for the user alone to grant for this one call
 * (never `--yes` or a `permissions` rule): paths to write outside the writable folders (each
 * the exact file or folder that would become writable), credential files to read, or a process
 * left running after the call.
 */
export interface SandboxNeeds {
  write?: string[];
  read?: string[];
  background?: boolean;
}

/** What a tool returns: `output` is what the model reads; `summary` is one line for the user. */
export interface ToolResult {
  output: string;
  /** The call failed; the model reads `output` as the error and can act on it. */
  isError?: boolean;
  summary?: string;
  /** A file holding the full output when `output` was cut short. */
  spillFile?: string;
  /**
   * The last lines of the output, shown to the user under the call's result line: each whole and
   * as plain text (see `visibleLine`), since they are redacted and shown as they are.
   */
  outputTail?: string[];
}

export interface AgentTool<I = any> {
  name: string;
  /** What the model reads to decide when and how to call the tool. */
  description: string;
  inputSchema: z.ZodType<I>;
  /**
   * The JSON Schema the model is sent, when the tool has one of its own (an MCP server's tool);
   * otherwise it is made from `inputSchema`, which still checks the arguments.
   */
  jsonSchema?: JSONSchema7;
  access: ToolAccess;
  /**
   * Where the tool's approval is set when not in `permissions` (an MCP server's tool:
   * `mcp.<server>.tools.<tool>`), and its policy there; see `ApprovalQuestion.rule`.
   */
  approvalRule?: { setting: string; policy?: "allow" | "ask" | "deny"; policySetting?: string };
  /** One line saying what this call would do, for progress lines and approval prompts. */
  describe(input: I, workdir: string): string;
  /** Why this call is dangerous (asks even in full-access), or null; `sandbox` is the run's, when it has one. */
  danger?(input: I, workdir: string, sandbox?: Sandbox): string | null;
  /** What this call needs beyond the sandbox, or null when nothing (see `SandboxNeeds`). */
  sandboxNeeds?(input: I, workdir: string, sandbox: Sandbox | undefined): SandboxNeeds | null;
  /** What the user should see before approving: the change an edit makes, the text a write puts. */
  preview?(input: I): string;
  execute(input: I, context: ToolContext): Promise<ToolResult>;
}

/** A failure the model should read and can recover from (bad path, no match, …). */
export class ToolError extends Error {
  override name = "ToolError";
}
