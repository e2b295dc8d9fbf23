import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { BOSUN_BIN, Capture, runCli } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal, type Terminal } from "../fixtures/pty.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const llm = useLlmServer();

function devModel(t: TempHome): Record<string, string | undefined> {
  return { ...t.env, BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) };
}

/** A stream that keeps each write separately, to see how lines were written. */
class ChunkCapture extends Capture {
  chunks: string[] = [];
  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    super._write(chunk, encoding, done);
  }
}

const tasks = Array.from({ length: 8 }, (_, i) => `inspect module ${i + 1}`);

/**
 * The top-level agent delegates the 8 tasks; each sub-agent runs a command, then answers. The
 * first requests of each `width` sub-agents are answered only once all of them are at the server
 * together, so the concurrency is measured, not hoped for.
 */
function scriptFanOut(width: number): void {
  llm.onPrompt("inspect every module").reply().text("Delegating.").tool("agent", { tasks });
  for (const task of tasks) {
    llm.onPrompt(task).reply().barrier("first turns", width).tool("bash", { command: `echo ${task.replaceAll(" ", "_")}` });
    llm.onPrompt(task).reply().latency(20).text(`${task}: fine`);
  }
  llm.onPrompt("inspect every module").reply().text("All 8 modules are fine.");
}

/** `bosun run --yes "tidy the modules"` on a real terminal that reports its width, so the wait spinner is drawn beside the questions. */
function tidyOnTerminal(t: TempHome): Terminal {
  return spawnInTerminal([process.execPath, BOSUN_BIN, "run", "--yes", "tidy the modules"], { env: { ...devModel(t), NO_COLOR: "1" }, cwd: t.home });
}

/** Two sub-agents that each want to delete a folder, and one that only lists: all three at the server at once. */
function scriptTidy(t: TempHome): void {
  t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "concurrency": 3 } }');
  llm.onPrompt("tidy the modules").reply().tool("agent", { tasks: ["tidy alpha", "tidy beta", "list gamma"] });
  for (const name of ["alpha", "beta"]) {
    mkdirSync(join(t.home, `${name}-build`));
    llm.onPrompt(`tidy ${name}`).reply().barrier("first turns", 3).tool("bash", { command: `rm -rf ${name}-build` });
    llm.onPrompt(`tidy ${name}`).reply().text(`${name} tidied`);
  }
  llm.onPrompt("list gamma").reply().barrier("first turns", 3).tool("bash", { command: "echo gamma-listed" });
  llm.onPrompt("list gamma").reply().text("gamma listed");
  llm.onPrompt("tidy the modules").reply().text("Tidied.");
}

describe("bosun run with sub-agents", () => {
  it("fans out in parallel without a terminal, shows each sub-agent on stderr in whole lines, and records the tree", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "concurrency": 8, "treeConcurrency": 8 } }');
    scriptFanOut(8);
    const stdout = new Capture();
    const stderr = new ChunkCapture();
    const previous = process.cwd();
    process.chdir(t.home);
    let code: number;
    try {
      code = await main(["run", "--yes", "inspect every module"], { stdout, stderr, env: devModel(t) });
    } finally {
      process.chdir(previous);
    }
    expect(code).toBe(0);
    expect(stdout.text).toBe("Delegating.\nAll 8 modules are fine.\n");
    expect(llm.maxConcurrent).toBe(8);
    // Every write to stderr is whole lines: parallel sub-agents never share a line.
    for (const chunk of stderr.chunks) expect(chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1).toBe(true);
    const lines = stderr.text.split("\n");
    expect(lines).toContain("→ agent: 8 tasks");
    expect(lines.filter((line) => /^#\d+ sub-agent \(task \d\/8, \S+\): inspect module \d$/.test(line))).toHaveLength(8);
    expect(lines.filter((line) => /^#\d+ → \$ echo inspect_module_\d$/.test(line))).toHaveLength(8);
    expect(lines.filter((line) => /^#\d+ sub-agent completed in \d+\.\d s \(2 turns\)$/.test(line))).toHaveLength(8);
    // A call that took a second or more says how long (a loaded machine).
    expect(lines.filter((line) => /^ {2}✓ 8 sub-agents: 8 completed( \(\d+\.\d s\))?$/.test(line))).toHaveLength(1);

    const id = /session (\S+)/.exec(stderr.text)![1]!;
    const log = readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8");
    expect(log.match(/"msg":"sub-agent ended"/g)).toHaveLength(8);
    expect(log.match(/"subagent":"[^"]+"[^\n]*"msg":"agent tool call"/g)).toHaveLength(8);
    const show = await runCli(["sessions", "show", id], t.env);
    expect(show.code).toBe(0);
    const tree = show.stdout.split("\n").filter((line) => /^ {6}[├└]─ ✓ \d\/8 \S+ · 2 turns, \d+\.\d s · inspect module \d$/.test(line));
    expect(tree).toHaveLength(8);
    const json = JSON.parse((await runCli(["sessions", "show", id, "--json"], t.env)).stdout);
    expect(json.events.filter((e: { type: string; phase: string }) => e.type === "subagent" && e.phase === "end")).toHaveLength(8);
  });

  it("adds the sub-agents to --json and honours subagents.maxDepth 0", async () => {
    const t = makeTempHome();
    scriptFanOut(4);
    const result = await runCli(["run", "--yes", "--json", "inspect every module"], devModel(t), t.home);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.subagents).toHaveLength(8);
    expect(json.subagents[0]).toMatchObject({ depth: 1, tasks: 8, status: "completed", turns: 2 });
    expect(json.subagents.map((s: { prompt: string }) => s.prompt).sort()).toEqual([...tasks].sort());
    // The default concurrency is 4.
    expect(llm.maxConcurrent).toBe(4);

    llm.reset();
    t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "maxDepth": 0 } }');
    llm.reply().text("no delegation here");
    expect((await runCli(["run", "--yes", "x"], devModel(t), t.home)).code).toBe(0);
    expect(JSON.stringify(llm.requests[0]!.body.tools)).not.toContain('"agent"');
  });

  it("validates the subagents section of bosun.json", async () => {
    const t = makeTempHome();
    const file = t.write(join(t.paths.config, "bosun.json"), '{\n  "subagents": { "maxDepth": 9 }\n}');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toBe(`bosun: ${file}:2: subagents.maxDepth: use at most 5\n`);
    t.write(join(t.paths.config, "bosun.json"), '{\n  "subagents": { "concurrncy": 2, "concurrency": 0 }\n}');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toBe(`bosun: ${file}:2: subagents.concurrency: use 1 or more\n`);
    t.write(join(t.paths.config, "bosun.json"), '{\n  "subagents": {\n    "treeConcurrency": 0.5\n  }\n}');
    expect((await runCli(["run", "x"], devModel(t))).stderr).toBe(`bosun: ${file}:3: subagents.treeConcurrency: use a whole number\n`);
    expect(llm.requests).toHaveLength(0);
  });

  it("as a real process: 8 parallel sub-agents, clean stderr lines and no listener warnings", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "concurrency": 8 } }');
    scriptFanOut(8);
    const child = spawn(process.execPath, [BOSUN_BIN, "run", "--yes", "inspect every module"], { env: devModel(t) as NodeJS.ProcessEnv, cwd: t.home });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stdout).toBe("Delegating.\nAll 8 modules are fine.\n");
    expect(stderr).not.toMatch(/Warning/i);
    const known = [
      /^bosun: session \S+ · scripted\/m1 · full-access mode$/,
      /^→ agent: 8 tasks$/,
      /^#\d+ sub-agent /,
      /^#\d+ → \$ echo inspect_module_\d$/,
      /^#\d+ {3}✓ exit 0( \(\d+\.\d s\))?$/,
      /^ {2}✓ 8 sub-agents: 8 completed( \(\d+\.\d s\))?$/,
      /^bosun: 2 turns · 1 tool call · 8 sub-agents · [\d.]+K? tokens in \/ [\d.]+K? out · \d+\.\d s$/,
    ];
    for (const line of stderr.trimEnd().split("\n")) expect(known.some((pattern) => pattern.test(line)), line).toBe(true);
  });

  it("on a real terminal with --yes: the sub-agents run in parallel and their dangerous calls' questions are answered there one at a time", async () => {
    const t = makeTempHome();
    scriptTidy(t);
    const term = tidyOnTerminal(t);
    const questions: string[] = [];
    for (let i = 0; i < 2; i++) {
      // Up to the question's own line, which the spinner must not share.
      const shown = await term.waitFor(/\n {2}allow \[o\]nce, \[a\]lways for this session, or \[d\]eny\? /);
      questions.push(shown);
      term.type(/\n {4}\$ rm -rf alpha-build\n {2}allow/.test(shown) ? "o" + KEYS.enter : "d" + KEYS.enter);
    }
    await term.waitFor("Tidied.");
    expect(await term.exit, term.text()).toBe(0);
    expect(llm.maxConcurrent).toBe(3);
    // The spinner was drawn while the sub-agents waited for the model, and cleared for each question.
    expect(term.text()).toContain("waiting for the model");
    for (const question of questions) expect(question).toMatch(/\nbosun: sub-agent #\d: bash wants to run something dangerous: it is a recursive force delete \(rm -rf (alpha|beta)-build\)( \(1 more question waiting\))?\n {4}\$ rm -rf \1-build\n {2}allow \[o\]nce, \[a\]lways for this session, or \[d\]eny\? $/);
    expect(term.text()).not.toContain("one at a time");
    expect(term.text().match(/allow \[o\]nce/g)).toHaveLength(2);
    expect(existsSync(join(t.home, "alpha-build"))).toBe(false);
    expect(existsSync(join(t.home, "beta-build"))).toBe(true);
  });

  it("on a real terminal, Ctrl-C while a sub-agent's question waits cancels the run: no other question is shown, nothing is deleted", async () => {
    const t = makeTempHome();
    scriptTidy(t);
    const term = tidyOnTerminal(t);
    await term.waitFor("allow [o]nce");
    term.type(KEYS.ctrlC);
    expect(await term.exit, term.text()).toBe(130);
    const shown = term.text();
    expect(shown.match(/allow \[o\]nce/g)).toHaveLength(1);
    expect(shown).toContain("bosun: cancelling…");
    expect(shown).toMatch(/cancelled; the session is saved/);
    for (const name of ["alpha", "beta"]) expect(existsSync(join(t.home, `${name}-build`))).toBe(true);
  });
});
