import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOSUN_BIN, runCli } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal, type Terminal } from "../fixtures/pty.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();

/** A catalog of two local models on the scripted server; the first is the default. */
function withLocalModels(t: TempHome): Record<string, string | undefined> {
  t.write(
    join(t.paths.config, "bosun.json"),
    JSON.stringify({ providers: { local: { npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, models: { small: {}, big: {} } } }, model: "local/small" }),
  );
  return { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
}

function sessionEvents(t: TempHome): { id: string; events: Record<string, unknown>[] }[] {
  const dir = join(t.paths.data, "sessions");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => ({ id: name.slice(0, -6), events: readFileSync(join(dir, name), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) }));
}

const userMessages = (events: Record<string, unknown>[]) =>
  events.filter((e) => e.type === "message" && (e.message as { role: string }).role === "user").map((e) => (e.message as { content: unknown }).content);

async function send(term: Terminal, message: string): Promise<void> {
  await term.waitFor("› ");
  term.type(message + KEYS.enter);
}

describe("bosun run in a terminal, without a prompt", () => {
  it("takes message after message: pastes, Ctrl-C, approvals, /model, /sessions, /help, Ctrl-D; one session file", async () => {
    const t = makeTempHome();
    const app = join(t.home, "app");
    mkdirSync(join(app, ".git"), { recursive: true });
    const env = withLocalModels(t);
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run"], { env, cwd: app });
    await term.waitFor("bosun: new session · local/small · ask mode");

    // A first turn, slow to answer: the spinner counts the seconds on the terminal.
    llm.reply().latency(2_500).text("Hi! What shall we do?").usage({ input: 40, output: 6 });
    await send(term, "hello there");
    await term.waitFor(/waiting for the model · [1-9] s/);
    await term.waitFor("Hi! What shall we do?");
    await term.waitFor("bosun: 1 turn · 0 tool calls · 40 tokens in / 6 out");

    // A pasted block keeps its lines; the message goes when Enter ends a line typed after it.
    llm.reply().text("Three lines received.");
    await term.waitFor("› ");
    term.paste("first line\n  second line\n");
    term.type("third line" + KEYS.enter);
    await term.waitFor("Three lines received.");
    // So does a line that ends with a backslash.
    llm.reply().text("Two lines received.");
    await send(term, "one\\");
    await term.waitFor("… ");
    term.type("two" + KEYS.enter);
    await term.waitFor("Two lines received.");

    // A write asks for approval on the terminal, as in a one-shot run.
    llm.reply().tool("write", { path: "notes.txt", content: "from the session\n" });
    llm.reply().text("Written.");
    await send(term, "write the notes");
    await term.waitFor("allow [o]nce, [a]lways for this session, or [d]eny?");
    term.type("o" + KEYS.enter);
    await term.waitFor("Written.");
    expect(readFileSync(join(app, "notes.txt"), "utf8")).toBe("from the session\n");

    // Ctrl-C while the model streams cancels that turn only.
    llm.reply().text("Here is the start of a long essay").hang();
    await send(term, "write an essay");
    await term.waitFor("Here is the start of a long essay");
    term.type(KEYS.ctrlC);
    await term.waitFor("bosun: cancelled; the session is kept");

    await send(term, "/model");
    await term.waitFor("bosun: the model is local/small;");
    await send(term, "/model local/nope");
    await term.waitFor("model local/nope is not in the catalog");
    await send(term, "/model local/big");
    await term.waitFor("bosun: the model is now local/big");
    llm.reply().text("Big answers.");
    await send(term, "which model are you?");
    await term.waitFor("Big answers.");
    expect(llm.requests.at(-1)!.body.model).toBe("big");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain("Here is the start of a long essay");

    await send(term, "/sessions");
    const listing = await term.waitFor(/\* \S+ .*local\/small {2}hello there/);
    await send(term, "/help");
    await term.waitFor("/model [provider/model]");
    await send(term, "/nosuch");
    await term.waitFor("bosun: unknown command /nosuch;");
    await term.waitFor("› ");
    term.type(KEYS.ctrlD);
    const left = await term.waitFor(/continue it with bosun run -c/);
    expect(await term.exit).toBe(0);

    const [session, ...others] = sessionEvents(t);
    expect(others).toHaveLength(0);
    expect(listing).toContain(`* ${session!.id}`);
    expect(left).toContain(`bosun: session ${session!.id} is saved`);
    expect(userMessages(session!.events)).toEqual(["hello there", "first line\n  second line\nthird line", "one\ntwo", "write the notes", "write an essay", "which model are you?"]);
    const runs = session!.events.filter((e) => e.type === "run");
    expect(runs.filter((e) => e.phase === "end").map((e) => e.reason)).toEqual(["final", "final", "final", "final", "aborted", "final"]);
    expect(runs.filter((e) => e.phase === "start").map((e) => e.model)).toEqual(["local/small", "local/small", "local/small", "local/small", "local/small", "local/big"]);

    const history = join(t.paths.state, "prompt-history.jsonl");
    expect(statSync(history).mode & 0o777).toBe(0o600);
    expect(readFileSync(history, "utf8")).toContain(`${JSON.stringify("first line\n  second line\nthird line")}\n`);

    // A one-shot run continues it: same file, the model its last run used.
    llm.reply().text("Still here.");
    const again = await runCli(["run", "-c", "are you still there?"], env, app);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`bosun: continuing ${session!.id} · local/big`);
    expect(sessionEvents(t)).toHaveLength(1);
  }, 120_000);

  it("continues a one-shot session with -c, recalls messages of earlier sessions with Up, and leaves on a second Ctrl-C", async () => {
    const t = makeTempHome();
    const env = withLocalModels(t);
    llm.reply().text("Noted.");
    const first = await runCli(["run", "remember the number 42"], env, t.home);
    const id = /session (\S+)/.exec(first.stderr)![1]!;

    const continuing = spawnInTerminal([process.execPath, BOSUN_BIN, "run", "-c"], { env, cwd: t.home });
    await continuing.waitFor(`bosun: continuing ${id} ("remember the number 42") · local/small · ask mode`);
    llm.reply().text("It was 42.");
    await send(continuing, "which number was it?");
    await continuing.waitFor("It was 42.");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain("remember the number 42");
    await continuing.waitFor("› ");
    continuing.type(KEYS.ctrlD);
    expect(await continuing.exit).toBe(0);
    expect(userMessages(sessionEvents(t)[0]!.events)).toEqual(["remember the number 42", "which number was it?"]);

    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run"], { env, cwd: t.home });
    await term.waitFor("bosun: new session");
    await term.waitFor("› ");
    term.type(KEYS.up);
    await term.waitFor("which number was it?");
    llm.reply().text("Which number?");
    term.type(KEYS.enter);
    await term.waitFor("Which number?");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).not.toContain("42");
    // Ctrl-C clears what is typed; at the empty prompt it asks for a second one.
    await term.waitFor("› ");
    term.type("half a thought");
    await term.waitFor("half a thought");
    term.type(KEYS.ctrlC);
    await term.waitFor("^C");
    await term.waitFor("› ");
    term.type(KEYS.ctrlC);
    await term.waitFor("(press Ctrl-C again or Ctrl-D to leave, or type /exit)");
    term.type(KEYS.ctrlC);
    expect(await term.exit).toBe(0);
    const newer = sessionEvents(t).find((s) => s.id !== id)!;
    expect(userMessages(newer.events)).toEqual(["which number was it?"]);
  }, 120_000);

  it("keeps what is typed out of the history file as it keeps it out of the session: secrets redacted, older ones cleaned", async () => {
    const t = makeTempHome();
    const env = { ...withLocalModels(t), MY_API_KEY: "sk-verysecret-4242" };
    const history = t.write(join(t.paths.state, "prompt-history.jsonl"), `${JSON.stringify("an older prompt with sk-verysecret-4242")}\n`);
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run"], { env, cwd: t.home });
    await term.waitFor("bosun: new session");
    llm.reply().text("Called.");
    await send(term, "call the api with sk-verysecret-4242 please");
    await term.waitFor("Called.");
    // Up recalls the prompt as it was kept.
    await term.waitFor("› ");
    term.type(KEYS.up);
    await term.waitFor("call the api with [redacted:MY_API_KEY] please");
    term.type(KEYS.ctrlC);
    await term.waitFor("› ");
    term.type(KEYS.ctrlD);
    expect(await term.exit).toBe(0);

    expect(readFileSync(history, "utf8")).toBe(`${JSON.stringify("an older prompt with [redacted:MY_API_KEY]")}\n${JSON.stringify("call the api with [redacted:MY_API_KEY] please")}\n`);
    expect(JSON.stringify(llm.requests[0]!.body)).toContain("call the api with [redacted:MY_API_KEY] please");
    expect(JSON.stringify(sessionEvents(t)[0]!.events)).not.toContain("sk-verysecret");
  }, 60_000);

  it("reports a failure that is a bug as an internal error and goes on; leaving says how to continue the session", async () => {
    const t = makeTempHome();
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run"], { env: withLocalModels(t), cwd: t.home });
    await term.waitFor("bosun: new session");
    llm.reply().text("First answer.");
    await send(term, "hello");
    await term.waitFor("First answer.");
    // The session file turns into a symlink to itself: reading it fails in a way no user error
    // covers (ELOOP), as a bug would. Put back, the session goes on.
    const file = join(t.paths.data, "sessions", `${sessionEvents(t)[0]!.id}.jsonl`);
    renameSync(file, `${file}.away`);
    symlinkSync(file, file);
    await send(term, "are you still there?");
    await term.waitFor(/bosun: internal error: ELOOP[^\n]* \(set BOSUN_DEBUG=1 for details\)\n/);
    rmSync(file);
    renameSync(`${file}.away`, file);
    llm.reply().text("Still here.");
    await send(term, "and now?");
    await term.waitFor("Still here.");
    await term.waitFor("› ");
    term.type(KEYS.ctrlD);
    const [session, ...others] = sessionEvents(t);
    await term.waitFor(`bosun: session ${session!.id} is saved; continue it with bosun run -c`);
    expect(await term.exit).toBe(0);
    expect(others).toHaveLength(0);
    expect(userMessages(session!.events)).toEqual(["hello", "and now?"]);
  }, 60_000);

  it("needs a prompt when nobody can type one: stdin from /dev/null, or --json", async () => {
    const t = makeTempHome();
    const env = withLocalModels(t);
    const devNull = openSync("/dev/null", "r");
    const detached = spawnSync(process.execPath, [BOSUN_BIN, "run"], { env: env as NodeJS.ProcessEnv, cwd: t.home, stdio: [devNull, "pipe", "pipe"], encoding: "utf8", timeout: 20_000 });
    closeSync(devNull);
    expect(detached.status).toBe(1);
    expect(detached.stderr).toBe(
      "bosun: no prompt: give it as words (bosun run fix the failing test), pipe it in (… | bosun run), or start bosun run in a terminal to type one message after another\n",
    );
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run", "--json"], { env, cwd: t.home });
    await term.waitFor("bosun: --json needs a prompt: an interactive session has no single result to print");
    expect(await term.exit).toBe(1);
    expect(llm.requests).toHaveLength(0);
  }, 60_000);
});
