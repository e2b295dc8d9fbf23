import { existsSync } from "node:fs";
import type { Log } from "../kernel/log.js";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "./start.js";
import { languageModelFor } from "../llm/language-model.js";
import type { ModelPrice, ModelTarget } from "../llm/model-target.js";
import type { ModelSource } from "../llm/model-source.js";
import { ApprovalGate, type Approver } from "../agent/approval/approval.js";
import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import { interceptEvents, type AgentEvent, type AgentUi } from "../agent/events.js";
import { loadInstructions } from "../agent/instruction-files.js";
import { instructionLimits } from "../agent/instructions.js";
import { runAgent, type AgentOptions, type AgentRunResult } from "../agent/loop.js";
import { QuestionTurns } from "../agent/question-turns.js";
import type { ParsedSession } from "../agent/session/format.js";
import { collectSecrets, Redactor } from "../kernel/redact/secrets.js";
import type { Secret } from "../kernel/redact/redact.js";
import { openRunSandbox } from "./run-sandbox.js";
import { FileSessionStore } from "../agent/session/store.js";
import { sessionsDir } from "../agent/session/list.js";
import { withSubagents } from "../agent/subagents/subagent.js";
import { externalAgents } from "./external-agents.js";
import type { SubagentControl } from "../agent/subagents/control.js";
import { ToolRegistry } from "../agent/tools/tool-registry.js";
import { BackgroundJobs } from "../agent/tools/background-jobs.js";
import { builtinTools } from "../agent/tools/builtin.js";
import { RunMcp } from "./run-mcp.js";
import { openSubagentRunner, type OpenedRunner } from "./queue/open-runner.js";

export interface AgentRunRequest {
  prompt: string;
  /** `provider/model`; the default model (or the resumed session's) when absent. */
  modelSpec?: string;
  /** Continue this session instead of starting one. */
  sessionId?: string;
  mode: ApprovalMode;
  maxTurns?: number;
  cwd: string;
}

export interface AgentRunIo {
  ui: AgentUi;
  approver: Approver | null;
  /**
   * The turns the approver's questions take, when the host asks other questions too (the
   * terminal prompter's, which `ask_user` shares); a run of its own otherwise. While one is open,
   * what the agents report waits before it reaches `ui` (the log has it at once).
   */
  questions?: QuestionTurns;
  signal: AbortSignal;
  /** Called once the session is open, before the first model call. */
  onStart?(info: RunStartInfo): void;
  /**
   * What runs once everything is set up: the agent loop on the prompt (`runAgent`) unless a host
   * drives the agent otherwise with the same options (tools, approval, sandbox, session,
   * sub-agents, signal): `bosun mcp serve`'s delegate hands its tasks straight to the sub-agents.
   */
  drive?(prompt: string, options: AgentOptions): Promise<AgentRunResult>;
  /**
   * The MCP servers of `bosun.json` when the host keeps them for several runs (the turns of an
   * interactive session), or null for none; when absent, this run starts its own and stops them
   * when it ends.
   */
  mcp?: RunMcp | null;
  /** Sees every event as it happens, also while a question holds `ui` back (the run's control channel, like the log). */
  observe?(event: AgentEvent): void;
  /** How the host stops this run's sub-agents from outside it (the dashboard's Cancel). */
  subagents?: SubagentControl;
}

/** The run as it starts: its session, the model (with its prices, when the catalog knows them), where it works. */
export interface RunStartInfo {
  sessionId: string;
  model: string;
  prices: ModelPrice[] | null;
  mode: ApprovalMode;
  resumed: boolean;
  workdir: string;
}

export interface AgentRunOutcome {
  /** The loop's result; `result.instructions` lists the AGENTS.md files the system prompt held. */
  result: AgentRunResult;
  model: string;
}

/**
 * `bosun run` as a whole: pick the model (the session's, on resume, unless `--model` says
 * otherwise) while opening the sandbox its tools run in (`bosun.json` `sandbox`), gather the
 * secrets to redact, open or create the session, read the project's instruction files, build the
 * approval gate from the mode and `bosun.json` `permissions`, and run the loop with bosun's tools
 * and the extension points of this boot. Log lines go through
 * the same redactor, and are written as things happen, also while a question holds the UI back.
 */
export async function runAgentFromBoot(boot: Boot, source: ModelSource, request: AgentRunRequest, io: AgentRunIo): Promise<AgentRunOutcome> {
  const lookup = new FileSessionStore(sessionsDir(boot.paths));
  const resumed = request.sessionId ? lookup.read(request.sessionId) : null;
  const spec = request.modelSpec ?? (resumed ? continuedModel(resumed) : undefined);
  const workdir = resumed && existsSync(resumed.header.workdir) ? resumed.header.workdir : request.cwd;
  // Started first, so that they start while the model is resolved and the session opened.
  const ownMcp = io.mcp === undefined ? await RunMcp.open(boot, workdir) : null;
  const mcp = io.mcp ?? ownMcp;
  try {
    return await runWithServers(boot, source, request, io, { resumed, spec, workdir, mcp });
  } finally {
    await ownMcp?.stop();
  }
}

/** What `runAgentFromBoot` found before the run proper: the session to continue, the model asked for, the folder, the MCP servers. */
interface RunSetup {
  resumed: ParsedSession | null;
  spec: string | undefined;
  workdir: string;
  mcp: RunMcp | null;
}

async function runWithServers(boot: Boot, source: ModelSource, request: AgentRunRequest, io: AgentRunIo, { resumed, spec, workdir, mcp }: RunSetup): Promise<AgentRunOutcome> {
  // Checked while the model is resolved; before anything is written, a sandbox that is required
  // and cannot be had stops the run here.
  const opening = openRunSandbox(boot, source.credentialEnvVars, workdir);
  opening.catch(() => undefined); // awaited below, unless resolving the model fails first
  const runnerNotices: string[] = [];
  // The queue of `subagents.backend`, checked as the run starts: a store that cannot be used stops it here.
  const connecting = openSubagentRunner(boot, (message) => runnerNotices.push(message));
  connecting.catch(() => undefined);
  let target: ModelTarget;
  let opened: Awaited<typeof connecting>;
  try {
    target = await source.resolve(spec);
    opened = await connecting;
  } catch (error) {
    void connecting.then((runner) => runner?.close(), () => undefined);
    throw error;
  }
  try {
    return await runWithRunner(boot, source, request, io, { resumed, spec, workdir, mcp }, { target, opening, runner: opened, runnerNotices });
  } finally {
    await opened?.close();
  }
}

/** The run once its model and its sub-agents' runner are known. */
async function runWithRunner(boot: Boot, source: ModelSource, request: AgentRunRequest, io: AgentRunIo, { resumed, workdir, mcp }: RunSetup, ready: { target: ModelTarget; opening: ReturnType<typeof openRunSandbox>; runner: OpenedRunner | null; runnerNotices: string[] }): Promise<AgentRunOutcome> {
  const config = boot.config?.value ?? {};
  const { target } = ready;
  const { sandbox, notices: sandboxNotices } = await ready.opening;
  const notices = sandboxNotices;

  const redactor = await runRedactor(boot, source, target, mcp?.secrets() ?? []);
  // MCP servers seen before start once the first request is answered, out of its way.
  const model = mcp ? await mcp.afterFirstRequest(await languageModelFor(target)) : await languageModelFor(target);
  const store = new FileSessionStore(sessionsDir(boot.paths), redactor);
  const session = resumed ? store.open(resumed.header.id) : store.create({ workdir: request.cwd, model: { providerID: target.providerID, modelID: target.modelID, name: target.name }, bosunVersion: packageVersion() });
  const modelName = `${target.providerID}/${target.modelID}`;
  const log = redactingLog(boot.log, redactor);
  const questions = io.questions ?? new QuestionTurns();
  const ui = loggingUi(questions.holding(io.ui), log, session.id, io.observe);
  const jobs = new BackgroundJobs();

  try {
    const instructions = loadInstructions({ workdir, configDir: boot.paths.config, home: boot.paths.home }, instructionLimits(target.limits.context));
    const approval = new ApprovalGate({
      mode: request.mode,
      rules: config.permissions ?? {},
      approver: io.approver,
      questions,
      grants: session.state.grants,
      onGrant: (key) => session.append({ type: "grant", key }),
    });
    io.onStart?.({ sessionId: session.id, model: modelName, prices: target.prices ?? null, mode: request.mode, resumed: resumed !== null, workdir });
    log.info("agent run started", { session: session.id, model: modelName, mode: request.mode, resumed: resumed !== null, workdir, instructions: instructions.files.map((f) => f.file) });
    for (const message of notices) {
      log.warn("sandbox", { session: session.id, message });
      ui.onEvent({ type: "notice", message });
    }
    for (const message of ready.runnerNotices) {
      log.info("sub-agents", { session: session.id, message });
      ui.onEvent({ type: "notice", message });
    }
    for (const { file, reason } of instructions.skipped) {
      log.warn("instruction file not used", { session: session.id, file, reason });
      ui.onEvent({ type: "notice", message: `instructions: ${file} is not used: it ${reason}` });
    }
    // The first model request needs the tool list: the cached lists of servers seen before, else
    // the run waits here for what is left of the servers' start.
    const mcpTools = mcp ? await mcp.toolsFor({ ui, redactor, log, signal: io.signal }) : [];
    const options = withSubagents(
      {
        ...modelOptions(target, model),
        tools: new ToolRegistry([...builtinTools(), ...mcpTools]),
        session,
        approval,
        redactor,
        extensions: boot.extensions,
        workdir,
        instructions,
        env: sandbox.env,
        sandbox,
        jobs,
        ui,
        signal: io.signal,
        ...(request.maxTurns ? { maxTurns: request.maxTurns } : {}),
      },
      {
        settings: config.subagents ?? {},
        ...(io.subagents ? { control: io.subagents } : {}),
        external: externalAgents(boot, source, workdir),
        dataDir: boot.paths.data,
        prices: target.prices ?? null,
        ...(ready.runner ? { runner: ready.runner.runner } : {}),
      },
    );
    const result = await (io.drive ?? runAgent)(request.prompt, options);
    log.info("agent run ended", { session: session.id, reason: result.reason, turns: result.turns, usage: result.usage });
    return { result, model: modelName };
  } catch (error) {
    log.error("agent run failed", { session: session.id, error: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    mcp?.endTurn();
    await jobs.stopAll();
    session.close();
  }
}

/** The agent's options that come from its model: the language model, its name, its limits, whether it calls tools. */
export function modelOptions(target: ModelTarget, model: AgentOptions["model"]): Pick<AgentOptions, "model" | "modelRef" | "limits" | "toolCalls"> {
  return { model, modelRef: { providerID: target.providerID, modelID: target.modelID }, limits: target.limits, toolCalls: target.toolCall };
}

/**
 * What a run on `target` redacts: the provider credentials `source` knows of (in the environment
 * and in bosun's own store), the model's key, the variables `bosun.json` `secrets` lists, every
 * variable whose name says it holds a credential, and `extra` (what the MCP servers' references
 * stand for).
 */
export async function runRedactor(boot: Boot, source: ModelSource, target: ModelTarget, extra: readonly Secret[] = []): Promise<Redactor> {
  const secrets = await collectSecrets({
    env: boot.env,
    credentialEnvVars: source.credentialEnvVars,
    configuredEnvVars: boot.config?.value.secrets ?? [],
    storedCredentials: () => source.storedCredentials(),
    extra: [...(target.apiKey ? [{ name: `${target.providerID}_credential`, value: target.apiKey }] : []), ...extra],
  });
  return new Redactor(secrets);
}

/** The model a continued session runs with by default: the one its last run used (it may have switched), else its first. */
export function continuedModel(session: Pick<ParsedSession, "header" | "events">): string {
  for (let i = session.events.length - 1; i >= 0; i--) {
    const event = session.events[i]!;
    if (event.type === "run" && event.phase === "start") return event.model;
  }
  return `${session.header.model.providerID}/${session.header.model.modelID}`;
}

/** A log whose messages and fields are redacted before they are written. */
export function redactingLog(log: Log, redactor: Redactor): Log {
  return {
    info: (message, fields) => log.info(redactor.text(message), fields && redactor.deep(fields)),
    warn: (message, fields) => log.warn(redactor.text(message), fields && redactor.deep(fields)),
    error: (message, fields) => log.error(redactor.text(message), fields && redactor.deep(fields)),
  };
}

/** Passes events on to the UI and logs the ones worth keeping (tools, retries, compaction, sub-agents); `observe` sees each first. */
function loggingUi(ui: AgentUi, log: Log, session: string, observe?: (event: AgentEvent) => void): AgentUi {
  const logEvent = (event: AgentEvent, fields: Record<string, unknown>): void => {
    if (event.type === "tool-end") log.info("agent tool call", { ...fields, tool: event.tool, status: event.status, ms: event.ms, summary: event.summary });
    else if (event.type === "retry") log.warn("agent model call retried", { ...fields, attempt: event.attempt, delayMs: event.delayMs, reason: event.reason });
    else if (event.type === "compaction") log.info("agent context compacted", { ...fields, step: event.step, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter });
    else if (event.type === "subagent-start") log.info("sub-agent started", { ...fields, subagent: event.agent.id, depth: event.agent.depth, continued: event.continued });
    else if (event.type === "subagent-end") log.info("sub-agent ended", { ...fields, subagent: event.agent.id, status: event.status, ms: event.ms, turns: event.turns, ...(event.error ? { error: event.error } : {}) });
    else if (event.type === "subagent-event") logEvent(event.event, { ...fields, subagent: event.agent.id });
  };
  return interceptEvents(ui, (event: AgentEvent, forward) => {
    observe?.(event);
    logEvent(event, { session });
    forward(event);
  });
}
