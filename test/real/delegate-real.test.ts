import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOSUN_BIN, runBinAsync } from "../fixtures/cli.js";
import { ReplyBuilder, startLlmServer, type LlmServer, type RecordedRequest } from "../fixtures/llm-server.js";
import { realCli, realCliEnv } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { editToolCall, vendorCliSetup, VENDOR_CLIS, type VendorCliId } from "../fixtures/vendor-clis.js";

// bosun's own agent delegating to the real, pinned agent CLIs (Claude Code, Codex, Gemini CLI,
// OpenCode), each in a git worktree of its own: the parent runs on the scripted model server's
// OpenAI protocol, each CLI on its own vendor's protocol of the same server (Anthropic Messages,
// OpenAI Responses, Gemini streamGenerateContent), so every byte between a CLI and "its model" is
// the real protocol and the CLI itself is the real one.

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(async () => {
  await llm.close();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).trim();
}

interface Delegation {
  t: TempHome;
  repo: string;
  env: Record<string, string | undefined>;
}

/** A temp home with the four CLIs set up against the server and allowed to edit (unless `mode` says otherwise), and a repository with one commit. */
function delegation(mode: "edit" | "default" = "edit", extra: { agents?: Record<string, unknown>; sandbox?: unknown } = {}): Delegation {
  const t = makeTempHome();
  const cliEnv: Record<string, string | undefined> = {};
  const agents: Record<string, unknown> = {};
  for (const id of VENDOR_CLIS) {
    Object.assign(cliEnv, vendorCliSetup(id, llm, t.home).env);
    agents[id] = { binary: realCli(id).bin, ...(mode === "edit" ? { delegate: "edit" } : {}) };
  }
  Object.assign(agents, extra.agents);
  t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ agents, subagents: { concurrency: 4 }, ...(extra.sandbox ? { sandbox: extra.sandbox } : {}) }));
  const repo = join(t.root, "repo");
  t.write(join(repo, "notes.txt"), "some notes\n");
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
  const env = {
    ...realCliEnv({ home: t.home, env: cliEnv }),
    ...t.env,
    PATH: process.env.PATH,
    NO_COLOR: "1",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "parent", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 200_000, output: 4_000 }),
  };
  return { t, repo, env };
}

/** The working folder a CLI's request says it runs in (Claude's and OpenCode's file tools take absolute paths). */
function workdirIn(request: RecordedRequest): string {
  const found = /working directory: (\/[^\s<]+)/i.exec(request.text) ?? /<cwd>([^<]+)<\/cwd>/.exec(request.text);
  if (!found) throw new Error("the request does not say its working folder");
  return found[1]!;
}

/** `prompt`, run by `id`: it writes `file` with the CLI's own write tool, then answers `answer`. */
function scriptCliEdit(id: VendorCliId, prompt: string, file: string, answer: string): void {
  const replies = llm.onPrompt(prompt);
  replies.reply((request) => {
    // Codex's and Gemini's write tools take paths relative to their folder.
    const cwd = id === "claude" || id === "opencode" ? workdirIn(request) : "";
    const call = editToolCall(id, { cwd, file, content: `written by ${id}\n` });
    return new ReplyBuilder().tool(call.name, call.args).usage({ input: 1000, output: 50 });
  });
  replies.reply().text(answer).usage({ input: 1200, output: 20 });
}

interface RunJson {
  text: string;
  subagents: { kind: string; status: string; prompt: string; tokens: { input: number; output: number }; costUsd: number | null; worktree?: { path: string; branch: string; changedFiles: string[]; diffStat: { files: number } }; error?: string }[];
  stats: { subagentTotals?: { tokens: { input: number; output: number }; costUsd: number | null; ms: number } };
}

function runJson(stdout: string): RunJson {
  return JSON.parse(stdout) as RunJson;
}

describe("bosun delegating to the user's own agent CLIs", () => {
  it("claude, codex, gemini and opencode each edit a file in a worktree of their own; the parent reads every answer; unusable kinds fail alone", async () => {
    const { t, repo, env } = delegation();
    // A prompt may start with a dash: it is never read as an option.
    const tasks = VENDOR_CLIS.map((id) => ({ prompt: `-[${id}] write result.txt`, agent: id }));
    llm.onPrompt("split the work").reply().tool("agent", { tasks: [...tasks, { prompt: "[cursor] anything", agent: "cursor" }, { prompt: "[x] anything", agent: "hal" }] });
    for (const id of VENDOR_CLIS) scriptCliEdit(id, `-[${id}] write result.txt`, "result.txt", `${id}: result.txt is written`);
    llm.onPrompt("split the work").reply().text("All four are done.");

    const run = await runBinAsync(["run", "--yes", "--json", "split the work"], env, { cwd: repo, timeoutMs: 150_000 });
    expect(run.timedOut).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const result = runJson(run.stdout);
    expect(result.text).toBe("All four are done.");
    // The user's checkout is as it was: every edit is in a worktree.
    expect(git(repo, "status", "--porcelain")).toBe("");
    for (const id of VENDOR_CLIS) {
      const record = result.subagents.find((subagent) => subagent.kind === id)!;
      expect(record, id).toMatchObject({ status: "completed", worktree: { changedFiles: ["result.txt"], diffStat: { files: 1 } } });
      expect(record.worktree!.branch).toMatch(/^bosun\/\d{8}-\d{6}-[0-9a-f]{6}\/\d+-[0-9a-f]{6}$/);
      expect(readFileSync(join(record.worktree!.path, "result.txt"), "utf8")).toBe(`written by ${id}\n`);
      expect(record.tokens.input, id).toBeGreaterThan(0);
      expect(git(repo, "branch", "--list", record.worktree!.branch)).toContain(record.worktree!.branch);
    }
    // Claude and OpenCode price their calls themselves; Codex's and Gemini's models are not in a catalog here.
    expect(result.subagents.find((subagent) => subagent.kind === "claude")!.costUsd).toBeGreaterThan(0);
    expect(result.subagents.find((subagent) => subagent.kind === "opencode")!.costUsd).toBeGreaterThan(0);
    expect(result.stats.subagentTotals!.tokens.input).toBe(result.subagents.reduce((sum, subagent) => sum + subagent.tokens.input, 0));
    const parentLast = llm.requests.filter((request) => request.prompt.includes("split the work")).at(-1)!;
    for (const id of VENDOR_CLIS) expect(parentLast.text).toContain(`${id}: result.txt is written`);
    expect(parentLast.text).toContain('agent="cursor" state="failed">\nnot run: Cursor CLI is not installed');
    expect(parentLast.text).toContain('not run: there is no agent "hal"');
    // The worktrees are listed, with their uncommitted work.
    const listed = await runBinAsync(["worktrees", "--json"], env, { cwd: repo });
    const states = (JSON.parse(listed.stdout) as { worktrees: { state: string; branch: string }[] }).worktrees.map((worktree) => worktree.state);
    expect(states).toEqual(["dirty", "dirty", "dirty", "dirty"]);
    expect(existsSync(join(t.paths.data, "worktrees"))).toBe(true);
  }, 180_000);

  it("runs them read-only unless agents.<id>.delegate says otherwise: the CLI itself refuses the write, nothing changes", async () => {
    const { repo, env } = delegation("default");
    const kinds: VendorCliId[] = ["claude", "codex"];
    llm.onPrompt("only look").reply().tool("agent", { tasks: kinds.map((id) => ({ prompt: `[${id}] try to write`, agent: id })) });
    for (const id of kinds) scriptCliEdit(id, `[${id}] try to write`, "result.txt", `${id}: I could not write`);
    llm.onPrompt("only look").reply().text("Nothing was written.");
    const run = await runBinAsync(["run", "--yes", "--json", "only look"], env, { cwd: repo, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    for (const record of runJson(run.stdout).subagents) {
      expect(record).toMatchObject({ status: "completed", worktree: { changedFiles: [] } });
      expect(existsSync(join(record.worktree!.path, "result.txt"))).toBe(false);
    }
    expect(git(repo, "status", "--porcelain")).toBe("");
  }, 120_000);

  it("runs each CLI inside bosun's sandbox: even with its own checks off, it writes only its worktree and reads no other agent's login", async () => {
    const { t, repo, env } = delegation("edit", { agents: { codex: { binary: realCli("codex").bin, delegate: "full" } }, sandbox: { mode: "required", network: "on" } });
    const escape = join(repo, "escaped.txt");
    const claudeLogin = t.write(join(t.home, ".claude", ".credentials.json"), JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat01-secret-token", scopes: ["user:inference"] } }));
    llm.onPrompt("[codex] break out").reply().tool("exec_command", { cmd: `echo inside > inside.txt; echo out > ${escape}; cat ${claudeLogin} && echo LEAKED` }).usage({ input: 100, output: 10 });
    llm.onPrompt("[codex] break out").reply().text("tried").usage({ input: 100, output: 10 });
    llm.onPrompt("contain it").reply().tool("agent", { prompt: "[codex] break out", agent: "codex" });
    llm.onPrompt("contain it").reply().text("done");
    const run = await runBinAsync(["run", "--yes", "--json", "contain it"], env, { cwd: repo, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    const [record] = runJson(run.stdout).subagents;
    expect(record).toMatchObject({ kind: "codex", status: "completed", worktree: { changedFiles: ["inside.txt"] } });
    expect(existsSync(escape)).toBe(false);
    expect(git(repo, "status", "--porcelain")).toBe("");
    // What the command printed went back to the model: not the other agent's login.
    const request = llm.requests.filter((sent) => sent.prompt.includes("[codex] break out")).at(-1)!.text;
    const output = request.slice(request.lastIndexOf("Process exited with code"));
    expect(output).toMatch(/^Process exited with code 1\n[\s\S]*cat: .*\.credentials\.json: (No such file or directory|Permission denied)/);
    expect(output).not.toContain("LEAKED");
    expect(request).not.toContain("secret-token");
  }, 120_000);

  it("stops a CLI that hangs at its time cap (its whole process tree), keeps its worktree, and reports the cap", async () => {
    const { repo, env } = delegation();
    llm.onPrompt("hang it").reply().tool("agent", { prompt: "[claude] think forever", agent: "claude", limits: { seconds: 3 } });
    llm.onPrompt("[claude] think forever").reply().text("thinking").hang();
    llm.onPrompt("hang it").reply().text("It was stopped.");
    const started = Date.now();
    const run = await runBinAsync(["run", "--yes", "--json", "hang it"], env, { cwd: repo, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [record] = runJson(run.stdout).subagents;
    expect(record).toMatchObject({ kind: "claude", status: "stopped", error: expect.stringMatching(/^stopped: time cap \(3 s\); its work is kept/) });
    expect(existsSync(record!.worktree!.path)).toBe(true);
    expect(claudeProcesses(record!.worktree!.path)).toEqual([]);
  }, 90_000);

  it("a bosun killed mid-run leaves the worktree and branch intact, listed as interrupted, and prune keeps it; a second bosun never takes it", async () => {
    const { repo, env } = delegation();
    llm.onPrompt("crash me").reply().tool("agent", { prompt: "[claude] slow work", agent: "claude" });
    llm.onPrompt("[claude] slow work").reply().text("working").hang();
    const child = spawn(process.execPath, [BOSUN_BIN, "run", "--yes", "crash me"], { cwd: repo, env: env as NodeJS.ProcessEnv, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Wait until the task's worktree is there, locked by the run.
    const locked = await waitFor(() => /locked bosun: task running \(pid \d+\)/.test(git(repo, "worktree", "list", "--porcelain")), 60_000);
    expect(locked).toBe(true);
    // Meanwhile a second bosun sees it running and its prune leaves it alone.
    const during = await runBinAsync(["worktrees", "prune", "--json"], env, { cwd: repo });
    expect(during.code, during.stderr).toBe(0);
    expect(JSON.parse(during.stdout)).toMatchObject({ removed: [], kept: [{ state: "running" }] });

    child.kill("SIGKILL");
    await exited;
    const listed = JSON.parse((await runBinAsync(["worktrees", "--json"], env, { cwd: repo })).stdout) as { worktrees: { state: string; path: string; branch: string }[] };
    expect(listed.worktrees).toHaveLength(1);
    const [worktree] = listed.worktrees;
    expect(worktree!.state).toBe("interrupted");
    expect(existsSync(worktree!.path)).toBe(true);
    expect(git(repo, "branch", "--list", worktree!.branch)).toContain(worktree!.branch);
    // The CLI died with bosun (its own PID namespace dies with its parent).
    expect(await waitFor(() => claudeProcesses(worktree!.path).length === 0, 10_000)).toBe(true);
    const pruned = await runBinAsync(["worktrees", "prune", "--json"], env, { cwd: repo });
    expect(JSON.parse(pruned.stdout)).toMatchObject({ removed: [], kept: [{ state: "interrupted" }] });
    expect(existsSync(worktree!.path)).toBe(true);
  }, 120_000);
});

/** Processes whose working folder is `dir` (the CLI of a task), by their /proc entries. */
function claudeProcesses(dir: string): number[] {
  const found: number[] = [];
  for (const entry of execFileSync("ls", ["/proc"], { encoding: "utf8" }).split("\n")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (execFileSync("readlink", [`/proc/${entry}/cwd`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() === dir) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}
