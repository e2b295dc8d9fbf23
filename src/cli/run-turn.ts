import type { AgentRunOutcome, RunStartInfo } from "../app/agent-run.js";
import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import type { Redactor } from "../kernel/redact/secrets.js";
import type { Boot } from "../app/start.js";
import type { ModelSource } from "../llm/model-source.js";
import type { InputStream, Output } from "./output.js";
import type { RunRenderer } from "./render-run.js";
import type { RunStats } from "./run-stats.js";
import type { RunMcp } from "../app/run-mcp.js";
import type { RunControl } from "../app/run-control/run-control.js";

export interface TurnRunnerOptions {
  mode: ApprovalMode;
  maxTurns?: number;
  json: boolean;
  /** stdin and stderr are a terminal: approvals and the agent's questions are asked there. */
  terminal: boolean;
  stdin: InputStream;
}

/** One prompt for the agent: a new session, or `sessionId` continued. */
export interface TurnRequest {
  prompt: string;
  sessionId?: string;
  modelSpec?: string;
  onStart?(info: RunStartInfo): void;
}

export interface TurnOutcome extends AgentRunOutcome {
  /** What the turn showed, with its tool calls and sub-agents for `--json`. */
  renderer: RunRenderer;
  stats: RunStats;
}

/** Runs prompts on bosun's agent loop, one at a time, as `bosun run` shows them. */
export interface TurnRunner {
  readonly source: ModelSource;
  run(request: TurnRequest): Promise<TurnOutcome>;
  /** What a turn on this model (`provider/model`, default the default one) redacts, for anything else bosun keeps of the run. */
  redactor(modelSpec?: string): Promise<Redactor>;
  /** Stops what the turns shared (the MCP servers); once, when bosun run is done. */
  close(): Promise<void>;
}

/**
 * What one-shot and interactive runs share: the model source, the MCP servers of `bosun.json`
 * (started here, in the background, so that they start while bosun sets the run up; stopped by
 * `close`), the terminal prompter, the spinner and Ctrl-C. The first Ctrl-C during a turn
 * cancels it (the loop stops the model's stream and every running command, and saves the
 * session); a second one quits at once with 130. Between turns bosun does not listen for it:
 * Ctrl-C is then the interactive prompt's, or, before there is one (while bosun starts), quits as
 * in any program. The run's control channel (app/run-control) lets an open `bosun serve` page watch
 * each turn live, answer its approvals, cancel its sub-agents and stop it.
 */
export async function createTurnRunner(boot: Boot, output: Output, options: TurnRunnerOptions): Promise<TurnRunner> {
  const opening = import("../app/run-mcp.js").then(({ RunMcp }) => RunMcp.open(boot, process.cwd()));
  opening.catch(() => undefined); // awaited once the rest is loaded
  const notices: { say(message: string): void } = { say: () => undefined };
  // Opened while the rest loads, like the MCP servers.
  const controlling = openRunControl(boot, options, (message) => notices.say(message));
  try {
    return await turnRunner(boot, output, options, opening, controlling, notices);
  } catch (error) {
    // The servers started for a runner that could not be made: stopped, or bosun would not exit.
    await (await opening.catch(() => null))?.stop();
    await (await controlling)?.close();
    throw error;
  }
}

/**
 * The run's control channel, or null when its socket cannot be made: the run goes on without a
 * live page. A folder bosun cannot use is not said here (the run stops on it in one line when it
 * needs the folder, and `bosun status` shows it); anything else is a line in the log.
 */
async function openRunControl(boot: Boot, options: TurnRunnerOptions, notice: (message: string) => void): Promise<RunControl | null> {
  const [{ RunControl }, { runsDir }, { packageVersion }, { FolderError }] = await Promise.all([
    import("../app/run-control/run-control.js"),
    import("../app/run-control/run-records.js"),
    import("../kernel/package-info.js"),
    import("../kernel/fs/folder-error.js"),
  ]);
  try {
    return await RunControl.open({ dir: runsDir(boot.paths), terminal: options.terminal, bosun: packageVersion(), notice });
  } catch (error) {
    if (!(error instanceof FolderError)) boot.log.warn("the run's control channel could not be opened: bosun serve will not show this run live", { error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

async function turnRunner(boot: Boot, output: Output, options: TurnRunnerOptions, opening: Promise<RunMcp | null>, controlling: Promise<RunControl | null>, notices: { say(message: string): void }): Promise<TurnRunner> {
  const [{ runAgentFromBoot, runRedactor }, { createModelSource }, { createRunRenderer }, { createTerminalPrompter }, { createWaitSpinner }] = await Promise.all([
    import("../app/agent-run.js"),
    import("../app/resolve-model.js"),
    import("./render-run.js"),
    import("./terminal-prompt.js"),
    import("./spinner.js"),
  ]);
  const source = await createModelSource(boot);
  const mcp = await opening;
  const control = await controlling;
  let current: { controller: AbortController; renderer: RunRenderer } | null = null;
  let interrupts = 0;
  const onInterrupt = () => {
    if (!current) return;
    interrupts++;
    if (interrupts > 1) process.exit(130);
    current.renderer.onEvent({ type: "notice", message: "cancelling… (press Ctrl-C again to quit at once)" });
    current.controller.abort();
  };
  const prompter = options.terminal ? createTerminalPrompter(options.stdin, output.stderr, onInterrupt) : null;
  const spinner = await createWaitSpinner(output);
  // What a dashboard page did goes to the turn's progress, or to stderr between turns.
  notices.say = (message) => {
    if (current) current.renderer.onEvent({ type: "notice", message });
    else output.stderr.write(`bosun: ${message}\n`);
  };

  return {
    source,
    async run(request) {
      const turn = new AbortController();
      const started = Date.now();
      const renderer = createRunRenderer(output, { json: options.json, spinner });
      current = { controller: turn, renderer };
      interrupts = 0;
      process.on("SIGINT", onInterrupt);
      const ui = prompter ? { ...renderer, askUser: prompter.askUser } : renderer;
      let prices: RunStartInfo["prices"] = null;
      let ending = "failed";
      control?.startTurn(turn);
      try {
        const outcome = await runAgentFromBoot(
          boot,
          source,
          {
            prompt: request.prompt,
            cwd: process.cwd(),
            mode: options.mode,
            ...(request.modelSpec ? { modelSpec: request.modelSpec } : {}),
            ...(request.sessionId ? { sessionId: request.sessionId } : {}),
            ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
          },
          {
            ui,
            approver: control ? control.approver(prompter?.approver ?? null) : (prompter?.approver ?? null),
            ...(prompter ? { questions: prompter.turns } : {}),
            signal: turn.signal,
            mcp,
            ...(control ? { observe: (event) => control.observe(event), subagents: control.subagents } : {}),
            onStart: (info) => {
              prices = info.prices;
              control?.describeTurn({ session: info.sessionId, model: info.model, mode: info.mode, workdir: info.workdir });
              request.onStart?.(info);
            },
          },
        );
        ending = outcome.result.reason;
        return { ...outcome, renderer, stats: renderer.stats(outcome.result.turns, Date.now() - started, prices) };
      } finally {
        control?.endTurn(ending);
        renderer.finish();
        current = null;
        process.off("SIGINT", onInterrupt);
      }
    },
    async redactor(modelSpec) {
      return runRedactor(boot, source, await source.resolve(modelSpec), mcp?.secrets() ?? []);
    },
    async close() {
      await Promise.all([mcp?.stop(), control?.close()]);
    },
  };
}
