import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyState, finished, makeRepo } from "./repo-fixture.js";
import { listTaskWorktrees } from "../../../src/agent/worktrees/worktree-list.js";
import { pruneTaskWorktrees, removeTaskWorktree } from "../../../src/agent/worktrees/worktree-prune.js";
import { deleteBranchAt } from "../../../src/agent/worktrees/branch.js";
import { listGitWorktrees } from "../../../src/agent/worktrees/porcelain.js";
import { snapshotTree } from "../../fixtures/fs-snapshot.js";

describe("pruneTaskWorktrees", () => {
  it("removes only merged worktrees (and a missing one with nothing of its own) with their branches, and keeps every other, saying why", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    // The user's own worktree outside bosun's folder, with its folder gone: `git worktree prune` would drop it.
    const theirs = join(repo.t.root, "their-worktree");
    repo.git(["worktree", "add", "-q", "-b", "their-branch", theirs]);
    rmSync(theirs, { recursive: true });
    repo.git(["branch", "bosun-like-but-theirs"]);
    const branchesBefore = repo.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"]);

    const result = await pruneTaskWorktrees({ dataDir: repo.dataDir });
    expect(result.problems).toEqual([]);
    expect(result.removed.map((removed) => [removed.path, removed.state, removed.branchDeleted])).toEqual([
      [wts.landed.path, "merged", true],
      [wts.merged.path, "merged", true],
      // Folder gone, unlocked, its branch has nothing of its own: git's entry and the branch go.
      [wts.missing.path, "missing", true],
    ]);
    expect(Object.fromEntries(result.kept.map((kept) => [kept.path, [kept.state, kept.reason]]))).toEqual({
      [wts.dirty.path]: ["dirty", "1 uncommitted file"],
      [wts.interrupted.path]: ["interrupted", `its task was interrupted (bosun process ${wts.interrupted.pid} is gone); look at it, then unlock it with: git worktree unlock ${wts.interrupted.path}`],
      [wts.locked.path]: ["locked", 'locked by someone else ("on a USB disk")'],
      [wts.running.path]: ["running", `its task is running (bosun process ${process.pid})`],
      [wts.unmerged.path]: ["unmerged", "1 commit no other branch has"],
    });
    for (const gone of [wts.merged, wts.landed, wts.missing]) {
      expect(existsSync(gone.path)).toBe(false);
      expect(existsSync(`${gone.path}.json`)).toBe(false);
      expect(repo.git(["branch", "--list", gone.branch])).toBe("");
    }
    for (const kept of [wts.running, wts.interrupted, wts.locked, wts.dirty, wts.unmerged]) {
      expect(existsSync(join(kept.path, "file1.txt"))).toBe(true);
      expect(repo.git(["rev-parse", kept.branch]).trim()).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(existsSync(join(wts.dirty.path, "scratch.txt"))).toBe(true);
    // The user's branches are as they were; their missing worktree is still registered.
    const branchesAfter = repo.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"]);
    const withoutBosun = (text: string) => text.split("\n").filter((line) => !line.startsWith("refs/heads/bosun/"));
    expect(withoutBosun(branchesAfter)).toEqual(withoutBosun(branchesBefore));
    const listed = (await listGitWorktrees(repo.root)).map((entry) => entry.path);
    expect(listed).toContain(theirs);
    expect(listed).not.toContain(wts.missing.path);
  });

  it("removes git's entry and the branch of a missing worktree whose branch has nothing of its own, and keeps one that has", async () => {
    const repo = makeRepo();
    const empty = await finished(repo, "empty");
    const work = await finished(repo, "work");
    writeFileSync(join(work.path, "w.txt"), "w\n");
    repo.git(["add", "w.txt"], work.path);
    repo.git(["commit", "-q", "-m", "w"], work.path);
    const workHead = repo.git(["rev-parse", work.branch]).trim();
    rmSync(empty.path, { recursive: true });
    rmSync(work.path, { recursive: true });
    const result = await pruneTaskWorktrees({ dataDir: repo.dataDir });
    expect(result.removed).toMatchObject([{ path: empty.path, state: "missing", branchDeleted: true }]);
    expect(result.kept).toEqual([
      { path: work.path, branch: work.branch, state: "missing", reason: `its folder is gone and ${work.branch} has 1 commit no other branch has; merge them somewhere, then prune again` },
    ]);
    const listed = (await listGitWorktrees(repo.root)).map((entry) => entry.path);
    expect(listed).not.toContain(empty.path);
    expect(listed).toContain(work.path);
    expect(repo.git(["rev-parse", work.branch]).trim()).toBe(workHead);
    expect(repo.git(["branch", "--list", empty.branch])).toBe("");
  });

  it("with dryRun, says what it would remove and changes nothing", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const before = snapshotTree(repo.t.root);
    const result = await pruneTaskWorktrees({ dataDir: repo.dataDir, dryRun: true });
    expect(snapshotTree(repo.t.root)).toEqual(before);
    expect(result.dryRun).toBe(true);
    expect(result.removed.map((removed) => removed.path)).toEqual([wts.landed.path, wts.merged.path, wts.missing.path]);
    expect(result.kept.map((kept) => kept.state).sort()).toEqual(["dirty", "interrupted", "locked", "running", "unmerged"]);
  });

  it("removes the session folder once empty, keeps the repository's folder and its record", async () => {
    const repo = makeRepo();
    const wt = await finished(repo, "only");
    const sessionDir = join(wt.path, "..");
    await pruneTaskWorktrees({ dataDir: repo.dataDir });
    expect(existsSync(sessionDir)).toBe(false);
    expect(JSON.parse(readFileSync(join(sessionDir, "..", "repo.json"), "utf8"))).toEqual({ version: 1, repoRoot: realpathSync(repo.root) });
    expect(await listTaskWorktrees({ dataDir: repo.dataDir })).toEqual({ worktrees: [], problems: [] });
  });

  it("keeps a worktree whose branch moved after it was checked (the stale commit is never deleted over)", async () => {
    const repo = makeRepo({ commits: 2 });
    const wt = await finished(repo, "t");
    const [entry] = (await listTaskWorktrees({ dataDir: repo.dataDir })).worktrees;
    expect(entry!.state).toBe("merged");
    const stale = repo.git(["rev-parse", "HEAD~1"]).trim();
    const outcome = await removeTaskWorktree(entry!, { dataDir: repo.dataDir, branchHead: stale });
    expect(outcome).toEqual({ path: wt.path, branch: wt.branch, state: "merged", reason: `its branch ${wt.branch} moved since it was checked (${stale.slice(0, 8)} → ${wt.base.slice(0, 8)})` });
    expect(existsSync(join(wt.path, "file1.txt"))).toBe(true);
    expect(repo.git(["rev-parse", wt.branch]).trim()).toBe(wt.base);
    // The last guard, git's own compare-and-delete, refuses a stale commit too.
    await expect(deleteBranchAt(repo.root, wt.branch, stale)).rejects.toThrow(/cannot lock ref 'refs\/heads\/bosun\/s\/t': is at .* but expected/);
    expect(repo.git(["rev-parse", wt.branch]).trim()).toBe(wt.base);
  });

  it("keeps a worktree that became dirty, or was locked again, after the listing", async () => {
    const repo = makeRepo();
    const dirty = await finished(repo, "dirty");
    const relocked = await finished(repo, "relocked");
    const { worktrees } = await listTaskWorktrees({ dataDir: repo.dataDir });
    expect(worktrees.map((entry) => entry.state)).toEqual(["merged", "merged"]);
    writeFileSync(join(dirty.path, "late.txt"), "late\n");
    repo.git(["worktree", "lock", "--reason", `bosun: task running (pid ${process.pid})`, relocked.path]);
    const outcomes = await Promise.all(worktrees.map((entry) => removeTaskWorktree(entry, { dataDir: repo.dataDir, branchHead: entry.branchHead })));
    expect(outcomes).toEqual([
      { path: dirty.path, branch: dirty.branch, state: "dirty", reason: "changed since it was checked: 1 uncommitted file" },
      { path: relocked.path, branch: relocked.branch, state: "running", reason: `changed since it was checked: its task is running (bosun process ${process.pid})` },
    ]);
    expect(existsSync(join(dirty.path, "late.txt"))).toBe(true);
    expect(existsSync(join(relocked.path, "file1.txt"))).toBe(true);
  });
});
