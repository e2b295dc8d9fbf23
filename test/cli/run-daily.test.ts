import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();

function devModel(t: TempHome): Record<string, string | undefined> {
  return {
    ...t.env,
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }),
  };
}

const sessionIdIn = (stderr: string) => /(?:session|continuing) (\d{8}-\d{6}-[0-9a-f]{6})/.exec(stderr)![1]!;
const lastMessages = () => llm.requests.at(-1)!.body.messages as { role: string; content: unknown }[];

describe("bosun run: the prompt", () => {
  it("joins unquoted words into the prompt, and still takes flags after them", async () => {
    const t = makeTempHome();
    llm.reply().text("On it.");
    const plain = await runCli(["run", "fix", "the", "bug"], devModel(t), t.home);
    expect(plain.code).toBe(0);
    expect(llm.requests[0]!.prompt).toBe("fix the bug");

    llm.reply().text("Hi.");
    const withFlags = await runCli(["run", "say", "hi", "--json", "--max-turns", "3"], devModel(t), t.home);
    expect(withFlags.code).toBe(0);
    expect(JSON.parse(withFlags.stdout)).toMatchObject({ text: "Hi.", reason: "final" });
    expect(llm.requests[1]!.prompt).toBe("say hi");
  });

  it("reads the prompt from a pipe when no words are given, and says what to do when there is none", async () => {
    const t = makeTempHome();
    llm.reply().text("Read it.");
    const piped = await runCli(["run"], devModel(t), t.home, "explain\nthis log\n");
    expect(piped.code).toBe(0);
    expect(llm.requests[0]!.prompt).toBe("explain\nthis log\n");
    expect((await runCli(["run"], devModel(t), t.home, "  \n")).stderr).toBe("bosun: the prompt is empty; say what the agent should do\n");
    expect((await runCli(["run", "--json"], devModel(t), t.home, "")).code).toBe(1);
  });
});

describe("bosun run --continue", () => {
  it("continues the session of this project that was active last, from anywhere inside it", async () => {
    const t = makeTempHome();
    const app = join(t.home, "app");
    mkdirSync(join(app, ".git"), { recursive: true });
    mkdirSync(join(app, "src", "deep"), { recursive: true });
    const elsewhere = join(t.home, "elsewhere");
    mkdirSync(elsewhere);

    llm.reply().text("Noted: blue.");
    const first = sessionIdIn((await runCli(["run", "my colour is blue"], devModel(t), app)).stderr);
    llm.reply().text("Noted: a cat.");
    const second = sessionIdIn((await runCli(["run", "my pet is a cat"], devModel(t), join(app, "src"))).stderr);
    llm.reply().text("Somewhere else.");
    await runCli(["run", "unrelated"], devModel(t), elsewhere);
    // The first session becomes the latest one of the project by being continued, not by its age.
    llm.reply().text("Still blue.");
    expect((await runCli(["run", "--session", first, "and my colour?"], devModel(t), app)).code).toBe(0);
    expect(second).not.toBe(first);

    llm.reply().text("Blue, and you said so twice.");
    const continued = await runCli(["run", "-c", "what", "is", "my", "colour?"], devModel(t), join(app, "src", "deep"));
    expect(continued.code).toBe(0);
    expect(continued.stderr).toContain(`bosun: continuing ${first} · scripted/m1`);
    expect(JSON.stringify(lastMessages())).toContain("my colour is blue");
    expect(JSON.stringify(lastMessages())).not.toContain("my pet is a cat");

    llm.reply().text("Elsewhere again.");
    const other = await runCli(["run", "--continue", "again"], devModel(t), elsewhere);
    expect(JSON.stringify(lastMessages())).toContain("unrelated");
    expect(other.code).toBe(0);
  });

  it("says so when the project has no session, and refuses --continue with --session", async () => {
    const t = makeTempHome();
    const fresh = join(t.home, "fresh");
    mkdirSync(fresh);
    llm.reply().text("Elsewhere.");
    await runCli(["run", "hello"], devModel(t), t.home);
    const none = await runCli(["run", "-c", "hello again"], devModel(t), fresh);
    expect(none).toEqual({
      code: 1,
      stdout: "",
      stderr: `bosun: no session to continue in ${fresh} (nor in a folder below it); start one with bosun run "…", or see bosun sessions for the others\n`,
    });
    const both = await runCli(["run", "-c", "--session", "abc", "x"], devModel(t), t.home);
    expect(both).toEqual({ code: 1, stdout: "", stderr: "bosun: --continue and --session both choose the session to continue; give one of them\n" });
    expect(llm.requests).toHaveLength(1);
  });
});

describe("bosun run --continue: which project", () => {
  it("is the git repository, also from a package with its own .bosun/ inside it, as for the instruction files", async () => {
    const t = makeTempHome();
    const repo = join(t.home, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "pkg", ".bosun"), { recursive: true });
    const rules = t.write(join(repo, "AGENTS.md"), "REPO rules.\n");
    llm.reply().text("Noted: blue.");
    const first = sessionIdIn((await runCli(["run", "my colour is blue"], devModel(t), repo)).stderr);
    llm.reply().text("Blue.");
    const continued = await runCli(["run", "--json", "-c", "my colour?"], devModel(t), join(repo, "pkg"));
    expect(continued.code).toBe(0);
    expect(JSON.parse(continued.stdout)).toMatchObject({ sessionId: first, instructions: [{ file: rules }] });
  });

  it("never climbs past a home folder reached through a symlink into a dotfiles repository", async () => {
    const t = makeTempHome();
    const realHome = join(t.root, "real-home");
    mkdirSync(join(realHome, ".git"), { recursive: true });
    mkdirSync(join(realHome, "notes"));
    mkdirSync(join(realHome, "other"));
    const env = { ...devModel(t), HOME: join(t.root, "linked-home") };
    symlinkSync(realHome, env.HOME);
    llm.reply().text("Elsewhere.");
    expect((await runCli(["run", "in another folder"], env, join(realHome, "other"))).code).toBe(0);
    // Scripted, so that a wrongly continued session ends instead of waiting for a reply.
    llm.reply().text("Continued the wrong session.");
    const none = await runCli(["run", "-c", "again"], env, join(realHome, "notes"));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`bosun: no session to continue in ${join(realHome, "notes")} (nor in a folder below it)`);
    expect(llm.requests).toHaveLength(1);
  });
});

describe("bosun run: what a run shows and reports", () => {
  it("shows the last lines of a command's output, redacted and without control sequences", async () => {
    const t = makeTempHome();
    // sandbox.env lets the secret into the command's environment: what it prints is redacted.
    t.write(join(t.paths.config, "bosun.json"), '{ "secrets": ["DB_URL"], "sandbox": { "env": ["DB_URL"] } }');
    const command = "printf 'one\\ntwo\\nthree\\n\\n\\033[31mfour\\033[0m\\n'; echo \"url=$DB_URL\"";
    llm.reply().tool("bash", { command });
    llm.reply().text("Done.");
    const result = await runCli(["run", "--yes", "run it"], { ...devModel(t), DB_URL: "postgres://admin:pw-93ks@db/app" }, t.home);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("  ✓ exit 0\n    two\n    three\n    four\n    url=[redacted:DB_URL]\n");
    expect(result.stderr).not.toContain("    one");
    expect(result.stderr).not.toContain("pw-93ks");
    expect(result.stderr).not.toContain("waiting for the model");
  });

  it("ends with one line of numbers, and --json carries the same numbers with the cost from the catalog", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ providers: { anthropic: { baseURL: llm.anthropicURL } } }));
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
    await runCli(["auth", "set", "anthropic"], env, t.home, "sk-ant-stored-key-1");
    llm.reply().text("Looking.").tool("read", { path: "notes.txt" }).usage({ input: 1_000, output: 100 });
    llm.reply().text("It is empty.").usage({ input: 1_500, output: 50 });
    t.write("home/notes.txt", "");
    const result = await runCli(["run", "--json", "--model", "anthropic/claude-sonnet-5", "what is in notes.txt?"], env, t.home);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    // The built-in catalog prices claude-sonnet-5 at $2 in / $10 out per million tokens.
    expect(json.stats).toEqual({ turns: 2, toolCalls: 1, subagents: 0, tokens: { input: 2_500, output: 150 }, costUsd: 0.0065, wallMs: expect.any(Number), unapproved: 0 });
    expect(result.stderr).toMatch(/^bosun: 2 turns · 1 tool call · 2.5K tokens in \/ 150 out · \$0\.0065 · \d+\.\d s$/m);

    llm.reply().text("Hi.");
    const unpriced = await runCli(["run", "--json", "hi"], devModel(t), t.home);
    expect(JSON.parse(unpriced.stdout).stats).toMatchObject({ turns: 1, toolCalls: 0, tokens: { input: 0, output: 0 }, costUsd: null });
    expect(unpriced.stderr).toMatch(/^bosun: 1 turn · 0 tool calls · 0 tokens in \/ 0 out · \d+\.\d s$/m);
  });
});

describe("bosun run: calls refused for want of approval", () => {
  it("exits 3 with a line that counts them and says how to allow them", async () => {
    const t = makeTempHome();
    llm.reply().tool("write", { path: "a.txt", content: "a" }).tool("write", { path: "b.txt", content: "b" }).tool("bash", { command: "ls" });
    llm.reply().text("I could not write anything.");
    const result = await runCli(["run", "--json", "make two files"], devModel(t), t.home);
    expect(result.code).toBe(3);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      'bosun: 3 tool calls were refused (write ×2, bash): they needed approval and bosun is not attached to a terminal; to allow them: rerun in a terminal to be asked, or with --mode auto-edit (edits), or with --yes (everything but dangerous calls), or set in bosun.json "permissions": { "write": "allow", "bash": "allow" }',
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ reason: "final", stats: { unapproved: 3 } });
    expect(existsSync(join(t.home, "a.txt"))).toBe(false);
  });

  it("names the dangerous rule for a dangerous call, and leaves calls a deny rule refused alone", async () => {
    const t = makeTempHome();
    llm.reply().tool("bash", { command: "rm -rf build" });
    llm.reply().text("Not allowed.");
    const dangerous = await runCli(["run", "--yes", "clean up"], devModel(t), t.home);
    expect(dangerous.code).toBe(3);
    expect(dangerous.stderr).toContain(
      'bosun: 1 tool call was refused (bash (dangerous)): it needed approval and bosun is not attached to a terminal; to allow it: rerun in a terminal to be asked, or set in bosun.json "permissions": { "dangerous": "allow" }\n',
    );

    t.write(join(t.paths.config, "bosun.json"), '{ "permissions": { "bash": "deny" } }');
    llm.reply().tool("bash", { command: "ls" });
    llm.reply().text("bash is off.");
    const denied = await runCli(["run", "list files"], devModel(t), t.home);
    expect(denied.stderr).toContain("⊘ denied: permissions.bash is deny in bosun.json");
    expect(denied.code).toBe(0);
  });
});
