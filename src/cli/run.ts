import type { Command } from "commander";
import type { ApprovalMode } from "../agent/approval-policy.js";
import { UserError } from "../errors.js";
import { bootForCommand } from "./boot.js";
import { writeJson, writeLine, type Output } from "./output.js";

interface RunFlags {
  model?: string;
  session?: string;
  mode?: string;
  yes?: boolean;
  maxTurns?: string;
  json?: boolean;
}

/** The run stopped before a final answer; the session is saved and can be continued. */
export class RunStoppedError extends UserError {
  override name = "RunStoppedError";
  constructor(
    message: string,
    override readonly exitCode: number = 1,
  ) {
    super(message);
  }
}

export function registerRun(program: Command, output: Output): void {
  program
    .command("run")
    .description("run bosun's own agent on a prompt: the answer streams to stdout, tool calls and progress to stderr")
    .argument("<prompt>", 'what to do ("-" reads the prompt from stdin)')
    .option("--model <provider/model>", "the model to use (default: the default model, or the resumed session's)")
    .option("--session <id>", "continue a session (its id, or a unique start of it; see bosun sessions)")
    .option("--mode <mode>", "approval mode: ask, auto-edit or full-access (default: permissions.mode in bosun.json, else ask)")
    .option("-y, --yes", "full-access mode: run every tool without asking (dangerous commands still ask)")
    .option("--max-turns <n>", "stop after this many model calls (default 50)")
    .option("--json", "print the result as one JSON object on stdout instead of streaming the text")
    .action(async (promptArgument: string, flags: RunFlags) => {
      const { APPROVAL_MODES } = await import("../agent/approval-policy.js");
      const modeFlag = parseMode(flags, APPROVAL_MODES);
      const maxTurns = parseMaxTurns(flags.maxTurns);
      const prompt = promptArgument === "-" ? await readPromptFromStdin() : promptArgument;
      if (prompt.trim() === "") throw new UserError("the prompt is empty; say what the agent should do");
      const boot = await bootForCommand(output);
      const mode: ApprovalMode = modeFlag ?? boot.config?.value.permissions?.mode ?? "ask";

      const [{ runAgentFromBoot }, { createModelSource }, { createRunRenderer }, { createTerminalPrompter }] = await Promise.all([
        import("../agent/agent-run.js"),
        import("../llm/resolve-model.js"),
        import("./render-run.js"),
        import("./terminal-prompt.js"),
      ]);
      const controller = new AbortController();
      let interrupts = 0;
      const onInterrupt = () => {
        interrupts++;
        if (interrupts === 1) {
          writeLine(output.stderr, "\nbosun: cancelling… (press Ctrl-C again to quit at once)");
          controller.abort();
        } else process.exit(130);
      };
      const interactive = process.stdin.isTTY === true && output.stderr.isTTY === true;
      const prompter = interactive ? createTerminalPrompter(process.stdin, output.stderr, onInterrupt) : null;
      const renderer = createRunRenderer(output, { json: Boolean(flags.json) });
      const ui = prompter ? { ...renderer, askUser: prompter.askUser } : renderer;
      process.on("SIGINT", onInterrupt);
      let sessionId = "";
      try {
        const { result, model } = await runAgentFromBoot(
          boot,
          await createModelSource(boot),
          { prompt, cwd: process.cwd(), mode, ...(flags.model ? { modelSpec: flags.model } : {}), ...(flags.session ? { sessionId: flags.session } : {}), ...(maxTurns ? { maxTurns } : {}) },
          {
            ui,
            approver: prompter?.approver ?? null,
            signal: controller.signal,
            onStart: (info) => {
              sessionId = info.sessionId;
              writeLine(output.stderr, `bosun: ${info.resumed ? "continuing" : "session"} ${info.sessionId} · ${info.model} · ${info.mode} mode${info.workdir !== process.cwd() ? ` · in ${info.workdir}` : ""}`);
              if (!interactive && info.mode !== "full-access") {
                writeLine(output.stderr, `bosun: not attached to a terminal: calls that need approval in ${info.mode} mode will be refused (--yes or --mode change that)`);
              }
            },
          },
        );
        renderer.finish();
        if (flags.json) {
          writeJson(output, { sessionId: result.sessionId, model, mode, reason: result.reason, text: result.text, turns: result.turns, usage: result.usage, toolCalls: renderer.toolCalls, subagents: renderer.subagents, instructions: result.instructions });
        }
        const resume = `bosun run --session ${result.sessionId} "…"`;
        if (result.reason === "aborted") throw new RunStoppedError(`cancelled; the session is saved: continue it with ${resume}`, 130);
        if (result.reason === "turn-limit") throw new RunStoppedError(`stopped after ${result.turns} turns without a final answer (--max-turns); continue with ${resume}`);
      } catch (error) {
        renderer.finish();
        if (sessionId && !(error instanceof RunStoppedError) && error instanceof UserError) {
          throw new UserError(`${error.message} (session ${sessionId} is saved)`, { cause: error });
        }
        throw error;
      } finally {
        process.off("SIGINT", onInterrupt);
      }
    });
}

function parseMode(flags: RunFlags, modes: readonly ApprovalMode[]): ApprovalMode | undefined {
  if (flags.mode !== undefined && !(modes as readonly string[]).includes(flags.mode)) {
    throw new UserError(`--mode must be one of ${modes.join(", ")}, not ${JSON.stringify(flags.mode)}`);
  }
  if (flags.yes && flags.mode !== undefined && flags.mode !== "full-access") throw new UserError(`--yes means --mode full-access; it cannot be combined with --mode ${flags.mode}`);
  return flags.yes ? "full-access" : (flags.mode as ApprovalMode | undefined);
}

function parseMaxTurns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const turns = Number(value);
  if (!Number.isInteger(turns) || turns < 1 || turns > 10_000) throw new UserError(`--max-turns takes a whole number from 1 to 10000, not ${JSON.stringify(value)}`);
  return turns;
}

async function readPromptFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UserError('the prompt "-" reads from stdin, but stdin is a terminal; pass the prompt as an argument or pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
