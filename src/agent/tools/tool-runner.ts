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
import { ToolError, type SandboxNeeds, type ToolAccess, type ToolContext } from "./tool.js";

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
  const finish = (status: ToolStatus, output: string, summary: string, isError: boolean, spill?: string, shown: ToolEndDetails = {}): ToolRunOutcome => {
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
  };

  if (call.invalid) return finish("error", `Error: ${call.invalid}`, "invalid call", true);
  const tool = deps.registry.get(call.toolName);
  if (!tool) return finish("error", `Error: there is no tool named ${call.toolName}; the tools are ${deps.registry.names().join(", ")}`, "unknown tool", true);
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return finish("error", `Error: invalid arguments for ${tool.name}: ${describeIssues(parsed.error.issues)}`, "invalid arguments", true);
  const input: unknown = parsed.data;

  let description: string;
  let danger: string | null;
  let needs: SandboxNeeds | null;
  try {
    description = deps.redactor.text(tool.describe(input, deps.workdir));
    danger = tool.danger?.(input, deps.workdir, deps.sandbox) ?? null;
    needs = tool.sandboxNeeds?.(input, deps.workdir, deps.sandbox) ?? null;
  } catch (error) {
    return finish("error", `Error: ${describeError(error)}`, "invalid arguments", true);
  }
  deps.ui.onEvent({ type: "tool-start", callId: call.toolCallId, tool: tool.name, description });

  const before: ToolBeforeCall = { name: tool.name, callId: call.toolCallId, input };
  await deps.hooks.toolBefore(deps.agent, before);
  if (typeof before.veto === "string" && before.veto !== "") {
    return finish("vetoed", `Not run: an extension refused this call: ${before.veto}`, `vetoed: ${before.veto}`, true);
  }
  if (deps.signal.aborted) return finish("aborted", "Not run: the user cancelled the run.", "cancelled", true);

  const preview = tool.preview ? deps.redactor.text(tool.preview(input)) : undefined;
  const escape = needs ? deps.redactor.text(describeNeeds(needs, deps.workdir)) : null;
  const question = { tool: tool.name, access: tool.access, danger, description, ...(escape ? { escape } : {}) };
  const approval: ApprovalOutcome = await deps.approval.check({ ...question, callId: call.toolCallId, ...(preview ? { preview } : {}) }, deps.signal).catch((error: unknown) => {
    if (deps.signal.aborted) return { allowed: false as const, message: "Not run: the user cancelled the run." };
    return { allowed: false as const, message: `Not run: asking for approval failed (${describeError(error)}).` };
  });
  if (!approval.allowed) {
    if (deps.signal.aborted) return finish("aborted", approval.message, "cancelled", true);
    return finish("denied", approval.message, `denied: ${approval.message.replace(/^Not run: /, "").split(". ")[0]}`, true, undefined, {
      ...(approval.noApprover ? { unapproved: { access: tool.access, dangerous: danger !== null, sandbox: escape !== null } } : {}),
    });
  }

  let output: string;
  let summary: string;
  let isError: boolean;
  let spill: string | undefined;
  let outputTail: string[] | undefined;
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
    output = result.output;
    isError = result.isError ?? false;
    summary = result.summary ?? (isError ? "failed" : "done");
    spill = result.spillFile;
    outputTail = result.outputTail;
  } catch (error) {
    isError = true;
    output = error instanceof ToolError ? `Error: ${error.message}` : `Error: ${tool.name} failed: ${describeError(error)}`;
    summary = error instanceof ToolError ? error.message : "failed";
  }
  if (deps.signal.aborted) return finish("aborted", `${output}\n(The user cancelled the run.)`, "cancelled", true, spill);

  if (output.length > MAX_TOOL_OUTPUT_CHARS && !spill) {
    spill = deps.session.spill.write(`${tool.name}-${call.toolCallId}.txt`, output);
    output = `${output.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n… [output cut at ${MAX_TOOL_OUTPUT_CHARS} of ${output.length} characters; the whole output is in ${spill}: read it with the read tool]`;
  }
  const after = { name: tool.name, callId: call.toolCallId, input, result: { output: deps.redactor.text(output), isError, status: isError ? "error" : "ok" } };
  await deps.hooks.toolAfter(deps.agent, after);
  return finish(isError ? "error" : "ok", String(after.result.output), summary, isError, spill, outputTail ? { outputTail } : {});
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
  unapproved?: { access: ToolAccess; dangerous: boolean; sandbox: boolean };
}

/** Zod issues as one line the model can act on: `path: expected string, received number; …`. */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : ""}${issue.message.replace(/^Invalid input: /, "")}`)
    .join("; ");
}
