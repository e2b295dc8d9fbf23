import type { ToolResultPart } from "ai";
import { describeError } from "../../kernel/errors.js";
import type { ApprovalGate, ApprovalOutcome } from "../approval/approval.js";
import type { AgentUi } from "../events.js";
import type { AgentHooks, AgentInfo, ToolBeforeCall } from "../hooks.js";
import type { StepToolCall } from "../model/step.js";
import type { Redactor } from "../../kernel/redact/secrets.js";
import type { ToolStatus } from "../session/format.js";
import type { Session } from "../session/store.js";
import type { ToolRegistry } from "./tool-registry.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { BackgroundJobs } from "./background-jobs.js";
import { showPath } from "./paths.js";
import { ToolError, type AgentTool, type SandboxNeeds, type ToolAccess, type ToolContext } from "./tool.js";

/** No tool result reaches the model longer than this; the whole text goes to a spill file. */
export const MAX_TOOL_OUTPUT_CHARS = 50_000;

export interface ToolRunDeps {
  registry: ToolRegistry;
  approval: ApprovalGate;
  hooks: AgentHooks;
  agent: AgentInfo;
  redactor: Redactor;
  session: Session;
  ui: AgentUi;
  workdir: string;
  env: ToolContext["env"];
  signal: AbortSignal;
  sandbox?: Sandbox;
  jobs?: BackgroundJobs;
}

export interface ToolRunOutcome {
  part: ToolResultPart;
  status: ToolStatus;
}

/**
 * Runs one tool call the model asked for: check the arguments, let `tool_before` extensions veto
 * it, ask for approval, execute, cap and redact the output, let `tool_after` extensions see it.
 * Whatever goes wrong becomes a result the model can read and act on; nothing here throws.
 */
export async function runToolCall(call: StepToolCall, deps: ToolRunDeps): Promise<ToolRunOutcome> {
  const started = Date.now();
  const end = (ending: Ending) => endCall(call, deps, started, ending);
  const checked = checkCall(call, deps);
  if ("status" in checked) return end(checked);
  deps.ui.onEvent({ type: "tool-start", callId: call.toolCallId, tool: checked.tool.name, description: checked.description });
  const refused = await clearCall(call, checked, deps);
  if (refused) return end(refused);
  const ran = await executeCall(call, checked, deps);
  if (deps.signal.aborted) return end({ status: "aborted", output: `${ran.output}\n(The user cancelled the run.)`, summary: "cancelled", isError: true, spill: ran.spill });
  return end(await afterCall(call, checked, capOutput(call, checked.tool, ran, deps), deps));
}

/** How a call ended: what the model is given, and what the UI and the session are told. */
interface Ending {
  status: ToolStatus;
  output: string;
  summary: string;
  isError: boolean;
  spill?: string | undefined;
  shown?: ToolEndDetails;
}

/** A call whose arguments are valid, with what its question and its sandbox need of it. */
interface CheckedCall {
  tool: AgentTool;
  input: unknown;
  description: string;
  danger: string | null;
  needs: SandboxNeeds | null;
}

/** What a tool's execution gave, before the output is capped. */
interface Ran {
  output: string;
  summary: string;
  isError: boolean;
  spill?: string | undefined;
  outputTail?: string[] | undefined;
}

/** Redacts what the call ended with, tells the UI and the session, and makes the model's result. */
function endCall(call: StepToolCall, deps: ToolRunDeps, started: number, ending: Ending): ToolRunOutcome {
  const { status, output, summary, isError, spill, shown = {} } = ending;
  const value = deps.redactor.text(output);
  const shortSummary = deps.redactor.text(summary);
  const ms = Date.now() - started;
  const outputTail = shown.outputTail && shown.outputTail.length > 0 ? deps.redactor.text(shown.outputTail.join("\n")).split("\n") : undefined;
  deps.ui.onEvent({
    type: "tool-end",
    callId: call.toolCallId,
    tool: call.toolName,
    status,
    summary: shortSummary,
    ms,
    ...(outputTail ? { outputTail } : {}),
    ...(shown.unapproved ? { unapproved: shown.unapproved } : {}),
  });
  deps.session.append({ type: "tool", callId: call.toolCallId, tool: call.toolName, status, summary: shortSummary, ms, ...(spill ? { spill } : {}) });
  return {
    status,
    part: { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: isError ? { type: "error-text", value } : { type: "text", value } },
  };
}

/** The call as the model made it: a known tool, arguments its schema takes, a description it can give. */
function checkCall(call: StepToolCall, deps: ToolRunDeps): CheckedCall | Ending {
  const invalid = (output: string, summary: string): Ending => ({ status: "error", output, summary, isError: true });
  if (call.invalid) return invalid(`Error: ${call.invalid}`, "invalid call");
  const tool = deps.registry.get(call.toolName);
  if (!tool) return invalid(`Error: there is no tool named ${call.toolName}; the tools are ${deps.registry.names().join(", ")}`, "unknown tool");
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return invalid(`Error: invalid arguments for ${tool.name}: ${describeIssues(parsed.error.issues)}`, "invalid arguments");
  const input: unknown = parsed.data;
  try {
    return {
      tool,
      input,
      description: deps.redactor.text(tool.describe(input, deps.workdir)),
      danger: tool.danger?.(input, deps.workdir, deps.sandbox) ?? null,
      needs: tool.sandboxNeeds?.(input, deps.workdir, deps.sandbox) ?? null,
    };
  } catch (error) {
    return invalid(`Error: ${describeError(error)}`, "invalid arguments");
  }
}

/** Whether the call may run: not vetoed by a `tool_before` extension, not cancelled, approved; null when it may. */
async function clearCall(call: StepToolCall, { tool, input, description, danger, needs }: CheckedCall, deps: ToolRunDeps): Promise<Ending | null> {
  const before: ToolBeforeCall = { name: tool.name, callId: call.toolCallId, input };
  await deps.hooks.toolBefore(deps.agent, before);
  if (typeof before.veto === "string" && before.veto !== "") {
    return { status: "vetoed", output: `Not run: an extension refused this call: ${before.veto}`, summary: `vetoed: ${before.veto}`, isError: true };
  }
  if (deps.signal.aborted) return { status: "aborted", output: "Not run: the user cancelled the run.", summary: "cancelled", isError: true };

  const preview = tool.preview ? deps.redactor.text(tool.preview(input)) : undefined;
  const escape = needs ? deps.redactor.text(describeNeeds(needs, deps.workdir)) : null;
  const question = { tool: tool.name, access: tool.access, danger, description, ...(escape ? { escape } : {}), ...(tool.approvalRule ? { rule: tool.approvalRule } : {}) };
  const approval: ApprovalOutcome = await deps.approval.check({ ...question, callId: call.toolCallId, ...(preview ? { preview } : {}) }, deps.signal).catch((error: unknown) => {
    if (deps.signal.aborted) return { allowed: false as const, message: "Not run: the user cancelled the run." };
    return { allowed: false as const, message: `Not run: asking for approval failed (${describeError(error)}).` };
  });
  if (approval.allowed) return null;
  if (deps.signal.aborted) return { status: "aborted", output: approval.message, summary: "cancelled", isError: true };
  return {
    status: "denied",
    output: approval.message,
    summary: `denied: ${approval.message.replace(/^Not run: /, "").split(". ")[0]}`,
    isError: true,
    shown: { ...(approval.noApprover ? { unapproved: { access: tool.access, dangerous: danger !== null, sandbox: escape !== null, ...(tool.approvalRule ? { setting: tool.approvalRule.setting } : {}) } } : {}) },
  };
}

/** Executes the tool; a throw becomes an error result (a `ToolError`'s message is meant for the model as it is). */
async function executeCall(call: StepToolCall, { tool, input, needs }: CheckedCall, deps: ToolRunDeps): Promise<Ran> {
  try {
    const context: ToolContext = {
      workdir: deps.workdir,
      signal: deps.signal,
      callId: call.toolCallId,
      spill: deps.session.spill,
      ui: deps.ui,
      env: deps.env,
      ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
      ...(needs ? { granted: needs } : {}),
      ...(deps.jobs ? { jobs: deps.jobs } : {}),
    };
    const result = await tool.execute(input, context);
    const isError = result.isError ?? false;
    return { output: result.output, isError, summary: result.summary ?? (isError ? "failed" : "done"), spill: result.spillFile, outputTail: result.outputTail };
  } catch (error) {
    return {
      isError: true,
      output: error instanceof ToolError ? `Error: ${error.message}` : `Error: ${tool.name} failed: ${describeError(error)}`,
      summary: error instanceof ToolError ? error.message : "failed",
    };
  }
}

/** An output too long for the model is cut, the whole of it written to a spill file the model can read. */
function capOutput(call: StepToolCall, tool: AgentTool, ran: Ran, deps: ToolRunDeps): Ran {
  if (ran.output.length <= MAX_TOOL_OUTPUT_CHARS || ran.spill) return ran;
  const spill = deps.session.spill.write(`${tool.name}-${call.toolCallId}.txt`, ran.output);
  const output = `${ran.output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n… [output cut at ${MAX_TOOL_OUTPUT_CHARS} of ${ran.output.length} characters; the whole output is in ${spill}: read it with the read tool]`;
  return { ...ran, output, spill };
}

/** `tool_after` extensions see the redacted result and may change its output; the call ends with it. */
async function afterCall(call: StepToolCall, { tool, input }: CheckedCall, ran: Ran, deps: ToolRunDeps): Promise<Ending> {
  const { output, isError, summary, spill, outputTail } = ran;
  const after = { name: tool.name, callId: call.toolCallId, input, result: { output: deps.redactor.text(output), isError, status: isError ? "error" : "ok" } };
  await deps.hooks.toolAfter(deps.agent, after);
  return { status: isError ? "error" : "ok", output: String(after.result.output), summary, isError, spill, shown: outputTail ? { outputTail } : {} };
}

/** A call's sandbox needs in words, for the question and the refusal: "writes outside the sandbox: ~/x; keeps running after the call". */
function describeNeeds(needs: SandboxNeeds, workdir: string): string {
  const parts: string[] = [];
  if (needs.write?.length) parts.push(`writes outside the sandbox's writable folders: ${needs.write.map((path) => showPath(workdir, path)).join(", ")}`);
  if (needs.read?.length) parts.push(`reads a credential file: ${needs.read.map((path) => showPath(workdir, path)).join(", ")}`);
  if (needs.background) parts.push("keeps running after the call, until the run ends");
  return parts.join("; and ");
}

/** What the UI is shown of a call besides its status and summary. */
interface ToolEndDetails {
  outputTail?: string[];
  unapproved?: { access: ToolAccess; dangerous: boolean; sandbox: boolean; setting?: string };
}

/** Zod issues as one line the model can act on: `path: expected string, received number; …`. */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : ""}${issue.message.replace(/^Invalid input: /, "")}`)
    .join("; ");
}
