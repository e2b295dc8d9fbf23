import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyState, finished, makeRepo } from "./repo-fixture.js";
import { listTaskWorktrees } from "../../../src/agent/worktrees/worktree-list.js";
import { repoKey } from "../../../src/agent/worktrees/layout.js";
import { snapshotTree } from "../../fixtures/fs-snapshot.js";

describe("listTaskWorktrees", () => {
  it("is empty before any task worktree exists", async () => {
    const repo = makeRepo();
    expect(await listTaskWorktrees({ dataDir: repo.dataDir })).toEqual({ worktrees: [], problems: [] });
  });

  it("tells each state apart", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const before = snapshotTree(repo.t.root);
    const { worktrees, problems } = await listTaskWorktrees({ dataDir: repo.dataDir });
    // Listing reads only: nothing in the repository, its worktrees or bosun's folders changed.
    expect(snapshotTree(repo.t.root)).toEqual(before);
    expect(problems).toEqual([]);
    const state = Object.fromEntries(worktrees.map((entry) => [entry.task, entry.state]));
    expect(state).toEqual({
      running: "running",
      interrupted: "interrupted",
      locked: "locked",
      dirty: "dirty",
      unmerged: "unmerged",
      merged: "merged",
      landed: "merged",
      missing: "missing",
    });
    const byTask = Object.fromEntries(worktrees.map((entry) => [entry.task, entry]));
    expect(byTask.running).toMatchObject({
      path: wts.running.path,
      repoRoot: realpathSync(repo.root),
      branch: "bosun/s/running",
      session: "s",
      head: wts.running.base,
      checkedOut: "bosun/s/running",
      branchHead: wts.running.base,
      base: wts.running.base,
      lockReason: `bosun: task running (pid ${process.pid})`,
      pid: process.pid,
      folderExists: true,
      uncommittedFiles: 0,
      commits: 0,
      uniqueCommits: 0,
      recordFile: `${wts.running.path}.json`,
    });
    expect(byTask.interrupted!.pid).toBe(wts.interrupted.pid);
    expect(byTask.locked).toMatchObject({ lockReason: "on a USB disk", pid: null });
    expect(byTask.dirty).toMatchObject({ uncommittedFiles: 1, uniqueCommits: 0 });
    expect(byTask.unmerged).toMatchObject({ uncommittedFiles: 0, commits: 1, uniqueCommits: 1 });
    expect(byTask.landed).toMatchObject({ commits: 1, uniqueCommits: 0 });
    expect(byTask.missing).toMatchObject({ folderExists: false, uncommittedFiles: null, commits: null });
    expect(worktrees.map((entry) => entry.task)).toEqual(["dirty", "interrupted", "landed", "locked", "merged", "missing", "running", "unmerged"]);
  });

  it("finds a worktree git lists in bosun's folder even when its folder and record are gone", async () => {
    const repo = makeRepo();
    const wt = await finished(repo, "t");
    rmSync(wt.path, { recursive: true });
    rmSync(`${wt.path}.json`);
    const { worktrees, problems } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(problems).toEqual([]);
    expect(worktrees).toMatchObject([{ path: wt.path, state: "missing", branch: "bosun/s/t", base: null, recordFile: null }]);
  });

  it("lists a worktree without its record, with what git knows", async () => {
    const repo = makeRepo();
    const wt = await finished(repo, "t");
    rmSync(`${wt.path}.json`);
    const { worktrees } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(worktrees).toMatchObject([{ path: wt.path, state: "merged", repoRoot: realpathSync(repo.root), base: null, createdAt: null }]);
  });

  it("reports what is not a task worktree as problems, and changes nothing", async () => {
    const repo = makeRepo();
    const wt = await finished(repo, "good");
    const sessionDir = join(wt.path, "..");
    const keyDir = join(sessionDir, "..");
    mkdirSync(join(sessionDir, "stray"));
    writeFileSync(join(sessionDir, "stray", "file"), "x");
    writeFileSync(join(sessionDir, "broken.json"), "{ not json");
    writeFileSync(join(sessionDir, "odd.txt"), "x");
    writeFileSync(join(sessionDir, "old.json"), JSON.stringify({ version: 1, repoRoot: realpathSync(repo.root), branch: "bosun/s/old", base: wt.base, session: "s", task: "old", createdAt: "2020-01-01T00:00:00Z" }));
    writeFileSync(join(keyDir, "file-in-key"), "x");
    mkdirSync(join(repo.dataDir, "worktrees", "other-00000000", "bad name"), { recursive: true });
    const before = snapshotTree(repo.t.root);
    const { worktrees, problems } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(snapshotTree(repo.t.root)).toEqual(before);
    expect(worktrees.map((entry) => entry.task)).toEqual(["good"]);
    expect(problems).toEqual([
      { path: join(repo.dataDir, "worktrees", "other-00000000", "bad name"), problem: "not a session folder bosun made (its name is not a session name); left alone" },
      { path: join(keyDir, "file-in-key"), problem: "a file where bosun keeps session folders; left alone" },
      { path: join(sessionDir, "broken.json"), problem: "the record is not valid JSON; left alone" },
      { path: join(sessionDir, "odd.txt"), problem: "not a task worktree or record bosun made; left alone" },
      { path: join(sessionDir, "old.json"), problem: "git no longer lists this worktree and its folder is gone; delete the record if you no longer need it (branch bosun/s/old is kept)" },
      { path: join(sessionDir, "stray"), problem: "not a git worktree (no .git file); left alone" },
    ]);
    expect(repoKey(realpathSync(repo.root))).not.toBe("other-00000000");
  });

  it("reports a worktree whose repository is gone as a problem", async () => {
    const repo = makeRepo();
    const wt = await finished(repo, "t");
    rmSync(repo.root, { recursive: true });
    const { worktrees, problems } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(worktrees).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe(wt.path);
    expect(problems[0]!.problem).toMatch(/^its repository .* cannot be read \(git worktree list --porcelain failed in .*\); left alone$/);
  });
});
