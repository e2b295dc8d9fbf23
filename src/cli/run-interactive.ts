import { join } from "node:path";
import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import type { Boot } from "../app/start.js";
import { describeError } from "../kernel/errors.js";
import type { ModelTarget } from "../llm/model-target.js";
import { reportError } from "./errors.js";
import { columns, notify, styler, writeLine, type InputStream, type Output } from "./output.js";
import { statsLine } from "./run-stats.js";
import type { TurnRunner } from "./run-turn.js";

export interface InteractiveRun {
  boot: Boot;
  output: Output;
  stdin: InputStream;
  runner: TurnRunner;
  mode: ApprovalMode;
  /** The session to continue (`--session`, `--continue`); a new one starts with the first message otherwise. */
  sessionId?: string;
  modelSpec?: string;
}

/** What a line typed at the prompt is: a message for the agent, or one of the slash commands. */
export type PromptLine = { kind: "message"; text: string } | { kind: "command"; name: string; argument: string };

/**
 * `/name argument` is a command when `name` is letters only, so a message may start with a path
 * (`/etc/hosts looks wrong`); `//…` sends the line as a message without its first `/`.
 */
export function parsePromptLine(text: string): PromptLine {
  if (text.startsWith("//")) return { kind: "message", text: text.slice(1) };
  const command = /^\/([A-Za-z]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!command) return { kind: "message", text };
  return { kind: "command", name: command[1]!.toLowerCase(), argument: (command[2] ?? "").trim() };
}

const HELP = [
  ["/model [provider/model]", "show the model, or switch to another from the next message on"],
  ["/sessions", "this project's sessions, newest first"],
  ["/help", "this list"],
  ["/exit", "leave (so do Ctrl-D, and Ctrl-C twice at an empty prompt)"],
  ["Enter", "sends the message; end a line with \\ to write another, pasted text keeps its lines"],
  ["Ctrl-C", "cancels the running turn (the session is kept), or clears what you typed"],
  ["Up / Down", "earlier messages (a message that starts with a space is not kept)"],
];

/**
 * `bosun run` on a terminal without a prompt: the user types message after message into one
 * session, each run on the same loop, with the same approvals and session file as a one-shot run
 * (a session begun here can be continued with `--session`/`-c`, and the other way round). A
 * message or command that fails is reported as the CLI reports an error (a bug as an internal
 * error) and the session goes on; leaving, however it happens, says how to continue the session.
 */
export async function runInteractive(run: InteractiveRun): Promise<void> {
  const { boot, output, runner } = run;
  const style = styler(output, "stderr");
  const say = (line: string) => writeLine(output.stderr, line);
  const [{ FileSessionStore }, { projectSessions, sessionsDir, summarizeSessionFile }, { continuedModel }, { projectScope }, { openPromptHistory }, { createPromptInput }] = await Promise.all([
    import("../agent/session/store.js"),
    import("../agent/session/list.js"),
    import("../app/agent-run.js"),
    import("../kernel/project-root.js"),
    import("./prompt-history.js"),
    import("./prompt-input.js"),
  ]);
  const sessions = sessionsDir(boot.paths);
  const scope = projectScope(process.cwd(), boot.paths.home);
  const modelName = (target: ModelTarget) => `${target.providerID}/${target.modelID}`;

  let sessionId: string | undefined;
  let modelSpec = run.modelSpec;
  let opening: string;
  if (run.sessionId) {
    const continued = new FileSessionStore(sessions).read(run.sessionId);
    sessionId = continued.header.id;
    modelSpec ??= continuedModel(continued);
    const title = summarizeSessionFile(continued.file)?.title;
    opening = `continuing ${sessionId}${title ? ` ("${title}")` : ""}`;
  } else opening = "new session";
  let model = modelName(await runner.source.resolve(modelSpec));
  let redactor = await runner.redactor(modelSpec);
  notify(output, `bosun: ${opening} · ${model} · ${run.mode} mode${sessionId ? "" : ` · in ${process.cwd()}`}`);
  notify(output, style("dim", "bosun: type a message and press Enter; /help lists the commands, Ctrl-D leaves"));

  const history = await openPromptHistory(join(boot.paths.state, "prompt-history.jsonl"), {
    redact: (text) => redactor.text(text),
    onError: (error) => say(style("yellow", `bosun: prompts are not kept in the history: ${describeError(error)}`)),
  });
  const input = createPromptInput(run.stdin, output.stderr, history, {
    first: style("cyan", "› "),
    more: style("dim", "… "),
    leaveHint: style("dim", "(press Ctrl-C again or Ctrl-D to leave, or type /exit)"),
  });

  const send = async (prompt: string) => {
    const { result, stats } = await runner.run({
      prompt,
      ...(sessionId ? { sessionId } : {}),
      ...(modelSpec ? { modelSpec } : {}),
      onStart: (info) => {
        if (!sessionId) notify(output, style("dim", `bosun: session ${info.sessionId}`));
        sessionId = info.sessionId;
      },
    });
    if (result.reason === "aborted") say(style("yellow", "bosun: cancelled; the session is kept"));
    if (result.reason === "turn-limit") say(style("yellow", "bosun: the turn limit (--max-turns) stopped it; send a message to go on"));
    notify(output, style("dim", `bosun: ${statsLine(stats)}`));
  };
  const commands: Record<string, (argument: string) => Promise<void> | void> = {
    help: () => {
      for (const line of columns(HELP.map(([keys, does]) => [style("bold", keys!), does!]))) say(line);
    },
    model: async (argument) => {
      if (argument === "") return say(`bosun: the model is ${model}; /model provider/model switches (bosun models lists them)`);
      const [target, redacting] = await Promise.all([runner.source.resolve(argument), runner.redactor(argument)]);
      [model, redactor, modelSpec] = [modelName(target), redacting, argument];
      say(`bosun: the model is now ${model}`);
    },
    sessions: () => {
      const list = projectSessions(sessions, scope, 20);
      if (list.length === 0) return say(`bosun: no sessions in ${scope.root} yet`);
      say(`bosun: sessions in ${scope.root}, newest first (continue one with bosun run --session ID):`);
      const rows = list.map((s) => [s.id === sessionId ? style("cyan", `* ${s.id}`) : `  ${s.id}`, s.updatedAt.replace("T", " ").slice(0, 16), `${s.model.providerID}/${s.model.modelID}`, s.title]);
      for (const line of columns(rows)) say(line);
    },
  };

  try {
    for (;;) {
      const text = await input.read();
      if (text === null) break;
      const line = parsePromptLine(text);
      if (line.kind === "command" && (line.name === "exit" || line.name === "quit")) break;
      try {
        if (line.kind === "message") await send(line.text);
        else if (Object.hasOwn(commands, line.name)) await commands[line.name]!(line.argument);
        else say(`bosun: unknown command /${line.name}; the commands are /model, /sessions, /help and /exit (start a message with // to send a line that begins with /)`);
      } catch (error) {
        reportError(error, output);
      }
    }
  } finally {
    input.close();
    if (sessionId) say(`bosun: session ${sessionId} is saved; continue it with bosun run -c (or --session ${sessionId})`);
  }
}
