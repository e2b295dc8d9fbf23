import { join } from "node:path";
import { describeError } from "../../kernel/errors.js";
import { callCost } from "../../llm/call-cost.js";
import type { ModelPrice } from "../../llm/model-target.js";
import type { AgentEvent, AgentUi, SubagentRef } from "../events.js";
import { AgentHooks, type AgentInfo, type SubagentCallInfo, type SubagentStartCall } from "../hooks.js";
import { runAgent, type AgentOptions, type AgentRunResult } from "../loop.js";
import { RetryBudget } from "../model/retry.js";
import { narrowSandbox } from "../sandbox/sandbox.js";
import { MemorySessionStore, type Session } from "../session/store.js";
import { subagentReport, type SubagentOutcome } from "./report.js";
import { processSubagentSessions, SUBAGENT_SESSION_KEEP, UnknownSubagentSessionError, type SubagentModel, type SubagentSessionCache, type SubagentSessionEntry } from "./sessions.js";
import { MAX_SUBAGENT_TASKS, subagentSettings, type SubagentSettings, type SubagentSettingsInput } from "./settings.js";
import { TreeSlots, type TreeSlot } from "./slots.js";
import { SubagentCancelledError, SubagentControl, type TrackedSubagent } from "./control.js";
import { AGENT_TOOL_NAME, createAgentTool, SUBAGENT_EXCLUDED_TOOLS, type AgentCall, type AgentTask } from "../tools/agent.js";
import { newSessionId } from "../session/store.js";
import { watchCaps } from "./cap-watch.js";
import { headlessLaunch } from "./external/commands.js";
import type { ExternalAgents } from "./external/external-agents.js";
import { sandboxedCli } from "./external/cli-sandbox.js";
import { runExternal } from "./external/run-external.js";
import { streamParser } from "./external/stream-parsers.js";
import { DELEGATE_MODES, type DelegateMode } from "../../runtimes/kit/delegate-mode.js";
import { isSubagentKind, SUBAGENT_KINDS, type ExternalKind } from "./kinds.js";
import { CapMeter, CapReachedError, narrowCaps, TreeMeter, type Caps } from "./limits.js";
import { taskKey, type ParentContext, type SubagentRunner, type TaskEnd, type TaskOrder } from "./runner.js";
import type { ModelMessage } from "ai";
import { closeWorkspace, openWorkspace, worktreeSandbox, type TaskWorkspace } from "./task-workspace.js";
import { ToolError, type ToolContext, type ToolResult } from "../tools/tool.js";

export interface SubagentSetup {
  /** `bosun.json` `subagents`; defaults for what is missing. */
  settings?: SubagentSettingsInput;
  /** Where sub-agent sessions are kept for continuation: the process's by default. */
  sessions?: SubagentSessionCache;
  /** How the host stops sub-agents of this tree from outside it (the dashboard's Cancel); one of the tree's own when absent. */
  control?: SubagentControl;
  /** The user's agent CLIs as sub-agent kinds; absent: only bosun's own sub-agents run. */
  external?: ExternalAgents;
  /** The top-level model's prices (the catalog's), for bosun sub-agents' cost and cost caps. */
  prices?: ModelPrice[] | null;
  /** bosun's data folder: task worktrees go in its `worktrees/`; absent: no task can have one. */
  dataDir?: string;
  /** Where the top-level agent's tasks run when not in this process (`subagents.backend`): a queue of `bosun worker`s. */
  runner?: SubagentRunner;
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
  /** The session task worktrees and keys are named after: the root's, or a worker task's parent's. */
  readonly rootId: string;
  /** The top-level agent's own system prompt, when it was given one (sub-agents get it too). */
  readonly systemPrompt: string | undefined;
  readonly control: SubagentControl;
  readonly external: ExternalAgents | null;
  readonly prices: ModelPrice[] | null;
  readonly dataDir: string | null;
  /** The top-level agent's runner when its tasks run on workers; null: all in this process. */
  readonly runner: SubagentRunner | null;
  /** The task keys of remote sub-agents by session id, to continue them (`session_id`). */
  readonly remoteKeys: Map<string, string>;
  /** What the whole tree used, against `subagents.limits.tree`. */
  readonly meter: TreeMeter;
  seq: number;
}

/** An agent of the tree that may start sub-agents: its options and, below the top, its own run. */
interface TreeAgent {
  options: AgentOptions;
  tree: SubagentTree;
  self: { id: string; run: number; slot: TreeSlot } | null;
}

interface SubagentTask {
  spec: AgentTask;
  task: number;
  tasks: number;
  sessionId: string | null;
  /** The caps of each sub-agent of the call: `subagents.limits` narrowed by the call's. */
  caps: Caps;
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
  return withSubagentsTree(options, setup).options;
}

/**
 * The tree of a top-level agent (or of a worker's task, whose parent is elsewhere: `onEvent`
 * then gets the task's own events unwrapped, and `rootId` names the parent's session) and its
 * options with the `agent` tool.
 */
function withSubagentsTree(options: AgentOptions, setup: SubagentSetup, onEvent?: (event: AgentEvent) => void, rootId?: string): { options: AgentOptions; tree: SubagentTree } {
  const settings = subagentSettings(setup.settings);
  const ui: AgentUi = onEvent ? { ...options.ui, onEvent: (event) => onEvent(event.type === "subagent-event" && event.agent.depth === (options.depth ?? 0) + 1 ? event.event : event) } : options.ui;
  const tree: SubagentTree = {
    settings,
    slots: new TreeSlots(settings.treeConcurrency),
    sessions: setup.sessions ?? processSubagentSessions(),
    ui,
    root: options.session,
    rootId: rootId ?? options.session.id,
    systemPrompt: options.systemPrompt,
    control: setup.control ?? new SubagentControl(),
    external: setup.external ?? null,
    prices: setup.prices ?? null,
    dataDir: setup.dataDir ?? null,
    runner: setup.runner ?? null,
    remoteKeys: new Map(),
    meter: new TreeMeter(settings.limits.tree, options.now ? () => options.now!().getTime() : Date.now),
    seq: 0,
  };
  return { options: equip({ ...options, ui, retries: options.retries ?? new RetryBudget() }, tree, null), tree };
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
  await confirmFanOut(parent, call, context);
  const width = Math.min(settings.concurrency, call.tasks.length);
  const caps = narrowCaps(settings.limits.child, call.limits);
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
        outcomes[index] = await runSubagent(parent, { spec: call.tasks[index]!, task: index + 1, tasks: call.tasks.length, sessionId: call.sessionId, caps }, batchContext);
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

/**
 * Runs one task (or continues a session) and reports how it ended; only a bad `session_id` throws.
 * A task names its kind: bosun's own loop, or one of the user's agent CLIs (checked, installed and
 * signed in, before it waits for a place: a kind that cannot run fails its task at once). It runs
 * in the parent's folder or in a worktree of its own, held to its caps and the tree's; or, for
 * the top-level agent with a runner (`subagents.backend`), on a worker, which checks the kind.
 */
async function runSubagent(parent: TreeAgent, task: SubagentTask, context: ToolContext): Promise<SubagentOutcome> {
  const { tree, options } = parent;
  const kind = task.spec.agent;
  // The top-level agent's tasks go to the runner when there is one; its workers' own sub-agents run there.
  const remote = parent.self === null ? tree.runner : null;
  const notRun = (text: string): SubagentOutcome => ({ task: task.task, kind, status: "failed", sessionId: null, text, turns: 0, ms: 0 });
  if (!isSubagentKind(kind)) return notRun(`not run: there is no agent "${kind}"; use one of ${SUBAGENT_KINDS.join(", ")}`);
  // A worker checks its own agent CLIs; here, those of this machine.
  const external = kind === "bosun" || remote ? null : await prepareExternal(parent, kind, task.spec.prompt, context);
  if (typeof external === "string") return notRun(external);
  // A continuation is checked before waiting for a place: an unknown or running session fails at once.
  const continuedKey = remote && task.sessionId ? remoteContinuation(tree, task.sessionId) : null;
  const continued = task.sessionId && !remote ? tree.sessions.checkout(task.sessionId) : null;
  let slot: TreeSlot;
  try {
    slot = await tree.slots.acquire(context.signal);
  } catch {
    if (continued) tree.sessions.finish(continued);
    const reason: unknown = context.signal.reason;
    if (reason instanceof CapReachedError) return notStarted(task, kind, continued?.session.id ?? null, reason);
    return { task: task.task, kind, status: "cancelled", sessionId: continued?.session.id ?? null, text: "cancelled before it started", turns: 0, ms: 0 };
  }
  const treeCap = tree.meter.check();
  if (treeCap) {
    slot.release();
    if (continued) tree.sessions.finish(continued);
    return notStarted(task, kind, continued?.session.id ?? null, treeCap);
  }
  let entry: SubagentSessionEntry | null = null;
  try {
    if (!external && !remote) entry = continued ?? tree.sessions.add(newSubagentSession(parent), modelOf(options));
  } catch (error) {
    slot.release();
    throw error;
  }
  // A continued remote sub-agent keeps its id, as a local one does (its key now names the latest task).
  const id = entry ? entry.session.id : continuedKey ? task.sessionId! : newSessionId(options.now?.());
  const run = entry ? entry.runs : 1;
  const depth = (options.depth ?? 0) + 1;
  const ref: SubagentRef = {
    id,
    seq: ++tree.seq,
    depth,
    task: task.task,
    tasks: task.tasks,
    ...(parent.self ? { parent: parent.self.id } : {}),
    ...(external ? { kind: external.kind } : remote && kind !== "bosun" ? { kind } : {}),
  };
  const { redactor } = options;
  const info: SubagentCallInfo = { id, run, prompt: redactor.text(task.spec.prompt), depth, task: task.task, tasks: task.tasks, continued: continued !== null || continuedKey !== null };
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
    ...(ref.kind ? { kind: ref.kind } : {}),
  });
  tree.ui.onEvent({ type: "subagent-start", agent: ref, prompt: info.prompt, continued: info.continued });

  let end: TaskEnd;
  const tracked = tree.control.track(ref.id, context.signal);
  const meter = new CapMeter(task.caps, tree.meter, options.now ? () => options.now!().getTime() : Date.now);
  const onCap = (reason: CapReachedError) => {
    if (reason.scope === "tree") tree.control.stopAll(reason);
    else tracked.stop(reason);
  };
  const childUi = (event: AgentEvent) => tree.ui.onEvent({ type: "subagent-event", agent: ref, event });
  try {
    const start: SubagentStartCall = { ...info };
    await hooks.subagentStart(parentInfo, start);
    if (typeof start.veto === "string" && start.veto !== "") {
      end = { status: "failed", text: `not run: an extension refused it: ${start.veto}`, turns: 0, usage: {} };
    } else if (remote) {
      const key = taskKey(tree.rootId, context.callId, task.task);
      tree.remoteKeys.set(ref.id, key);
      // A job is kept in the store and shown by its tools: it carries the prompt as the parent's redactor left it.
      const spec = { ...task.spec, prompt: info.prompt };
      end = await runRemote(parent, remote, { key, ref, spec, caps: task.caps, continueFrom: continuedKey, parent: parentContext(parent, context) }, { tracked, meter, onCap, childUi });
    } else {
      end = await runBody(parent, { spec: task.spec, ref, entry, slot, external, tracked, meter, onCap, resume: null });
    }
  } catch (error) {
    end = failedEnd(error, tracked, meter);
  } finally {
    tracked.done();
    slot.release();
    if (entry) tree.sessions.finish(entry);
  }
  const ms = Date.now() - started;
  // The answer is model text, redacted like any tool output before an extension, the log or the parent sees it.
  end = { ...end, text: redactor.text(end.text) };
  try {
    await hooks.subagentEnd(parentInfo, { ...info, status: end.status, ms, turns: end.turns, text: end.text });
  } catch (error) {
    end = { ...end, status: "failed", text: redactor.text(describeError(error)) };
  }
  const { text, worktree } = end;
  const failure = end.status === "completed" ? {} : { error: text };
  const extra = { ...(end.costUsd !== undefined ? { costUsd: end.costUsd } : {}), ...(worktree ? { worktree } : {}) };
  tree.root.append({ type: "subagent", phase: "end", id: ref.id, run, status: end.status, ms, turns: end.turns, usage: end.usage, ...failure, ...extra });
  tree.ui.onEvent({ type: "subagent-end", agent: ref, status: end.status, ms, turns: end.turns, usage: end.usage, ...failure, ...extra });
  const continuable = !external && (!remote || kind === "bosun");
  return { task: task.task, kind, status: end.status, sessionId: continuable ? ref.id : null, text, turns: end.turns, ms, usage: end.usage, ...extra };
}

/** How a task that threw ended: stopped by a cap, cancelled, or failed with the error's line. */
function failedEnd(error: unknown, tracked: TrackedSubagent, meter: CapMeter): TaskEnd {
  const stoppedBy = tracked.stoppedBy();
  if (stoppedBy) return { status: "stopped", text: `${stoppedBy.message}; its work is kept`, turns: meter.used.turns, usage: {} };
  if (tracked.signal.aborted) return { status: "cancelled", text: cancelledText(tracked.cancelled()), turns: 0, usage: {} };
  return { status: "failed", text: describeError(error), turns: 0, usage: {} };
}

/** The key of the remote task a `session_id` names; a session this process did not start remotely is refused as unknown. */
function remoteContinuation(tree: SubagentTree, sessionId: string): string {
  const key = tree.remoteKeys.get(sessionId);
  if (!key) throw new UnknownSubagentSessionError(sessionId, SUBAGENT_SESSION_KEEP);
  return key;
}

/** What a task on a worker needs of its parent: the model's name, the approval rules, the folder, the sandbox. */
function parentContext(parent: TreeAgent, context: ToolContext): ParentContext {
  const { options, tree } = parent;
  const gate = options.approval.forSubAgent();
  const sandbox = options.sandbox ? (tree.settings.sandbox ? narrowSandbox(options.sandbox, tree.settings.sandbox) : options.sandbox) : null;
  return {
    session: tree.rootId,
    callId: context.callId,
    model: options.modelRef,
    mode: gate.mode,
    rules: gate.rules,
    grants: gate.grantKeys(),
    workdir: options.workdir,
    sandbox: sandbox ? { mode: sandbox.mode, network: sandbox.network, writable: [...sandbox.writable] } : null,
    maxTurns: options.maxTurns ?? null,
    systemPrompt: tree.systemPrompt ? options.redactor.text(tree.systemPrompt) : null,
    maxDepth: tree.settings.maxDepth,
  };
}

/**
 * A task on the runner: its events reach the parent's UI as a local sub-agent's do, and count
 * against its caps and the tree's here (a cap reached cancels it on its worker); its questions
 * are asked here, through the parent's approver, one at a time with the tree's others.
 */
async function runRemote(parent: TreeAgent, runner: SubagentRunner, order: TaskOrder, watch: { tracked: TrackedSubagent; meter: CapMeter; onCap: (reason: CapReachedError) => void; childUi: (event: AgentEvent) => void }): Promise<TaskEnd> {
  const { tree, options } = parent;
  const caps = watchCaps(watch.meter, (input, output) => (tree.prices && tree.prices.length > 0 ? callCost(tree.prices, input, output) : null), watch.onCap);
  const gate = options.approval.forSubAgent(`sub-agent #${order.ref.seq}`);
  try {
    const end = await runner.run(order, {
      signal: watch.tracked.signal,
      onEvent: (event) => {
        caps.onEvent(event);
        watch.childUi(event);
      },
      ask: (request, signal) => gate.ask(request, signal),
    });
    const stoppedBy = watch.tracked.stoppedBy();
    if (end.status === "cancelled" && stoppedBy) return { ...end, status: "stopped", text: `${stoppedBy.message}; its work is kept` };
    if (end.status === "cancelled") return { ...end, text: cancelledText(watch.tracked.cancelled()) };
    return end;
  } finally {
    caps.dispose();
  }
}

/** One task's run in this process, as the parent's loop or a worker has it. */
interface BodyRun {
  spec: AgentTask;
  ref: SubagentRef;
  /** The session a bosun task runs in; null for an agent CLI's. */
  entry: SubagentSessionEntry | null;
  slot: TreeSlot;
  external: PreparedExternal | null;
  tracked: TrackedSubagent;
  meter: CapMeter;
  onCap: (reason: CapReachedError) => void;
  /** A bosun task picked up again on a worker: where it stood, and where each turn's end is kept. */
  resume: { turns: number; usage: { inputTokens: number; outputTokens: number } } | null;
  onTurnEnd?: (session: Session, turns: number, usage: { inputTokens: number; outputTokens: number }) => Promise<void>;
  /**
   * On a worker, which pickup of its task this is: from the second on, a worktree is a new one
   * (`<task>-p2`), the last pickup's being kept as it left it, on whichever machine ran it.
   */
  pickup?: number;
}

/**
 * Runs one task here: in its workspace (the folder, or a worktree of its own), as bosun's loop
 * or the user's agent CLI, held to its caps; its worktree is read when it ends.
 */
async function runBody(parent: TreeAgent, body: BodyRun): Promise<TaskEnd> {
  const { tree, options } = parent;
  const { ref, tracked, meter, onCap, external } = body;
  const childUi = (event: AgentEvent) => tree.ui.onEvent({ type: "subagent-event", agent: ref, event });
  let end: TaskEnd;
  let workspace: TaskWorkspace | null = null;
  try {
    workspace = await openWorkspace({
      workdir: options.workdir,
      isolation: body.spec.isolation,
      worktreeByDefault: external !== null,
      carryChanges: body.spec.carryChanges,
      dataDir: tree.dataDir,
      session: tree.rootId,
      task: `${ref.seq}-${ref.id.slice(-6)}${body.pickup && body.pickup > 1 ? `-p${body.pickup}` : ""}`,
    });
    if (workspace.note) tree.ui.onEvent({ type: "notice", message: `sub-agent #${ref.seq}: ${workspace.note}` });
    if (external) {
      const result = await runExternal({
        name: external.kind,
        command: sandboxedCli({ file: external.binary, args: external.args, env: { ...tree.external!.env, ...external.env }, cwd: workspace.workdir }, options.sandbox, {
          gitDir: workspace.worktree?.gitDir ?? null,
          ...external.writes,
        }),
        parser: streamParser(external.kind),
        signal: tracked.signal,
        onEvent: childUi,
        meter,
        onCap,
        price: (model, usage) => tree.external!.price(external.kind, model, usage),
        redact: (text) => options.redactor.text(text),
      });
      end = result.status === "cancelled" ? { ...result, text: cancelledText(tracked.cancelled()) } : result;
    } else {
      const caps = watchCaps(meter, (input, output) => (tree.prices && tree.prices.length > 0 ? callCost(tree.prices, input, output) : null), onCap);
      const entry = body.entry!;
      const checkpoint = body.onTurnEnd;
      try {
        const child = childOptions(parent, entry, ref, body.slot, tracked.signal, workspace, caps.onEvent);
        const result = await runAgent(body.spec.prompt, {
          ...child,
          ...(body.resume ? { resume: body.resume } : {}),
          ...(checkpoint ? { onTurnEnd: (turns, usage) => checkpoint(entry.session, turns, usage) } : {}),
        });
        end = { ...runEndOf(result, tracked.cancelled(), tracked.stoppedBy()), costUsd: bosunCost(tree.prices, meter) };
      } finally {
        caps.dispose();
      }
    }
  } catch (error) {
    end = failedEnd(error, tracked, meter);
  }
  if (workspace) {
    try {
      const worktree = await closeWorkspace(workspace);
      if (worktree) end = { ...end, worktree };
    } catch (error) {
      tree.ui.onEvent({ type: "notice", message: `sub-agent #${ref.seq}: its worktree ${workspace.workdir} is kept, but reading what changed there failed: ${describeError(error)}` });
    }
  }
  return end;
}

/** What a worker runs a task with: its own agent (model, tools, sandbox, an approver that asks the parent) and the task's state. */
export interface WorkerTask {
  order: TaskOrder;
  signal: AbortSignal;
  /** The task's events, as `TaskIo.onEvent` passes them on. */
  onEvent(event: AgentEvent): void;
  /** Where it stood when its last worker stopped (its checkpoint), or null for a fresh start. */
  resume: { messages: ModelMessage[]; turns: number; usage: { inputTokens: number; outputTokens: number } } | null;
  /** Which pickup of the task this is (1 for the first; see `BodyRun.pickup`). */
  pickup: number;
  /** The conversation a continued task starts from (`continueFrom`'s last checkpoint). */
  continued: ModelMessage[] | null;
  /** Called at each turn's end with the conversation so far; the task waits for it (the checkpoint). */
  checkpoint(messages: ModelMessage[], turns: number, usage: { inputTokens: number; outputTokens: number }): Promise<void>;
}

/**
 * Runs one task of a remote parent here (on a worker): `options` is the worker's agent for it, at
 * the task's parent level (its model, tools, approval gate, sandbox, folder), `setup` its agent
 * CLIs and data folder. The task's caps hold here; the tree's are its parent's.
 */
export async function runWorkerTask(options: AgentOptions, setup: SubagentSetup, task: WorkerTask): Promise<TaskEnd> {
  const { order } = task;
  const { runner: _remoteOnly, ...local } = setup;
  const root = withSubagentsTree(options, { ...local, settings: { ...setup.settings, maxDepth: order.parent.maxDepth } }, task.onEvent, order.parent.session);
  const parent: TreeAgent = { options: root.options, tree: root.tree, self: null };
  const { tree } = parent;
  const kind = order.spec.agent;
  if (!isSubagentKind(kind)) return { status: "failed", text: `not run: there is no agent "${kind}"; use one of ${SUBAGENT_KINDS.join(", ")}`, turns: 0, usage: {} };
  const context = { callId: order.parent.callId, signal: task.signal };
  const external = kind === "bosun" ? null : await prepareExternal(parent, kind, order.spec.prompt, context);
  if (typeof external === "string") return { status: "failed", text: external, turns: 0, usage: {} };
  const slot = await tree.slots.acquire(task.signal);
  const tracked = tree.control.track(order.ref.id, task.signal);
  const meter = new CapMeter(order.caps, tree.meter, options.now ? () => options.now!().getTime() : Date.now);
  let entry: SubagentSessionEntry | null = null;
  try {
    if (!external) {
      const session = newSubagentSession(parent);
      for (const message of task.resume?.messages ?? task.continued ?? []) session.append({ type: "message", message });
      entry = tree.sessions.add(session, modelOf(options));
    }
    const end = await runBody(parent, {
      spec: order.spec,
      ref: order.ref,
      entry,
      slot,
      external,
      tracked,
      meter,
      onCap: (reason) => tracked.stop(reason),
      resume: task.resume ? { turns: task.resume.turns, usage: task.resume.usage } : null,
      onTurnEnd: (session, turns, usage) => task.checkpoint(session.messages, turns, usage),
      pickup: task.pickup,
    });
    // The whole conversation is kept too, for a later `session_id` on whichever worker; not that
    // of a copy stopped half-way (handed back, or its lock lost): its last finished turn stays.
    if (entry && !task.signal.aborted) await task.checkpoint(entry.session.messages, end.turns, { inputTokens: end.usage.inputTokens ?? 0, outputTokens: end.usage.outputTokens ?? 0 });
    return end;
  } catch (error) {
    return failedEnd(error, tracked, meter);
  } finally {
    tracked.done();
    slot.release();
    if (entry) tree.sessions.finish(entry);
  }
}

/** A task the tree's cap kept from starting. */
function notStarted(task: SubagentTask, kind: string, sessionId: string | null, cap: CapReachedError): SubagentOutcome {
  return { task: task.task, kind, status: "stopped", sessionId, text: `not started: ${cap.message.replace(/^stopped: /, "")}`, turns: 0, ms: 0 };
}

/** An agent CLI ready to run a task: its binary, command line, environment and the folders it writes. */
interface PreparedExternal {
  kind: ExternalKind;
  binary: string;
  args: string[];
  env: Record<string, string>;
  writes: { folders: string[]; files: string[] };
}

/** What checking a call needs of its tool call: its id (for approval) and its signal. */
type CallContext = Pick<ToolContext, "callId" | "signal">;

/** An external kind ready to run this task (its command line), or the one line that says why it cannot. */
async function prepareExternal(parent: TreeAgent, kind: ExternalKind, prompt: string, context: CallContext): Promise<PreparedExternal | string> {
  const { tree, options } = parent;
  if (!tree.external) return `not run: ${kind} cannot run as a sub-agent here (this host runs bosun's own sub-agents only)`;
  let prepared;
  try {
    prepared = await tree.external.prepare(kind, context.signal);
  } catch (error) {
    return `not run: ${describeError(error)}`;
  }
  if (!prepared.ok) return `not run: ${prepared.problem}`;
  const allowed = typeof prepared.config.delegate === "string" && (DELEGATE_MODES as readonly string[]).includes(prepared.config.delegate) ? (prepared.config.delegate as DelegateMode) : "read-only";
  // Its model calls are its own; commands it runs unasked would reach the network the sandbox keeps from the parent's.
  if (allowed === "full" && options.sandbox && options.sandbox.mode !== "off" && options.sandbox.network === "off") {
    return `not run: agents.${kind}.delegate is "full" (it runs commands without asking, with the network), and the sandbox keeps the network from commands here; use "edit", or turn the network on for commands (sandbox.network)`;
  }
  const mode = await parentAllows(parent, kind, allowed, context);
  if (typeof mode !== "string") return mode.refused;
  const launch = headlessLaunch(kind, prepared.config, mode, prompt, tree.external.env);
  if (!launch.ok) return `not run: ${launch.problem}`;
  return { kind, binary: prepared.binary, args: launch.args, env: launch.env, writes: prepared.writes };
}

/**
 * The mode an external task runs in: the one the user allowed in `agents.<id>.delegate`, and
 * never looser than the parent: editing or running commands without asking is asked of the user
 * as the parent's own edits and commands would be (`permissions`, the approval mode); refused, the
 * task does not run.
 */
async function parentAllows(parent: TreeAgent, kind: ExternalKind, allowed: DelegateMode, context: CallContext): Promise<DelegateMode | { refused: string }> {
  if (allowed === "read-only") return allowed;
  const access = allowed === "edit" ? "edit" : "execute";
  const what = allowed === "edit" ? `edits files without asking` : `edits files and runs commands without asking`;
  const outcome = await parent.options.approval.check(
    { tool: AGENT_TOOL_NAME, access, danger: null, description: `${kind} sub-agent that ${what} (agents.${kind}.delegate is "${allowed}")`, callId: context.callId },
    context.signal,
  );
  if (outcome.allowed) return allowed;
  return { refused: `not run: ${outcome.message}` };
}

/** A fan-out of more tasks than `subagents.confirmAbove` asks the user first, when someone can be asked. */
async function confirmFanOut(parent: TreeAgent, call: AgentCall, context: ToolContext): Promise<void> {
  const { confirmAbove } = parent.tree.settings;
  if (call.tasks.length <= confirmAbove || !parent.options.approval.approver) return;
  const outcome = await parent.options.approval.check(
    {
      tool: AGENT_TOOL_NAME,
      access: "read",
      danger: `starts ${call.tasks.length} sub-agents at once (subagents.confirmAbove is ${confirmAbove})`,
      description: `fan out ${call.tasks.length} tasks`,
      callId: context.callId,
    },
    context.signal,
  );
  if (!outcome.allowed) throw new ToolError(outcome.message);
}

/** A bosun sub-agent's cost from the catalog's prices (null when the catalog has none). */
function bosunCost(prices: ModelPrice[] | null, meter: CapMeter): number | null {
  return prices && prices.length > 0 ? Number(meter.used.costUsd.toFixed(10)) : null;
}

/** A sub-agent's answer is the text of its final reply; anything else is a failure it can be continued from. */
function runEndOf(result: AgentRunResult, cancelled: SubagentCancelledError | null, stoppedBy: CapReachedError | null): TaskEnd {
  const { turns, usage } = result;
  const text = result.text.trim();
  if (result.reason === "aborted" && stoppedBy) return { status: "stopped", text: `${stoppedBy.message}; its work is kept`, turns, usage };
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
function childOptions(parent: TreeAgent, entry: SubagentSessionEntry, ref: SubagentRef, slot: TreeSlot, signal: AbortSignal, workspace: TaskWorkspace, watch: (event: AgentEvent) => void): AgentOptions {
  const { options, tree } = parent;
  const ui = tree.ui;
  const sandbox = options.sandbox ? (tree.settings.sandbox ? narrowSandbox(options.sandbox, tree.settings.sandbox) : options.sandbox) : undefined;
  return equip(
    {
      ...entry.model,
      tools: options.tools.without(...SUBAGENT_EXCLUDED_TOOLS),
      session: entry.session,
      approval: options.approval.forSubAgent(`sub-agent #${ref.seq}`),
      redactor: options.redactor,
      extensions: options.extensions ?? null,
      workdir: workspace.workdir,
      env: options.env,
      ...(sandbox ? { sandbox: workspace.worktree ? worktreeSandbox(sandbox, workspace.worktree.path, workspace.worktree.gitDir) : sandbox } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      ui: {
        onEvent: (event) => {
          watch(event);
          ui.onEvent({ type: "subagent-event", agent: ref, event });
        },
      },
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
