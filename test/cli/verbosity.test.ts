import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, runCli, type CliResult } from "../fixtures/cli.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const KEY = "sk-scripted-key-0123456789abcdef";

function devModel(t: TempHome): Record<string, string | undefined> {
  return {
    ...t.env,
    BOSUN_DISABLE_MODELS_FETCH: "1",
    SCRIPTED_API_KEY: KEY,
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
}

const lines = (result: CliResult) => result.stderr.split("\n").filter(Boolean);
const logLines = (t: TempHome) =>
  readFileSync(join(t.paths.state, "logs/bosun.log"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { msg: string });

/** Every command path of `bosun --help`, its subcommands' too (`agents login`, `models refresh`…). */
async function commandPaths(t: TempHome, path: string[] = []): Promise<string[][]> {
  const help = (await runCli([...path, "--help"], t.env, t.home)).stdout;
  const start = help.indexOf("\nCommands:\n");
  if (start < 0) return [path];
  const names = help
    .slice(start + "\nCommands:\n".length)
    .split("\n")
    .flatMap((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1] ?? [])
    .filter((name) => name !== "help");
  // One at a time: runCli changes the process's folder while it runs.
  const found = [path];
  for (const name of names) found.push(...(await commandPaths(t, [...path, name])));
  return found;
}

describe("--quiet and --verbose", () => {
  it("are on every command, in its help", async () => {
    const t = makeTempHome();
    const paths = await commandPaths(t);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      const help = (await runCli([...path, "--help"], t.env, t.home)).stdout;
      expect(help, path.join(" ")).toMatch(/^ {2}-q, --quiet +print only errors, warnings and questions/m);
      expect(help, path.join(" ")).toMatch(/^ {2}--verbose +also print on stderr what bosun reads/m);
    }
  });

  it("cannot be given together: one line, exit 1, on the fast path and through the parser alike", async () => {
    const t = makeTempHome();
    for (const argv of [["status", "--quiet", "--verbose"], ["-q", "--verbose"], ["models", "--verbose", "-q"], ["agents", "login", "codex", "--quiet", "--verbose"]]) {
      expect(await runCli(argv, t.env, t.home), argv.join(" ")).toEqual({ code: 1, stdout: "", stderr: "bosun: --quiet and --verbose ask for opposite things; give one of them\n" });
    }
  });

  it("--quiet: a run prints its answer and nothing else on stderr; a refusal's advice and a warning still show", async () => {
    const t = makeTempHome();
    llm.reply().text("Looking.").tool("bash", { command: "echo one; echo two" });
    llm.reply().text("Done.");
    const normal = await runCli(["run", "--yes", "count"], devModel(t), t.home);
    expect(normal.code).toBe(0);
    expect(lines(normal).length).toBeGreaterThanOrEqual(4);

    llm.reply().text("Looking.").tool("bash", { command: "echo one; echo two" });
    llm.reply().text("Done.");
    const quiet = await runCli(["run", "--yes", "--quiet", "count"], devModel(t), t.home);
    expect(quiet).toEqual({ code: 0, stdout: "Looking.\nDone.\n", stderr: "" });

    // A warning (an unknown key) and the closing advice of refused calls are not progress.
    t.write(join(t.paths.config, "bosun.json"), '{ "modle": "x" }');
    llm.reply().tool("write", { path: "a.txt", content: "a" });
    llm.reply().text("Could not write.");
    const refused = await runCli(["run", "-q", "write a"], devModel(t), t.home);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe("Could not write.\n");
    expect(lines(refused)).toEqual([
      `bosun: warning: ${join(t.paths.config, "bosun.json")}:1: modle: unknown key, ignored; did you mean model?`,
      expect.stringMatching(/^bosun: 1 tool call was refused \(write\): it needed approval/),
    ]);
  });

  it("--quiet: a startup migration's changes are not announced but are logged; its warnings still show", async () => {
    const t = makeTempHome();
    mkdirSync(t.paths.legacy);
    writeFileSync(join(t.paths.legacy, "settings.json"), '{"theme":"dark"}');
    writeFileSync(join(t.paths.legacy, "notes.txt"), "mine");
    const result = await runCli(["agents", "--quiet"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home);
    expect(result.code).toBe(0);
    expect(lines(result)).toEqual([
      "bosun: 10_legacy_layout: ~/.bosun/notes.txt is not in the move table; left in place",
      `bosun: warning: ${join(t.paths.config, "bosun.json")}:1: theme: unknown key, ignored`,
    ]);
    expect(logLines(t).map((line) => line.msg)).toContain("startup migration applied");
    expect(readFileSync(join(t.paths.config, "bosun.json"), "utf8")).toBe('{"theme":"dark"}');
  });

  it("--verbose: the start says what it found and read, and every logged line shows on stderr, redacted", async () => {
    const t = makeTempHome();
    const app = join(t.home, "app");
    mkdirSync(join(app, ".bosun"), { recursive: true });
    llm.reply().tool("bash", { command: `echo the key is ${KEY}` });
    llm.reply().text("Done.");
    const result = await runCli(["run", "--yes", "--verbose", "look"], devModel(t), app);
    expect(result.code).toBe(0);
    const shown = lines(result);
    expect(shown.slice(0, 7)).toEqual([
      "bosun: folders: config ~/.config/bosun · data ~/.local/share/bosun · cache ~/.cache/bosun · state ~/.local/state/bosun",
      "bosun: project: ~/app",
      "bosun: config (global): ~/.config/bosun/bosun.json (not there)",
      "bosun: config (project): ~/app/bosun.json (not there)",
      "bosun: .env: ~/.local/share/bosun/.env (not there)",
      "bosun: startup migrations: 4 steps, nothing to do",
      "bosun: plugins: none",
    ]);
    expect(shown[7]).toMatch(/^bosun: started in \d+ ms$/);
    expect(shown).toContainEqual(expect.stringMatching(/^bosun: log: agent run started session=\S+ model=scripted\/m1 mode=full-access /));
    expect(shown).toContainEqual(expect.stringMatching(/^bosun: log: agent tool call .*tool=bash status=ok/));
    expect(result.stderr).not.toContain(KEY);
    // The same lines went to the log file.
    expect(logLines(t).map((line) => line.msg)).toEqual(expect.arrayContaining(["agent run started", "agent tool call", "agent run ended"]));
  });

  it("work on the fast path (bosun, status, agents) as through the parser, in the real bin", () => {
    const t = makeTempHome();
    const quiet = runBin(["--quiet", "--json"], t.env, t.home);
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout)).toHaveProperty("summary");
    const verbose = runBin(["agents", "--verbose"], t.env, t.home);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/^bosun: folders: config /m);
    expect(runBin(["status", "-q"], t.env, t.home).stderr).toBe("");
  });
});
