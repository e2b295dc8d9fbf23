import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo } from "./repo-fixture.js";
import { createTaskWorktree } from "../../../src/agent/worktrees/task-worktree.js";
import { summarizeTaskWorktree } from "../../../src/agent/worktrees/summary.js";

describe("summarizeTaskWorktree", () => {
  it("a fresh worktree: no commits, no changes, clean", async () => {
    const repo = makeRepo();
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    expect(await summarizeTaskWorktree(wt)).toEqual({ branch: "bosun/s/t", base: wt.base, head: wt.base, commits: 0, changedFiles: [], diffStat: { files: 0, insertions: 0, deletions: 0 }, dirty: false });
  });

  it("counts commits since the base and every changed file: committed, staged, unstaged, untracked, deleted, binary", async () => {
    const repo = makeRepo({ commits: 3 });
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    const git = (...args: string[]) => repo.git(args, wt.path);
    repo.write(join(wt.path, "src/a.ts"), "one\ntwo\nthree\n");
    git("add", "src/a.ts");
    git("commit", "-q", "-m", "a");
    repo.write(join(wt.path, "file1.txt"), "line one of 1\nline two\nline three\n");
    git("commit", "-q", "-am", "b");
    // Uncommitted: a staged edit, an unstaged deletion, untracked text (no final newline) and binary.
    repo.write(join(wt.path, "file2.txt"), "replaced\n");
    git("add", "file2.txt");
    rmSync(join(wt.path, "file3.txt"));
    repo.write(join(wt.path, "notes.md"), "x\ny");
    repo.write(join(wt.path, "blob.bin"), Buffer.from([1, 0, 2]));
    const indexBefore = readFileSync(join(repo.root, ".git", "worktrees", "t", "index"));
    const statusBefore = git("status", "--porcelain");

    const summary = await summarizeTaskWorktree(wt);
    expect(summary.head).toBe(git("rev-parse", "HEAD").trim());
    expect(summary.commits).toBe(2);
    expect(summary.changedFiles).toEqual(["blob.bin", "file1.txt", "file2.txt", "file3.txt", "notes.md", "src/a.ts"]);
    // src/a.ts +3, file1 +1, file2 +1 -2, file3 -2, notes.md +2 (untracked, counted here), blob.bin: a file only.
    expect(summary.diffStat).toEqual({ files: 6, insertions: 7, deletions: 4 });
    expect(summary.dirty).toBe(true);
    // Nothing was staged or refreshed in the worktree.
    expect(git("status", "--porcelain")).toBe(statusBefore);
    expect(readFileSync(join(repo.root, ".git", "worktrees", "t", "index")).equals(indexBefore)).toBe(true);
  });

  it("is clean again once everything is committed", async () => {
    const repo = makeRepo();
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    repo.write(join(wt.path, "new.txt"), "a\nb\n");
    repo.git(["add", "-A"], wt.path);
    repo.git(["commit", "-q", "-m", "new"], wt.path);
    expect(await summarizeTaskWorktree(wt)).toMatchObject({ commits: 1, changedFiles: ["new.txt"], diffStat: { files: 1, insertions: 2, deletions: 0 }, dirty: false });
  });
});
