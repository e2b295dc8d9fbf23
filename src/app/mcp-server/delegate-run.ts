import type { AgentUi } from "../../agent/events.js";
import type { AgentToolInput } from "../../agent/tools/agent.js";
import { subagentSettings } from "../../agent/subagents/settings.js";
import type { Redactor } from "../../kernel/redact/secrets.js";
import type { Boot } from "../start.js";
import { delegateDrive } from "./delegate-drive.js";
import { delegateProgressLine } from "./delegate-progress.js";
import { DelegateTally, type DelegatedTask, type RefusedCall } from "./delegate-tally.js";
import { SubagentsOffError } from "./errors.js";
import type { CallContext, ServeContext } from "./tool.js";

/** A delegate call, checked: what the `agent` tool gets, the prompts it runs, and the run's options. */
export interface DelegateRequest {
  call: AgentToolInput;
  prompts: string[];
  /** `provider/model`; the default model when absent (a continued sub-agent keeps its own). */
  modelSpec?: string;
  /** How many of the tasks run at once; bosun.json `subagents.concurrency` when absent (the tree-wide cap still holds). */
  concurrency?: number;
  maxTurns?: number;
}

/** How a delegate run ended: each task, the tree's totals, and every call refused for want of an approver. */
export interface DelegateOutcome {
  /** `cancelled`: the caller cancelled (or the server stopped); `partial`: some tasks completed, not all. */
  status: "completed" | "partial" | "failed" | "cancelled";
  /** The top-level session that records the run (`bosun sessions show` draws its tree). */
  session: string;
  model: string;
  mode: string;
  tasks: DelegatedTask[];
  totals: { turns: number; subagents: number; tokens: { input: number; output: number }; ms: number };
  refused: RefusedCall[];
}

/**
 * Runs a delegate call on bosun's agent the way `bosun run` sets a run up (model, sandbox,
 * secrets to redact, session, project instructions, approval gate from the server's mode and
 * bosun.json `permissions`, sub-agents), with nobody to approve: a call that would have to ask is
 * refused, as in `bosun run` without a terminal. The tasks go straight to the sub-agents (see
 * delegateDrive); what they report becomes progress lines for the caller, and adds up to the
 * outcome.
 */
export async function runDelegate(serve: ServeContext, request: DelegateRequest, call: CallContext): Promise<DelegateOutcome> {
  const settings = subagentSettings(serve.boot.config?.value.subagents);
  if (settings.maxDepth === 0) throw new SubagentsOffError();
  const boot = request.concurrency === undefined ? serve.boot : withConcurrency(serve.boot, request.concurrency);
  const [{ runAgentFromBoot }, { createModelSource }] = await Promise.all([import("../agent-run.js"), import("../resolve-model.js")]);
  const source = await createModelSource(boot);
  const tally = new DelegateTally();
  const ui: AgentUi = {
    onEvent(event) {
      tally.onEvent(event);
      const line = delegateProgressLine(event);
      if (line !== null) call.progress(line);
    },
  };
  const drive = delegateDrive(request.call);
  let redactor: Redactor | null = null;
  const started = Date.now();
  const { result, model } = await runAgentFromBoot(
    boot,
    source,
    { prompt: rootPrompt(request), cwd: serve.cwd, mode: serve.mode, ...(request.modelSpec ? { modelSpec: request.modelSpec } : {}), ...(request.maxTurns ? { maxTurns: request.maxTurns } : {}) },
    {
      ui,
      approver: null,
      signal: call.signal,
      onStart: (info) => call.progress(`session ${info.sessionId} · ${info.model} · ${info.mode} mode · ${request.prompts.length} task${request.prompts.length === 1 ? "" : "s"}`),
      drive: (prompt, options) => {
        redactor = options.redactor;
        return drive(prompt, options);
      },
    },
  );
  const redact = (text: string) => (redactor ? redactor.text(text) : text);
  const tasks = tally.tasks(request.prompts, redact);
  const completed = tasks.filter((task) => task.status === "completed").length;
  const status = result.reason === "aborted" ? "cancelled" : completed === tasks.length ? "completed" : completed > 0 ? "partial" : "failed";
  return {
    status,
    session: result.sessionId,
    model,
    mode: serve.mode,
    tasks,
    totals: { turns: tally.turns, subagents: tally.subagents, tokens: { ...tally.tokens }, ms: Date.now() - started },
    refused: tally.refused,
  };
}

/**
 * The prompt the session records for the run (the user's turn of its conversation): the task
 * itself, or the list of tasks.
 */
function rootPrompt(request: DelegateRequest): string {
  if (request.prompts.length === 1) return request.prompts[0]!;
  return [`Run these ${request.prompts.length} tasks on sub-agents:`, ...request.prompts.map((prompt, index) => `${index + 1}. ${prompt}`)].join("\n\n");
}

/** The boot with `subagents.concurrency` set for this run only. */
function withConcurrency(boot: Boot, concurrency: number): Boot {
  const config = boot.config ?? { value: {}, layers: [], sources: boot.configSources, warnings: [] };
  return { ...boot, config: { ...config, value: { ...config.value, subagents: { ...config.value.subagents, concurrency } } } };
}
