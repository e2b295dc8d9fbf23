import { join } from "node:path";
import type { ApprovalMode } from "../agent/approval/approval-policy.js";
import type { Boot } from "../app/start.js";
import { describeError } from "../kernel/errors.js";
import type { ModelTarget } from "../llm/model-target.js";
import { reportError } from "./errors.js";
import { columns, notify, styler, writeLine, type InputStream, type Output } from "./output.js";
import { statsLine } from "./run-stats.js";
import type { TurnRunner } from "./run-turn.js";
import type { PromptInput } from "./prompt-input.js";
import type { SessionSummary } from "../agent/session/list.js";
import type { Redactor } from "../kernel/redact/secrets.js";

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
  const model = modelName(await runner.source.resolve(modelSpec));
  const redactor = await runner.redactor(modelSpec);
  const chat: Chat = { run, style, say, sessionId, modelSpec, model, redactor };
  notify(output, `bosun: ${opening} · ${model} · ${run.mode} mode${sessionId ? "" : ` · in ${process.cwd()}`}`);
  notify(output, style("dim", "bosun: type a message and press Enter; /help lists the commands, Ctrl-D leaves"));

  const history = await openPromptHistory(join(boot.paths.state, "prompt-history.jsonl"), {
    redact: (text) => chat.redactor.text(text),
    onError: (error) => say(style("yellow", `bosun: prompts are not kept in the history: ${describeError(error)}`)),
  });
  const input = createPromptInput(run.stdin, output.stderr, history, {
    first: style("cyan", "› "),
    more: style("dim", "… "),
    leaveHint: style("dim", "(press Ctrl-C again or Ctrl-D to leave, or type /exit)"),
  });

  const commands = chatCommands(chat, { root: scope.root, list: () => projectSessions(sessions, scope, 20) });
  try {
    await converse(input, chat, commands);
  } finally {
    input.close();
    if (chat.sessionId) say(`bosun: session ${chat.sessionId} is saved; continue it with bosun run -c (or --session ${chat.sessionId})`);
  }
}

/** What the messages of one interactive run share: the session (once the first message has started it) and the model, which /model changes. */
interface Chat {
  run: InteractiveRun;
  style: ReturnType<typeof styler>;
  say(line: string): void;
  sessionId: string | undefined;
  modelSpec: string | undefined;
  model: string;
  redactor: Redactor;
}

type Commands = Record<string, (argument: string) => Promise<void> | void>;

/** Message after message until the user leaves; a message or command that fails is reported and the session goes on. */
async function converse(input: PromptInput, chat: Chat, commands: Commands): Promise<void> {
  for (;;) {
    const text = await input.read();
    if (text === null) return;
    const line = parsePromptLine(text);
    if (line.kind === "command" && (line.name === "exit" || line.name === "quit")) return;
    try {
      if (line.kind === "message") await sendMessage(chat, line.text);
      else if (Object.hasOwn(commands, line.name)) await commands[line.name]!(line.argument);
      else chat.say(`bosun: unknown command /${line.name}; the commands are /model, /sessions, /help and /exit (start a message with // to send a line that begins with /)`);
    } catch (error) {
      reportError(error, chat.run.output);
    }
  }
}

/** Runs one message as a turn of the session (starting it with the first), then says how it ended and what it cost. */
async function sendMessage(chat: Chat, prompt: string): Promise<void> {
  const { output, runner } = chat.run;
  const { style, say, sessionId, modelSpec } = chat;
  const { result, stats } = await runner.run({
    prompt,
    ...(sessionId ? { sessionId } : {}),
    ...(modelSpec ? { modelSpec } : {}),
    onStart: (info) => {
      if (!chat.sessionId) notify(output, style("dim", `bosun: session ${info.sessionId}`));
      chat.sessionId = info.sessionId;
    },
  });
  if (result.reason === "aborted") say(style("yellow", "bosun: cancelled; the session is kept"));
  if (result.reason === "turn-limit") say(style("yellow", "bosun: the turn limit (--max-turns) stopped it; send a message to go on"));
  notify(output, style("dim", `bosun: ${statsLine(stats)}`));
}

/** The slash commands: /help, /model (shows or switches the model), /sessions (this project's, newest first). */
function chatCommands(chat: Chat, projectSessions: { root: string; list(): SessionSummary[] }): Commands {
  const { style, say } = chat;
  const { runner } = chat.run;
  return {
    help: () => {
      for (const line of columns(HELP.map(([keys, does]) => [style("bold", keys!), does!]))) say(line);
    },
    model: async (argument) => {
      if (argument === "") return say(`bosun: the model is ${chat.model}; /model provider/model switches (bosun models lists them)`);
      const [target, redacting] = await Promise.all([runner.source.resolve(argument), runner.redactor(argument)]);
      [chat.model, chat.redactor, chat.modelSpec] = [modelName(target), redacting, argument];
      say(`bosun: the model is now ${chat.model}`);
    },
    sessions: () => {
      const list = projectSessions.list();
      if (list.length === 0) return say(`bosun: no sessions in ${projectSessions.root} yet`);
      say(`bosun: sessions in ${projectSessions.root}, newest first (continue one with bosun run --session ID):`);
      const rows = list.map((s) => [s.id === chat.sessionId ? style("cyan", `* ${s.id}`) : `  ${s.id}`, s.updatedAt.replace("T", " ").slice(0, 16), `${s.model.providerID}/${s.model.modelID}`, s.title]);
      for (const line of columns(rows)) say(line);
    },
  };
}

function modelName(target: ModelTarget): string {
  return `${target.providerID}/${target.modelID}`;
}
