import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeRepo } from "./repo-fixture.js";
import { createTaskWorktree } from "../../../src/agent/worktrees/task-worktree.js";
import { listGitWorktrees } from "../../../src/agent/worktrees/porcelain.js";
import { listTaskWorktrees } from "../../../src/agent/worktrees/worktree-list.js";

const CHILD = fileURLToPath(new URL("./create-child.ts", import.meta.url));

function runChild(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("creating task worktrees at the same time", () => {
  it("two processes, each creating three worktrees of the same repository at once: all are made, each with the changes", async () => {
    const repo = makeRepo({ commits: 2 });
    repo.write("file1.txt", "uncommitted\n");
    repo.write("untracked.txt", "new\n");
    const before = repo.snapshot();
    const [a, b] = await Promise.all([runChild([repo.root, repo.dataDir, "sa", "t1", "t2", "t3"]), runChild([repo.root, repo.dataDir, "sb", "t1", "t2", "t3"])]);
    for (const run of [a, b]) {
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const outcomes = JSON.parse(run.stdout) as { path?: string; error?: string }[];
      expect(outcomes.map((outcome) => outcome.error)).toEqual([undefined, undefined, undefined]);
      for (const { path } of outcomes) {
        expect(readFileSync(join(path!, "file1.txt"), "utf8")).toBe("uncommitted\n");
        expect(readFileSync(join(path!, "untracked.txt"), "utf8")).toBe("new\n");
      }
    }
    expect((await listGitWorktrees(repo.root)).filter((entry) => entry.branch?.startsWith("bosun/"))).toHaveLength(6);
    const { worktrees, problems } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(problems).toEqual([]);
    // Each is locked for its (now ended) child process.
    expect(worktrees.map((entry) => `${entry.session}/${entry.task} ${entry.state}`)).toEqual(["sa/t1", "sa/t2", "sa/t3", "sb/t1", "sb/t2", "sb/t3"].map((name) => `${name} interrupted`));
    expect(repo.snapshot()).toEqual(before);
  });

  it("in one process with Promise.all, the same task twice: exactly one is made, the other is refused", async () => {
    const repo = makeRepo();
    const create = () => createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "same", carryChanges: false });
    const outcomes = await Promise.allSettled([create(), create(), create()]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [(outcome.reason as Error).message] : []));
    expect(refused).toHaveLength(2);
    for (const message of refused) expect(message).toMatch(/already exists.*bosun never reuses a task's (branch|folder)/);
    expect((await listGitWorktrees(repo.root)).filter((entry) => entry.branch === "bosun/s/same")).toHaveLength(1);
  });
});
