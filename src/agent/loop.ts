import type { ModelMessage, ToolModelMessage } from "ai";
import type { Env } from "../kernel/paths.js";
import { describeError } from "../kernel/errors.js";
import type { ExtensionHost } from "../extensions/host.js";
import type { AgentLanguageModel } from "../llm/agent-language-model.js";
import type { ApprovalGate } from "./approval/approval.js";
import { estimateTextTokens } from "./session/compaction.js";
import { Compactor } from "./session/compactor.js";
import { interceptEvents, type AgentEvent, type AgentUi } from "./events.js";
import { AgentHooks, type AgentInfo } from "./hooks.js";
import { AgentAbortedError, ModelCallError } from "./model/errors.js";
import { RetryBudget } from "./model/retry.js";
import { ModelStepError, streamModelStep, type StepResult } from "./model/step.js";
import type { Sandbox } from "./sandbox/sandbox.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import type { BackgroundJobs } from "./tools/background-jobs.js";
import type { RunEndReason } from "./session/format.js";
import type { Session } from "./session/store.js";
import type { InstructionRecord, ProjectInstructions } from "./instructions.js";
import { defaultSystemPrompt, withProjectInstructions } from "./system-prompt.js";
import { toolJsonSchema, type ToolRegistry } from "./tools/tool-registry.js";
import { runToolCall } from "./tools/tool-runner.js";

export const DEFAULT_MAX_TURNS = 50;

/**
 * Everything one agent loop works with. Each piece is passed in, none is global, so a sub-agent
 * can be given a filtered tool registry, an in-memory session, the parent's approval gate and
 * redactor, and the parent's abort signal.
 */
export interface AgentOptions {
  /** The model call is injected: any AI SDK language model (a provider's, or a mock in tests). */
  model: AgentLanguageModel;
  /** providerID/modelID, for extensions and the session's records. */
  modelRef: { providerID: string; modelID: string };
  limits: { context: number; output: number };
  /** False when the model cannot call tools: it is then sent none. */
  toolCalls: boolean;
  tools: ToolRegistry;
  session: Session;
  approval: ApprovalGate;
  redactor: Redactor;
  extensions?: ExtensionHost | null;
  workdir: string;
  /** The environment commands run with (the sandbox's, without secrets, when there is one). */
  env: Env;
  /** How tool processes are contained, and the rules the file tools apply; none when absent. */
  sandbox?: Sandbox;
  /** Commands left running after their call (`bash` `background`); none may be when absent. */
  jobs?: BackgroundJobs;
  ui: AgentUi;
  signal: AbortSignal;
  maxTurns?: number;
  retries?: RetryBudget;
  /** Replaces bosun's default system prompt (extensions still see and may edit it). */
  systemPrompt?: string;
  /** The project's AGENTS.md instructions, added after the system prompt (sub-agents get them too). */
  instructions?: ProjectInstructions;
  /** 0 for a top-level agent; sub-agents count up. */
  depth?: number;
  /** How long a model stream may stay silent before it counts as a dropped connection. */
  idleTimeoutMs?: number;
  /** The clock the default system prompt states the date from. */
  now?: () => Date;
  /**
   * Continue a run that was cut off (its worker died): the session already holds its prompt and
   * the turns done so far, so the loop neither adds the prompt again nor counts those turns twice.
   */
  resume?: { turns: number; usage: { inputTokens: number; outputTokens: number } };
  /** Called after each turn's tool results are in the session, before the next model call; the loop waits for it (a checkpoint). */
  onTurnEnd?: (turns: number, usage: { inputTokens: number; outputTokens: number }) => Promise<void>;
}

export interface AgentRunResult {
  sessionId: string;
  reason: RunEndReason;
  /** The text of the last reply (the final answer when `reason` is "final"). */
  text: string;
  turns: number;
  usage: { inputTokens: number; outputTokens: number };
  /** The instruction files the system prompt held. */
  instructions: InstructionRecord[];
}

/** What a run has counted so far: what its end record and result report. */
interface Tally {
  turns: number;
  usage: { inputTokens: number; outputTokens: number };
  /** The text of the last reply. */
  lastText: string;
}

/** One run of the loop: what every turn works with, set up once. */
interface Run {
  options: AgentOptions;
  ui: AgentUi;
  hooks: AgentHooks;
  agent: AgentInfo;
  retries: RetryBudget;
  /** The tools as the model is sent them; undefined when the model cannot call tools. */
  toolSet: ReturnType<ToolRegistry["modelTools"]> | undefined;
  /** The system prompt, after the extensions and redaction. */
  system: string;
  compactor: Compactor;
}

/**
 * Runs the agent on one prompt: stream the model's reply, run the tools it calls (through
 * approval), feed the results back, and stop at a reply without tool calls, at the turn limit,
 * or when the signal aborts. Every message and tool event goes to the session as it happens,
 * with an fsync at the end of each turn.
 */
export async function runAgent(prompt: string, options: AgentOptions): Promise<AgentRunResult> {
  quietSdkWarnings();
  const { session, signal, redactor } = options;
  const ui = redactingUi(options.ui, redactor);
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const resume = options.resume;
  const tally: Tally = { turns: resume?.turns ?? 0, usage: { ...(resume?.usage ?? { inputTokens: 0, outputTokens: 0 }) }, lastText: "" };
  const instructions = options.instructions?.files ?? [];

  const end = (reason: RunEndReason, error?: string): AgentRunResult => {
    const { turns, usage, lastText } = tally;
    session.append({ type: "run", phase: "end", reason, turns, usage, ...(error ? { error } : {}) });
    session.sync();
    return { sessionId: session.id, reason, text: lastText, turns, usage, instructions };
  };

  session.append({
    type: "run",
    phase: "start",
    prompt,
    mode: options.approval.mode,
    model: `${options.modelRef.providerID}/${options.modelRef.modelID}`,
    ...(instructions.length > 0 ? { instructions } : {}),
  });
  try {
    const run = await openRun(options, ui);
    if (!resume) session.append({ type: "message", message: { role: "user", content: prompt } });
    for (;;) {
      if (signal.aborted) return end("aborted");
      if (tally.turns >= maxTurns) {
        ui.onEvent({ type: "notice", message: `stopped after ${tally.turns} turns (the turn limit) without a final answer` });
        return end("turn-limit");
      }
      tally.turns++;
      const step = await modelTurn(run, tally);
      if (step.toolCalls.length === 0) return end("final");
      await toolTurn(run, step);
      await options.onTurnEnd?.(tally.turns, { ...tally.usage });
    }
  } catch (error) {
    if (error instanceof AgentAbortedError || signal.aborted) {
      const partial = error instanceof AgentAbortedError ? error.partialText : "";
      if (partial) {
        tally.lastText = partial;
        session.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: partial }] } satisfies ModelMessage });
      }
      return end("aborted");
    }
    const failure = error instanceof ModelStepError ? new ModelCallError(`the model call failed: ${redactor.text(error.info.message)}`, error.info) : error;
    end("error", redactor.text(describeError(failure)));
    throw failure;
  }
}

/** Sets a run up: `agent_init`, the tools the model is sent, the system prompt (through `system_prompt`), the compactor. */
async function openRun(options: AgentOptions, ui: AgentUi): Promise<Run> {
  const hooks = new AgentHooks(options.extensions ?? null, (message) => ui.onEvent({ type: "notice", message }));
  const retries = options.retries ?? new RetryBudget();
  const agent: AgentInfo = {
    sessionId: options.session.id,
    workdir: options.workdir,
    model: options.modelRef,
    mode: options.approval.mode,
    depth: options.depth ?? 0,
    tools: options.tools,
  };
  await hooks.init(agent);
  const toolSet = options.toolCalls ? options.tools.modelTools() : undefined;
  if (!toolSet) ui.onEvent({ type: "notice", message: "this model cannot call tools; it answers without them" });
  const base =
    options.systemPrompt ??
    defaultSystemPrompt({
      workdir: options.workdir,
      platform: `${process.platform} (${process.arch})`,
      date: (options.now ?? (() => new Date()))().toISOString().slice(0, 10),
      toolNames: toolSet ? options.tools.names() : [],
      mode: options.approval.mode,
      depth: agent.depth,
    });
  const system = options.redactor.text(await hooks.systemPrompt(agent, withProjectInstructions(base, options.instructions)));
  // Every request carries the system prompt and the tool definitions: counted once.
  const toolDefinitions = toolSet ? options.tools.list().map((t) => ({ name: t.name, description: t.description, parameters: toolJsonSchema(t) })) : [];
  const fixedTokens = estimateTextTokens(system) + estimateTextTokens(JSON.stringify(toolDefinitions));
  const compactor = new Compactor({
    model: options.model,
    limits: options.limits,
    fixedTokens: () => fixedTokens,
    retries,
    ui,
    ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  });
  return { options, ui, hooks, agent, retries, toolSet, system, compactor };
}

/**
 * The model's turn: compact when the session is near the context limit, stream one reply
 * (through `before_llm_call`, retried as the budget allows; a context overflow compacts once and
 * tries again), and record it (the tally, `after_llm_call`, the session).
 */
async function modelTurn(run: Run, tally: Tally): Promise<StepResult> {
  const { options, ui, hooks, agent, compactor } = run;
  const turn = tally.turns;
  const { session, signal } = options;
  ui.onEvent({ type: "turn-start", turn });
  await compactor.compactIfNeeded(session, signal);
  let step: StepResult | undefined;
  let overflowCompacted = false;
  while (!step) {
    const request = await hooks.beforeLlmCall(agent, turn, run.system, session.messages);
    try {
      step = await streamReply(run, request);
    } catch (error) {
      if (!(error instanceof ModelStepError && error.info.contextOverflow && !overflowCompacted)) throw error;
      overflowCompacted = true;
      ui.onEvent({ type: "notice", message: "the request was too large for the model's context; compacting and trying again" });
      await compactor.compactIfNeeded(session, signal, true);
    }
  }
  tally.usage.inputTokens += step.usage.inputTokens ?? 0;
  tally.usage.outputTokens += step.usage.outputTokens ?? 0;
  tally.lastText = step.text;
  ui.onEvent({ type: "reply-end", text: step.text, usage: step.usage });
  await hooks.afterLlmCall(agent, { turn, text: step.text, toolCalls: step.toolCalls, usage: step.usage, finishReason: step.finishReason });
  if (step.assistant) session.append({ type: "message", message: step.assistant, usage: step.usage });
  return step;
}

/** One model call, streamed to the UI as it comes, retried on what the retry budget allows. */
function streamReply(run: Run, request: { system: string; messages: ModelMessage[] }): Promise<StepResult> {
  const { options, ui, toolSet } = run;
  const { signal } = options;
  return run.retries.run(
    () =>
      streamModelStep({
        model: options.model,
        system: request.system,
        messages: request.messages,
        ...(toolSet ? { tools: toolSet } : {}),
        ...(options.limits.output > 0 ? { maxOutputTokens: options.limits.output } : {}),
        signal,
        ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
        onText: (delta) => ui.onEvent({ type: "text", delta }),
      }),
    signal,
    (attempt, delayMs, info, hadPartialReply) => ui.onEvent({ type: "retry", attempt, delayMs, reason: info.message, hadPartialReply }),
  );
}

/** The tools' turn: each call the reply made, in order, through approval; the results go to the session, synced. */
async function toolTurn(run: Run, step: StepResult): Promise<void> {
  const { options, ui, hooks, agent } = run;
  const { session } = options;
  const results: ToolModelMessage["content"] = [];
  for (const call of step.toolCalls) {
    const outcome = await runToolCall(call, {
      registry: options.tools,
      approval: options.approval,
      hooks,
      agent,
      redactor: options.redactor,
      session,
      ui,
      workdir: options.workdir,
      env: options.env,
      signal: options.signal,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
    });
    results.push(outcome.part);
  }
  session.append({ type: "message", message: { role: "tool", content: results } });
  session.sync();
}

let sdkWarningsQuieted = false;

/** The AI SDK prints warnings to the console unless told not to; bosun reports problems itself. */
function quietSdkWarnings(): void {
  if (sdkWarningsQuieted) return;
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  sdkWarningsQuieted = true;
}

/** Provider error text can echo a credential back: redact what the loop reports about failures. */
function redactingUi(ui: AgentUi, redactor: Redactor): AgentUi {
  return interceptEvents(ui, (event: AgentEvent, forward) => {
    if (event.type === "retry") forward({ ...event, reason: redactor.text(event.reason) });
    else if (event.type === "notice") forward({ ...event, message: redactor.text(event.message) });
    else forward(event);
  });
}
