import { join } from "node:path";
import { describeError } from "../../kernel/errors.js";
import type { AgentUi, SubagentRef } from "../events.js";
import { AgentHooks, type AgentInfo, type SubagentCallInfo, type SubagentStartCall } from "../hooks.js";
import { runAgent, type AgentOptions, type AgentRunResult } from "../loop.js";
import { RetryBudget } from "../model/retry.js";
import type { SubagentStatus, TokenUsage } from "../session/format.js";
import { narrowSandbox } from "../sandbox/sandbox.js";
import { MemorySessionStore, type Session } from "../session/store.js";
import { subagentReport, type SubagentOutcome } from "./report.js";
import { processSubagentSessions, type SubagentModel, type SubagentSessionCache, type SubagentSessionEntry } from "./sessions.js";
import { MAX_SUBAGENT_TASKS, subagentSettings, type SubagentSettings } from "./settings.js";
import { TreeSlots, type TreeSlot } from "./slots.js";
import { SubagentCancelledError, SubagentControl } from "./control.js";
import { AGENT_TOOL_NAME, createAgentTool, SUBAGENT_EXCLUDED_TOOLS, type AgentCall } from "../tools/agent.js";
import { ToolError, type ToolContext, type ToolResult } from "../tools/tool.js";

export interface SubagentSetup {
  /** `bosun.json` `subagents`; defaults for what is missing. */
  settings?: Partial<SubagentSettings>;
  /** Where sub-agent sessions are kept for continuation: the process's by default. */
  sessions?: SubagentSessionCache;
  /** How the host stops sub-agents of this tree from outside it (the dashboard's Cancel); one of the tree's own when absent. */
  control?: SubagentControl;
}

/** What every agent of one tree shares. */
interface SubagentTree {
  readonly settings: SubagentSettings;
  readonly slots: TreeSlots;
  readonly sessions: SubagentSessionCache;
  /** The top-level agent's UI: every sub-agent's events end up there, tagged with who sent them. */
  readonly ui: AgentUi;
  /** The top-level agent's session: it records every sub-agent run of the tree. */
  readonly root: Session;
  /** The top-level agent's own system prompt, when it was given one (sub-agents get it too). */
  readonly systemPrompt: string | undefined;
  readonly control: SubagentControl;
  seq: number;
}

/** An agent of the tree that may start sub-agents: its options and, below the top, its own run. */
interface TreeAgent {
  options: AgentOptions;
  tree: SubagentTree;
  self: { id: string; run: number; slot: TreeSlot } | null;
}

interface SubagentTask {
  prompt: string;
  task: number;
  tasks: number;
  sessionId: string | null;
}

interface RunEnd {
  status: SubagentStatus;
  text: string;
  turns: number;
  usage: TokenUsage;
}

/**
 * A top-level agent's options with the `agent` tool added (unless `maxDepth` is 0): the root of
 * an agent tree. Every sub-agent is a nested `runAgent` with a fresh in-memory session, one level
 * deeper, with the parent's tools minus `agent`, `plan`, `memory` and `ask_user` (and a new
 * `agent` tool bound to itself while it is above the depth limit). It inherits the model, the
 * approval mode, rules, grants and approver (with dangerous calls never looser than ask), the
 * redactor, the retry budget (shared by the whole tree), context limits, turn limit, extension
 * host, working folder, project instructions, environment, sandbox (narrowed by
 * `subagents.sandbox`, never widened), background jobs and the abort signal.
 */
export function withSubagents(options: AgentOptions, setup: SubagentSetup = {}): AgentOptions {
  const settings = subagentSettings(setup.settings);
  const tree: SubagentTree = {
    settings,
    slots: new TreeSlots(settings.treeConcurrency),
    sessions: setup.sessions ?? processSubagentSessions(),
    ui: options.ui,
    root: options.session,
    systemPrompt: options.systemPrompt,
    control: setup.control ?? new SubagentControl(),
    seq: 0,
  };
  return equip({ ...options, retries: options.retries ?? new RetryBudget() }, tree, null);
}

/** The options with an `agent` tool bound to this agent, or none at the depth limit. */
function equip(options: AgentOptions, tree: SubagentTree, self: TreeAgent["self"]): AgentOptions {
  const tools = options.tools.without(AGENT_TOOL_NAME);
  const equipped: AgentOptions = { ...options, tools };
  const depth = options.depth ?? 0;
  if (depth < tree.settings.maxDepth) {
    const agent: TreeAgent = { options: equipped, tree, self };
    tools.register(createAgentTool({ nested: depth + 1 < tree.settings.maxDepth, run: (call, context) => runAgentCall(agent, call, context) }));
  }
  return equipped;
}

/**
 * One `agent` call. Its tasks run in parallel, up to `concurrency` (and the tree-wide cap), with
 * or without someone to approve their calls: their approval questions take turns (see
 * `QuestionTurns`), so a sub-agent that must ask waits for its turn while the others keep
 * working. The caller gives up its place in the tree while it waits.
 */
async function runAgentCall(parent: TreeAgent, call: AgentCall, context: ToolContext): Promise<ToolResult> {
  const { settings } = parent.tree;
  const depth = parent.options.depth ?? 0;
  if (depth >= settings.maxDepth) throw new ToolError(`the sub-agent depth limit (${settings.maxDepth}) is reached here; do the task yourself`);
  const width = Math.min(settings.concurrency, call.tasks.length);
  // Up to 16 sub-agents (each with a model stream, a command, a wait for a place) listen to it at once.
  const batch = parent.tree.control.trackBatch(context.signal, MAX_SUBAGENT_TASKS * 6);
  const batchContext: ToolContext = { ...context, signal: batch.signal };
  parent.self?.slot.release();
  try {
    const outcomes: SubagentOutcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < call.tasks.length) {
        const index = next++;
        outcomes[index] = await runSubagent(parent, { prompt: call.tasks[index]!, task: index + 1, tasks: call.tasks.length, sessionId: call.sessionId }, batchContext);
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
    return subagentReport(outcomes, width);
  } finally {
    batch.done();
    // After an abort the caller is ending anyway; it need not wait for a place.
    await parent.self?.slot.reacquire(context.signal).catch(() => {});
  }
}

/** Runs one task (or continues a session) and reports how it ended; only a bad `session_id` throws. */
async function runSubagent(parent: TreeAgent, task: SubagentTask, context: ToolContext): Promise<SubagentOutcome> {
  const { tree, options } = parent;
  // A continuation is checked before waiting for a place: an unknown or running session fails at once.
  const continued = task.sessionId ? tree.sessions.checkout(task.sessionId) : null;
  let slot: TreeSlot;
  try {
    slot = await tree.slots.acquire(context.signal);
  } catch {
    if (continued) tree.sessions.finish(continued);
    return { task: task.task, status: "cancelled", sessionId: continued?.session.id ?? null, text: "cancelled before it started", turns: 0, ms: 0 };
  }
  let entry: SubagentSessionEntry;
  try {
    entry = continued ?? tree.sessions.add(newSubagentSession(parent), modelOf(options));
  } catch (error) {
    slot.release();
    throw error;
  }
  const depth = (options.depth ?? 0) + 1;
  const ref: SubagentRef = { id: entry.session.id, seq: ++tree.seq, depth, task: task.task, tasks: task.tasks, ...(parent.self ? { parent: parent.self.id } : {}) };
  const { redactor } = options;
  const info: SubagentCallInfo = { id: ref.id, run: entry.runs, prompt: redactor.text(task.prompt), depth, task: task.task, tasks: task.tasks, continued: continued !== null };
  const parentInfo = agentInfo(options);
  const hooks = new AgentHooks(options.extensions ?? null, (message) => tree.ui.onEvent({ type: "notice", message: redactor.text(message) }));
  const started = Date.now();
  tree.root.append({
    type: "subagent",
    phase: "start",
    ...info,
    parent: options.session.id,
    ...(parent.self ? { parentRun: parent.self.run } : {}),
    callId: context.callId,
  });
  tree.ui.onEvent({ type: "subagent-start", agent: ref, prompt: info.prompt, continued: info.continued });

  let end: RunEnd;
  const tracked = tree.control.track(ref.id, context.signal);
  try {
    const start: SubagentStartCall = { ...info };
    await hooks.subagentStart(parentInfo, start);
    if (typeof start.veto === "string" && start.veto !== "") {
      end = { status: "failed", text: `not run: an extension refused it: ${start.veto}`, turns: 0, usage: {} };
    } else {
      end = runEndOf(await runAgent(task.prompt, childOptions(parent, entry, ref, slot, tracked.signal)), tracked.cancelled());
    }
  } catch (error) {
    end = tracked.signal.aborted ? { status: "cancelled", text: cancelledText(tracked.cancelled()), turns: 0, usage: {} } : { status: "failed", text: describeError(error), turns: 0, usage: {} };
  } finally {
    tracked.done();
    slot.release();
    tree.sessions.finish(entry);
  }
  const ms = Date.now() - started;
  // The answer is model text, redacted like any tool output before an extension, the log or the parent sees it.
  end = { ...end, text: redactor.text(end.text) };
  try {
    await hooks.subagentEnd(parentInfo, { ...info, status: end.status, ms, turns: end.turns, text: end.text });
  } catch (error) {
    end = { ...end, status: "failed", text: redactor.text(describeError(error)) };
  }
  const { text } = end;
  const failure = end.status === "completed" ? {} : { error: text };
  tree.root.append({ type: "subagent", phase: "end", id: ref.id, run: info.run, status: end.status, ms, turns: end.turns, usage: end.usage, ...failure });
  tree.ui.onEvent({ type: "subagent-end", agent: ref, status: end.status, ms, turns: end.turns, ...failure });
  return { task: task.task, status: end.status, sessionId: ref.id, text, turns: end.turns, ms };
}

/** A sub-agent's answer is the text of its final reply; anything else is a failure it can be continued from. */
function runEndOf(result: AgentRunResult, cancelled: SubagentCancelledError | null): RunEnd {
  const { turns, usage } = result;
  const text = result.text.trim();
  if (result.reason === "aborted") return { status: "cancelled", text: cancelledText(cancelled), turns, usage };
  if (result.reason === "turn-limit") return { status: "failed", text: `it stopped at the turn limit (${turns} turns) without a final answer`, turns, usage };
  if (text === "") return { status: "failed", text: "it ended without a final answer", turns, usage };
  return { status: "completed", text, turns, usage };
}

/** What the parent reads of a cancelled sub-agent: that the user stopped it, when the user did. */
function cancelledText(cancelled: SubagentCancelledError | null): string {
  return cancelled ? `${cancelled.message}; do not start this task again unless the user asks` : "cancelled";
}

/** The options of a sub-agent run: inherited from its parent, one level deeper. */
function childOptions(parent: TreeAgent, entry: SubagentSessionEntry, ref: SubagentRef, slot: TreeSlot, signal: AbortSignal): AgentOptions {
  const { options, tree } = parent;
  const ui = tree.ui;
  return equip(
    {
      ...entry.model,
      tools: options.tools.without(...SUBAGENT_EXCLUDED_TOOLS),
      session: entry.session,
      approval: options.approval.forSubAgent(`sub-agent #${ref.seq}`),
      redactor: options.redactor,
      extensions: options.extensions ?? null,
      workdir: options.workdir,
      env: options.env,
      ...(options.sandbox ? { sandbox: tree.settings.sandbox ? narrowSandbox(options.sandbox, tree.settings.sandbox) : options.sandbox } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      ui: { onEvent: (event) => ui.onEvent({ type: "subagent-event", agent: ref, event }) },
      signal,
      ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
      ...(options.retries ? { retries: options.retries } : {}),
      ...(tree.systemPrompt ? { systemPrompt: tree.systemPrompt } : {}),
      ...(options.instructions ? { instructions: options.instructions } : {}),
      depth: ref.depth,
      ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.now ? { now: options.now } : {}),
    },
    tree,
    { id: ref.id, run: entry.runs, slot },
  );
}

/** A fresh in-memory session; its spilled outputs go next to the top-level session's. */
function newSubagentSession(parent: TreeAgent): Session {
  const { options, tree } = parent;
  const store = new MemorySessionStore(options.redactor, (id) => join(tree.root.spill.dir, "subagents", id), options.now);
  const details = { workdir: options.workdir, model: { ...options.modelRef, name: options.session.header.model.name }, bosunVersion: tree.root.header.bosun };
  // Ids are a time stamp and 24 random bits; a clash with a kept session is redrawn.
  for (let attempt = 0; ; attempt++) {
    const session = store.create(details);
    if (!tree.sessions.has(session.id) || attempt >= 5) return session;
  }
}

function modelOf(options: AgentOptions): SubagentModel {
  return { model: options.model, modelRef: options.modelRef, limits: options.limits, toolCalls: options.toolCalls };
}

function agentInfo(options: AgentOptions): AgentInfo {
  return { sessionId: options.session.id, workdir: options.workdir, model: options.modelRef, mode: options.approval.mode, depth: options.depth ?? 0, tools: options.tools };
}
