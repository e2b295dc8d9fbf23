import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, statSync, symlinkSync, chmodSync, utimesSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo } from "./repo-fixture.js";
import { createTaskWorktree, finishTaskWorktree } from "../../../src/agent/worktrees/task-worktree.js";
import { NoCommitsError, NotARepositoryError, TaskNameError, WorktreeExistsError } from "../../../src/agent/worktrees/errors.js";
import { repoKey } from "../../../src/agent/worktrees/layout.js";
import { listGitWorktrees } from "../../../src/agent/worktrees/porcelain.js";

/**
 * Gives a committed file a new mtime, content unchanged: its index entry is then stale, and a git
 * command that refreshes the index and writes it back (plain `git status` does) would change the
 * index file the tests compare.
 */
function touchUnchanged(root: string, path: string): void {
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, path), later, later);
}

describe("createTaskWorktree", () => {
  it("creates a locked worktree on a new branch at HEAD, in the data folder, with a record beside it", async () => {
    const repo = makeRepo({ commits: 2 });
    const head = repo.git(["rev-parse", "HEAD"]).trim();
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s1", task: "fix-bug", carryChanges: false, pid: 4242 });
    const top = realpathSync(repo.root);
    expect(wt).toEqual({ path: join(realpathSync(repo.dataDir), "worktrees", repoKey(top), "s1", "fix-bug"), branch: "bosun/s1/fix-bug", base: head, repoRoot: top, pid: 4242 });
    expect(repoKey(top)).toMatch(/^repo-[0-9a-f]{8}$/);
    expect(readFileSync(join(wt.path, "file2.txt"), "utf8")).toBe("line one of 2\nline two\n");
    expect(repo.git(["rev-parse", "bosun/s1/fix-bug"]).trim()).toBe(head);
    expect(repo.git(["symbolic-ref", "HEAD"], wt.path).trim()).toBe("refs/heads/bosun/s1/fix-bug");
    const listed = (await listGitWorktrees(repo.root)).find((entry) => entry.path === wt.path);
    expect(listed?.locked).toBe("bosun: task running (pid 4242)");
    const record = JSON.parse(readFileSync(`${wt.path}.json`, "utf8"));
    expect(record).toMatchObject({ version: 1, repoRoot: top, branch: "bosun/s1/fix-bug", base: head, session: "s1", task: "fix-bug" });
    expect(statSync(`${wt.path}.json`).mode & 0o777).toBe(0o600);
    expect(statSync(join(wt.path, "..")).mode & 0o777).toBe(0o700);
    // The user's own tree is on its branch as before, and git refuses to remove the locked worktree.
    expect(repo.git(["symbolic-ref", "HEAD"]).trim()).toBe("refs/heads/main");
    expect(() => repo.git(["worktree", "remove", wt.path])).toThrow(/locked/);
    expect(wt.note).toBeUndefined();
  });

  it("works from a subfolder of the repository", async () => {
    const repo = makeRepo();
    mkdirSync(join(repo.root, "sub", "deeper"), { recursive: true });
    const wt = await createTaskWorktree({ cwd: join(repo.root, "sub", "deeper"), dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    expect(wt.repoRoot).toBe(realpathSync(repo.root));
    expect(wt.pid).toBe(process.pid);
  });

  it("refuses a folder outside any repository, naming it", async () => {
    const repo = makeRepo();
    const outside = join(repo.t.root, "plain");
    mkdirSync(outside);
    const error = await createTaskWorktree({ cwd: outside, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotARepositoryError);
    expect((error as Error).message).toMatch(new RegExp(`^${outside} is not in a git repository: not a git repository`));
    expect(existsSync(join(repo.dataDir, "worktrees"))).toBe(false);
  });

  it("refuses a repository with no commits, saying what to do", async () => {
    const repo = makeRepo({ commits: 0 });
    const error = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoCommitsError);
    expect((error as Error).message).toBe(`the git repository ${realpathSync(repo.root)} has no commits yet, so a task worktree has nothing to start from: commit once first, or run the task with isolation "none"`);
    expect(repo.git(["branch", "--list"])).toBe("");
  });

  it("never reuses a branch that exists: the branch and the user's tree stay as they were", async () => {
    const repo = makeRepo({ commits: 2 });
    repo.git(["branch", "bosun/s/t", "HEAD~1"]);
    const before = repo.git(["rev-parse", "bosun/s/t"]);
    const error = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorktreeExistsError);
    expect((error as Error).message).toMatch(/^branch bosun\/s\/t already exists in .*; bosun never reuses a task's branch/);
    expect(repo.git(["rev-parse", "bosun/s/t"])).toBe(before);
    expect(await listGitWorktrees(repo.root)).toHaveLength(1);
  });

  it("never reuses a folder that exists (even empty), and removes the branch it had made", async () => {
    const repo = makeRepo();
    const first = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    const folder = join(first.path, "..", "empty");
    mkdirSync(folder);
    const error = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "empty", carryChanges: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorktreeExistsError);
    expect((error as Error).message).toBe(`${folder} already exists; bosun never reuses a task's folder: give the task another name (bosun worktrees lists the task worktrees)`);
    expect(repo.git(["branch", "--list", "bosun/s/empty"])).toBe("");
    // A second task of the same name: its branch and folder exist; the first worktree is untouched.
    const again = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(WorktreeExistsError);
    expect(existsSync(join(first.path, "file1.txt"))).toBe(true);
  });

  it("refuses session and task names that cannot be a folder and a branch", async () => {
    const repo = makeRepo();
    for (const task of ["../x", "a/b", "x.lock", "", ".hidden", "a..b", "t.json"]) {
      await expect(createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task, carryChanges: false })).rejects.toBeInstanceOf(TaskNameError);
    }
    await expect(createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s s", task: "t", carryChanges: false })).rejects.toThrow(/^session name "s s" cannot name a task worktree/);
  });

  it("without carryChanges, leaves a dirty tree alone and says how many files stayed behind", async () => {
    const repo = makeRepo({ commits: 3 });
    repo.write("file1.txt", "changed\n");
    repo.write("new.txt", "untracked\n");
    repo.write("file2.txt", "staged\n");
    repo.git(["add", "file2.txt"]);
    touchUnchanged(repo.root, "file3.txt");
    const before = repo.snapshot();
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false });
    expect(wt.note).toBe(`3 uncommitted files were not carried into the task's worktree, which starts from the last commit (${wt.base.slice(0, 8)})`);
    expect(readFileSync(join(wt.path, "file1.txt"), "utf8")).toBe("line one of 1\nline two\n");
    expect(readFileSync(join(wt.path, "file2.txt"), "utf8")).toBe("line one of 2\nline two\n");
    expect(existsSync(join(wt.path, "new.txt"))).toBe(false);
    expect(repo.git(["status", "--porcelain"], wt.path)).toBe("");
    expect(repo.snapshot()).toEqual(before);
  });

  it("with carryChanges, brings staged, unstaged, untracked, deleted and binary changes, and changes nothing of the user's", async () => {
    const repo = makeRepo({ commits: 5 });
    const binary = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13, 0, 7]);
    repo.write("tracked.bin", binary);
    repo.write("tool.sh", "#!/bin/sh\necho hi\n");
    repo.git(["add", "-A"]);
    repo.git(["commit", "-q", "-m", "more"]);
    repo.git(["stash", "list"]);
    repo.write("file1.txt", "unstaged edit\n");
    repo.write("file2.txt", "staged edit\n");
    repo.git(["add", "file2.txt"]);
    repo.write("file2.txt", "staged edit\nthen an unstaged line\n");
    repo.git(["rm", "-q", "file3.txt"]);
    rmSync(join(repo.root, "file5.txt"));
    repo.write("tracked.bin", Buffer.concat([binary, binary]));
    chmodSync(join(repo.root, "tool.sh"), 0o755);
    repo.write("notes/untracked.md", "new file\n");
    repo.write("untracked.bin", Buffer.from([0, 0, 0, 1]));
    symlinkSync("file1.txt", join(repo.root, "link"));
    repo.write(".gitignore", "ignored.log\n");
    repo.write("ignored.log", "not carried\n");
    touchUnchanged(repo.root, "file4.txt");
    const before = repo.snapshot();

    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "carry", carryChanges: true });
    expect(wt.note).toBeUndefined();
    const read = (path: string) => readFileSync(join(wt.path, path));
    expect(read("file1.txt").toString()).toBe("unstaged edit\n");
    expect(read("file2.txt").toString()).toBe("staged edit\nthen an unstaged line\n");
    expect(existsSync(join(wt.path, "file3.txt"))).toBe(false);
    expect(existsSync(join(wt.path, "file5.txt"))).toBe(false);
    expect(read("tracked.bin").equals(Buffer.concat([binary, binary]))).toBe(true);
    expect(statSync(join(wt.path, "tool.sh")).mode & 0o111).not.toBe(0);
    expect(read("notes/untracked.md").toString()).toBe("new file\n");
    expect(read("untracked.bin").equals(Buffer.from([0, 0, 0, 1]))).toBe(true);
    expect(lstatSync(join(wt.path, "link")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(wt.path, "link"))).toBe("file1.txt");
    expect(read(".gitignore").toString()).toBe("ignored.log\n");
    expect(existsSync(join(wt.path, "ignored.log"))).toBe(false);
    // Staged stays staged, unstaged stays unstaged, in the worktree as in the user's tree.
    const status = (cwd: string) => repo.git(["status", "--porcelain=v1", "--untracked-files=all"], cwd);
    expect(status(wt.path)).toBe(status(repo.root));
    expect(repo.git(["diff", "--cached", "--stat"], wt.path)).toBe(repo.git(["diff", "--cached", "--stat"]));
    expect(repo.snapshot()).toEqual(before);
    expect(repo.git(["stash", "list"])).toBe("");
  });

  it("refuses to carry a merge in the middle of its conflicts, leaving no worktree or branch behind", async () => {
    const repo = makeRepo();
    repo.git(["checkout", "-q", "-b", "other"]);
    repo.write("file1.txt", "other\n");
    repo.git(["commit", "-q", "-am", "other"]);
    repo.git(["checkout", "-q", "main"]);
    repo.write("file1.txt", "main\n");
    repo.git(["commit", "-q", "-am", "main"]);
    expect(() => repo.git(["merge", "-q", "other"])).toThrow();
    await expect(createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: true })).rejects.toThrow(/has unresolved merge conflicts \(file1.txt\)/);
    expect(await listGitWorktrees(repo.root)).toHaveLength(1);
    expect(repo.git(["branch", "--list", "bosun/*"])).toBe("");
  });
});

describe("finishTaskWorktree", () => {
  it("unlocks only its own lock, and removes nothing", async () => {
    const repo = makeRepo();
    const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "t", carryChanges: false, pid: 111 });
    expect(await finishTaskWorktree({ ...wt, pid: 222 })).toBe("locked-by-other");
    expect((await listGitWorktrees(repo.root))[1]?.locked).toBe("bosun: task running (pid 111)");
    expect(await finishTaskWorktree(wt)).toBe("unlocked");
    expect((await listGitWorktrees(repo.root))[1]?.locked).toBeNull();
    expect(await finishTaskWorktree(wt)).toBe("not-locked");
    repo.git(["worktree", "lock", "--reason", "mine", wt.path]);
    expect(await finishTaskWorktree(wt)).toBe("locked-by-other");
    expect((await listGitWorktrees(repo.root))[1]?.locked).toBe("mine");
    expect(existsSync(join(wt.path, "file1.txt"))).toBe(true);
  });
});
