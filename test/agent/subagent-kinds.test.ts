import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import type { SubagentSettingsInput as SettingsInput } from "../../src/agent/subagents/settings.js";
import { SubagentSessionCache } from "../../src/agent/subagents/sessions.js";
import type { Approver } from "../../src/agent/approval/approval.js";
import { makeWorkspace, recordingUi, requestToolResults, runScripted, scriptedTarget, languageModelFor } from "../fixtures/agent-harness.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).trim();
}

/** A workspace that is a git repository with one commit. */
function repoWorkspace() {
  const ws = makeWorkspace();
  ws.write("notes.txt", "one\n");
  git(ws.workdir, "init", "-q", "-b", "main");
  git(ws.workdir, "add", ".");
  git(ws.workdir, "commit", "-q", "-m", "first");
  return ws;
}

async function runTree(prompt: string, ws: ReturnType<typeof makeWorkspace>, settings: SettingsInput = {}, approver: Approver | null = null, mode: "ask" | "full-access" = "full-access") {
  const target = scriptedTarget(llm);
  const ui = recordingUi();
  const run = await runScripted(prompt, {
    model: await languageModelFor(target),
    target,
    workdir: ws.workdir,
    sessions: ws.sessions,
    ui,
    mode,
    approver,
    subagents: { settings, sessions: new SubagentSessionCache(), dataDir: join(ws.root, "data"), prices: [{ input: 1, output: 2 }] },
  });
  const lastResult = (p: string) => requestToolResults(llm.requests.filter((request) => request.prompt.includes(p)).at(-1)!)[0]!;
  return { ...run, ui, lastResult };
}

const ends = (events: AgentEvent[]) => events.filter((event): event is Extract<AgentEvent, { type: "subagent-end" }> => event.type === "subagent-end");

describe("sub-agent kinds, worktrees and caps", () => {
  it("runs a bosun task in a worktree of its own on a new branch; the user's checkout is untouched and the report says what changed", async () => {
    const ws = repoWorkspace();
    llm.onPrompt("isolate it").reply().tool("agent", { prompt: "write result.txt", isolation: "worktree" });
    llm.onPrompt("write result.txt").reply().tool("write", { path: "result.txt", content: "a\nb\n" });
    llm.onPrompt("write result.txt").reply().text("wrote it");
    llm.onPrompt("isolate it").reply().text("ok");
    const { lastResult, session, ui } = await runTree("isolate it", ws);

    expect(existsSync(join(ws.workdir, "result.txt"))).toBe(false);
    expect(git(ws.workdir, "status", "--porcelain")).toBe("");
    const [end] = ends(ui.events);
    const worktree = end!.worktree!;
    expect(worktree.branch).toMatch(new RegExp(`^bosun/${session.id}/1-[0-9a-f]{6}$`));
    expect(worktree).toMatchObject({ changedFiles: ["result.txt"], diffStat: { files: 1, insertions: 2, deletions: 0 }, commits: 0, dirty: true });
    expect(readFileSync(join(worktree.path, "result.txt"), "utf8")).toBe("a\nb\n");
    expect(git(ws.workdir, "branch", "--list", worktree.branch)).toContain(worktree.branch);
    expect(lastResult("isolate it")).toBe(
      `<subagent sessionID="${end!.agent.id}" state="completed">\nwrote it\nWorktree: ${worktree.path} (branch ${worktree.branch}): 1 file changed, +2 -0, no commits, with uncommitted changes.\nChanged: result.txt\n</subagent>`,
    );
    // Finished: no longer locked, still there (work is never removed with the task).
    expect(git(ws.workdir, "worktree", "list", "--porcelain")).not.toContain("locked");
  });

  it("stops a sub-agent at the call's turns cap, keeps its work, and says which cap", async () => {
    const ws = makeWorkspace();
    llm.onPrompt("capped").reply().tool("agent", { prompt: "loop forever", limits: { turns: 2 } });
    for (let i = 0; i < 3; i++) llm.onPrompt("loop forever").reply().tool("write", { path: `f${i}.txt`, content: "x" }).usage({ input: 10, output: 1 });
    llm.onPrompt("capped").reply().text("it was stopped");
    const { lastResult, ui } = await runTree("capped", ws);
    expect(lastResult("capped")).toMatch(/^<subagent sessionID="[^"]+" state="stopped">\nstopped: turns cap \(2\); its work is kept\n<\/subagent>$/);
    expect(existsSync(join(ws.workdir, "f1.txt"))).toBe(true);
    expect(existsSync(join(ws.workdir, "f2.txt"))).toBe(false);
    const [end] = ends(ui.events);
    expect(end).toMatchObject({ status: "stopped", costUsd: 0.000024 });
  });

  it("holds the whole tree to limits.tree: once it is reached, tasks still waiting do not start", async () => {
    const ws = makeWorkspace();
    llm.onPrompt("tree cap").reply().tool("agent", { tasks: ["task one", "task two"] });
    llm.onPrompt("task one").reply().text("one done").usage({ input: 300, output: 10 });
    llm.onPrompt("tree cap").reply().text("done");
    const { lastResult } = await runTree("tree cap", ws, { concurrency: 1, limits: { tree: { tokens: 200 } } });
    const report = lastResult("tree cap");
    // The first task's last reply went over the cap, and it had its answer: it completed.
    expect(report).toContain("2 sub-agents ran (one at a time): 1 completed, 1 stopped by a cap.");
    expect(report).toContain('<subagent task="2/2" state="stopped">\nnot started: the tree\'s tokens cap (200)\n</subagent>');
  });

  it("fails only the task whose kind is unknown or cannot run here, in one line; the others go on", async () => {
    const ws = makeWorkspace();
    llm.onPrompt("mixed").reply().tool("agent", { tasks: [{ prompt: "x", agent: "hal9000" }, { prompt: "y", agent: "claude" }, "plain task"] });
    llm.onPrompt("plain task").reply().text("plain done");
    llm.onPrompt("mixed").reply().text("ok");
    const { lastResult } = await runTree("mixed", ws);
    const report = lastResult("mixed");
    expect(report).toContain('<subagent task="1/3" agent="hal9000" state="failed">\nnot run: there is no agent "hal9000"; use one of bosun, claude, codex, gemini, opencode, cursor, grok\n</subagent>');
    expect(report).toContain('<subagent task="2/3" agent="claude" state="failed">\nnot run: claude cannot run as a sub-agent here (this host runs bosun\'s own sub-agents only)\n</subagent>');
    expect(report).toContain("plain done");
  });

  it("asks before a fan-out larger than confirmAbove, and refuses it when the user says no", async () => {
    const ws = makeWorkspace();
    const asked: string[] = [];
    const deny: Approver = async (request) => {
      asked.push(`${request.description} | ${request.danger}`);
      return "deny";
    };
    llm.onPrompt("fan out").reply().tool("agent", { tasks: ["a1", "a2", "a3"] });
    llm.onPrompt("fan out").reply().text("ok");
    const { lastResult } = await runTree("fan out", ws, { confirmAbove: 2 }, deny);
    expect(asked).toEqual(["fan out 3 tasks | starts 3 sub-agents at once (subagents.confirmAbove is 2)"]);
    expect(lastResult("fan out")).toContain("the user declined this call");
    expect(llm.requests.filter((request) => request.prompt === "a1")).toHaveLength(0);
  });

  it("fails a worktree task in a repository with no commits in one line, and changes nothing", async () => {
    const ws = makeWorkspace();
    git(ws.workdir, "init", "-q");
    llm.onPrompt("empty repo").reply().tool("agent", { prompt: "work", isolation: "worktree" });
    llm.onPrompt("empty repo").reply().text("ok");
    const { lastResult } = await runTree("empty repo", ws);
    expect(lastResult("empty repo")).toMatch(/^<subagent sessionID="[^"]+" state="failed">\nthe git repository .* has no commits yet, so a task worktree has nothing to start from: commit once first, or run the task with isolation "none"\n<\/subagent>/);
    expect(git(ws.workdir, "branch", "--list")).toBe("");
  });
});
