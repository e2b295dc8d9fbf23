import { fstatSync } from "node:fs";
import type { Command } from "commander";
import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import type { ProjectScope } from "../kernel/project-root.js";
import type { Boot } from "../app/start.js";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { styler, notify, writeJson, type InputStream, type Output } from "./output.js";
import type { TurnRunner } from "./run-turn.js";

interface RunFlags {
  model?: string;
  session?: string;
  continue?: boolean;
  mode?: string;
  yes?: boolean;
  maxTurns?: string;
  json?: boolean;
}

/** The run stopped before a final answer, or had calls refused; the session is saved and can be continued. */
export class RunStoppedError extends UserError {
  override name = "RunStoppedError";
  constructor(
    message: string,
    override readonly exitCode: number = 1,
  ) {
    super(message);
  }
}

/** `--continue` found no session of this project. */
export class NoSessionToContinueError extends UserError {
  override name = "NoSessionToContinueError";
  constructor(readonly scope: ProjectScope) {
    super(`no session to continue in ${scope.root}${scope.nested ? " (nor in a folder below it)" : ""}; start one with bosun run "…", or see bosun sessions for the others`);
  }
}

/** How long a pipe may stay silent before bosun says it is waiting on it. */
const SILENT_STDIN_MS = 1_000;
const STILL_READING = "bosun: reading the prompt from stdin until it is closed; nothing has come yet (to give the prompt as words instead: bosun run fix the failing test)";

const NEEDS_PROMPT = "no prompt: give it as words (bosun run fix the failing test), pipe it in (… | bosun run), or start bosun run in a terminal to type one message after another";

export function registerRun(program: Command, output: Output): void {
  program
    .command("run")
    .description("run bosun's own agent: on a prompt (the answer streams to stdout, tool calls and progress to stderr), or, in a terminal without one, message after message")
    .argument("[prompt...]", 'what to do, in as many words as you like ("-" alone reads the prompt from stdin; none, in a terminal, starts an interactive session)')
    .option("--model <provider/model>", "the model to use (default: the default model, or the continued session's)")
    .option("--session <id>", "continue a session (its id, or a unique start of it; see bosun sessions)")
    .option("-c, --continue", "continue the most recent session of this project")
    .option("--mode <mode>", "approval mode: ask, auto-edit or full-access (default: permissions.mode in bosun.json, else ask)")
    .option("-y, --yes", "full-access mode: run every tool without asking (dangerous commands still ask)")
    .option("--max-turns <n>", "stop after this many model calls (default 50)")
    .option("--json", "print the result as one JSON object on stdout instead of streaming the text")
    .action(async (words: string[], flags: RunFlags) => {
      const modeFlag = (await import("./approval-mode-flag.js")).approvalModeFlag(flags);
      const maxTurns = parseMaxTurns(flags.maxTurns);
      if (flags.continue && flags.session !== undefined) throw new UserError("--continue and --session both choose the session to continue; give one of them");
      const stdin = output.stdin ?? process.stdin;
      const terminal = stdin.isTTY === true && output.stderr.isTTY === true;
      const prompt = await promptOf(words, stdin, terminal, () => notify(output, STILL_READING));
      if (prompt === null && flags.json) throw new UserError("--json needs a prompt: an interactive session has no single result to print");
      const boot = await bootForCommand(output);
      const mode: ApprovalMode = modeFlag ?? boot.config?.value.permissions?.mode ?? "ask";
      const sessionId = flags.continue ? await latestSessionOfProject(boot) : flags.session;

      const { createTurnRunner } = await import("./run-turn.js");
      const runner = await createTurnRunner(boot, output, { mode, json: Boolean(flags.json), terminal, stdin, ...(maxTurns ? { maxTurns } : {}) });
      try {
        if (prompt === null) {
          const { runInteractive } = await import("./run-interactive.js");
          await runInteractive({ boot, output, stdin, runner, mode, ...(sessionId ? { sessionId } : {}), ...(flags.model ? { modelSpec: flags.model } : {}) });
        } else await runOnce(runner, output, { prompt, mode, terminal, json: Boolean(flags.json), ...(sessionId ? { sessionId } : {}), ...(flags.model ? { modelSpec: flags.model } : {}) });
      } finally {
        // The MCP servers stop with the run, however it ended.
        await runner.close();
      }
    });
}

interface OneShot {
  prompt: string;
  mode: ApprovalMode;
  terminal: boolean;
  json: boolean;
  sessionId?: string;
  modelSpec?: string;
}

/** `bosun run PROMPT`: one prompt, the closing stats line, and the exit code that says how it ended. */
async function runOnce(runner: TurnRunner, output: Output, run: OneShot): Promise<void> {
  const [{ statsLine }, { EXIT_UNAPPROVED, unapprovedAdvice }] = await Promise.all([import("./run-stats.js"), import("./run-refusals.js")]);
  let sessionId = "";
  try {
    const { result, model, renderer, stats } = await runner.run({
      prompt: run.prompt,
      ...(run.sessionId ? { sessionId: run.sessionId } : {}),
      ...(run.modelSpec ? { modelSpec: run.modelSpec } : {}),
      onStart: (info) => {
        sessionId = info.sessionId;
        notify(output, `bosun: ${info.resumed ? "continuing" : "session"} ${info.sessionId} · ${info.model} · ${info.mode} mode${info.workdir !== process.cwd() ? ` · in ${info.workdir}` : ""}`);
        if (!run.terminal && info.mode !== "full-access") {
          notify(output, `bosun: not attached to a terminal: calls that need approval in ${info.mode} mode will be refused unless a bosun serve page is open to answer them (--yes or --mode change that)`);
        }
      },
    });
    notify(output, styler(output, "stderr")("dim", `bosun: ${statsLine(stats)}`));
    if (run.json) {
      writeJson(output, {
        sessionId: result.sessionId,
        model,
        mode: run.mode,
        reason: result.reason,
        text: result.text,
        turns: result.turns,
        usage: result.usage,
        toolCalls: renderer.toolCalls,
        subagents: renderer.subagents,
        instructions: result.instructions,
        stats,
      });
    }
    const resume = `bosun run --session ${result.sessionId} "…"`;
    if (result.reason === "aborted") throw new RunStoppedError(`cancelled; the session is saved: continue it with ${resume}`, 130);
    if (result.reason === "turn-limit") throw new RunStoppedError(`stopped after ${result.turns} turns without a final answer (--max-turns); continue with ${resume}`);
    if (renderer.unapproved.length > 0) throw new RunStoppedError(unapprovedAdvice(renderer.unapproved, run.mode), EXIT_UNAPPROVED);
  } catch (error) {
    if (sessionId && !(error instanceof RunStoppedError) && error instanceof UserError) {
      throw new UserError(`${error.message} (session ${sessionId} is saved)`, { cause: error });
    }
    throw error;
  }
}

/**
 * The prompt: the words joined (so `bosun run fix the bug` needs no quotes), stdin for `-` or for
 * no words with stdin piped, or null for an interactive session (no words, on a terminal). A pipe
 * that brings nothing for SILENT_STDIN_MS calls `onSilence` once: an IDE, a CI step or a parent's
 * `stdin=PIPE` can hand bosun a pipe that nobody writes to or closes.
 */
async function promptOf(words: string[], stdin: InputStream, terminal: boolean, onSilence: () => void): Promise<string | null> {
  let prompt: string;
  if (words.length === 1 && words[0] === "-") {
    if (stdin.isTTY) throw new UserError('the prompt "-" reads from stdin, but stdin is a terminal; pass the prompt as words or pipe it in');
    prompt = await readAll(stdin, onSilence);
  } else if (words.length > 0) prompt = words.join(" ");
  else if (terminal) return null;
  else if (isPiped(stdin)) prompt = await readAll(stdin, onSilence);
  else throw new UserError(NEEDS_PROMPT);
  if (prompt.trim() === "") throw new UserError("the prompt is empty; say what the agent should do");
  return prompt;
}

/** Whether stdin brings data (a pipe, a file, a socket) rather than nothing (`/dev/null`, closed) or a terminal. */
function isPiped(stdin: InputStream): boolean {
  if (stdin !== process.stdin) return !stdin.isTTY;
  try {
    const info = fstatSync(0);
    return info.isFIFO() || info.isFile() || info.isSocket();
  } catch {
    return false;
  }
}

async function readAll(stdin: InputStream, onSilence: () => void): Promise<string> {
  const chunks: Buffer[] = [];
  const silence = setTimeout(onSilence, SILENT_STDIN_MS);
  try {
    for await (const chunk of stdin) {
      clearTimeout(silence);
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
    }
  } finally {
    clearTimeout(silence);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `--continue`: the session of this project (see `projectScope`) that was active last. */
async function latestSessionOfProject(boot: Boot): Promise<string> {
  const [{ projectSessions, sessionsDir }, { projectScope }] = await Promise.all([import("../agent/session/list.js"), import("../kernel/project-root.js")]);
  const scope = projectScope(process.cwd(), boot.paths.home);
  const latest = projectSessions(sessionsDir(boot.paths), scope, 1)[0];
  if (!latest) throw new NoSessionToContinueError(scope);
  return latest.id;
}

function parseMaxTurns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const turns = Number(value);
  if (!Number.isInteger(turns) || turns < 1 || turns > 10_000) throw new UserError(`--max-turns takes a whole number from 1 to 10000, not ${JSON.stringify(value)}`);
  return turns;
}
