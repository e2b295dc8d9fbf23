import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { createTaskWorktree, finishTaskWorktree, type CreatedTaskWorktree } from "../../../src/agent/worktrees/task-worktree.js";
import { makeTempHome, type TempHome } from "../../fixtures/temp-home.js";

// bosun's git calls run with this process's environment: no system or user git config while a
// test runs, so a setting of the machine (a hook path, an alias, a default branch) cannot change
// what is tested. Restored after each test.
const GIT_CONFIG_VARIABLES = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const saved = Object.fromEntries(Object.keys(GIT_CONFIG_VARIABLES).map((name) => [name, process.env[name]]));
beforeEach(() => void Object.assign(process.env, GIT_CONFIG_VARIABLES));
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

export interface TestRepo {
  t: TempHome;
  /** The repository's top folder. */
  root: string;
  /** bosun's data folder (task worktrees go in its `worktrees/`). */
  dataDir: string;
  /** Runs git in the repository (or in `cwd`) with a throwaway identity; returns stdout. */
  git(args: string[], cwd?: string): string;
  /** Writes a file relative to the repository (or an absolute path). */
  write(path: string, content: string | Buffer): string;
  /** The index file, `git status --porcelain` and `git stash list` of the repository: what must not change. */
  snapshot(): { status: string; stash: string; index: string };
}

/** A real git repository in a temp home, with `commits` commits (0: none at all). */
export function makeRepo(options: { commits?: number; name?: string } = {}): TestRepo {
  const t = makeTempHome();
  const root = join(t.root, options.name ?? "repo");
  mkdirSync(root, { recursive: true });
  const git = (args: string[], cwd = root) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", ...args], {
      cwd,
      // No optional locks: a `git status` of the test must not rewrite the index it compares.
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  const write = (path: string, content: string | Buffer) => {
    const file = path.startsWith("/") ? path : join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  git(["init", "-q"]);
  for (let i = 1; i <= (options.commits ?? 1); i++) {
    write(`file${i}.txt`, `line one of ${i}\nline two\n`);
    git(["add", "-A"]);
    git(["commit", "-q", "-m", `commit ${i}`]);
  }
  return {
    t,
    root,
    dataDir: t.paths.data,
    git,
    write,
    // The index's bytes (stat data included): a refresh written by any git command would change them.
    snapshot: () => ({ index: readFileSync(join(root, ".git", "index")).toString("base64"), status: git(["status", "--porcelain=v1", "--untracked-files=all"]), stash: git(["stash", "list"]) }),
  };
}

/** The pid of a process that has ended: a real node process, started and waited for. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  expect(child.status).toBe(0);
  return child.pid!;
}

/** A finished task (unlocked), as bosun leaves it once the task ends. */
export async function finished(repo: TestRepo, task: string): Promise<CreatedTaskWorktree> {
  const wt = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task, carryChanges: false });
  expect(await finishTaskWorktree(wt)).toBe("unlocked");
  return wt;
}

/** One worktree in each state, in one repository. */
export async function everyState(repo: TestRepo) {
  const running = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "running", carryChanges: false });
  const interrupted = await createTaskWorktree({ cwd: repo.root, dataDir: repo.dataDir, session: "s", task: "interrupted", carryChanges: false, pid: deadPid() });
  const locked = await finished(repo, "locked");
  repo.git(["worktree", "lock", "--reason", "on a USB disk", locked.path]);
  const dirty = await finished(repo, "dirty");
  writeFileSync(join(dirty.path, "scratch.txt"), "work in progress\n");
  const unmerged = await finished(repo, "unmerged");
  writeFileSync(join(unmerged.path, "done.txt"), "done\n");
  repo.git(["add", "done.txt"], unmerged.path);
  repo.git(["commit", "-q", "-m", "done"], unmerged.path);
  const merged = await finished(repo, "merged");
  // Merged after a commit: the user merged the task's branch into main.
  const landed = await finished(repo, "landed");
  writeFileSync(join(landed.path, "landed.txt"), "landed\n");
  repo.git(["add", "landed.txt"], landed.path);
  repo.git(["commit", "-q", "-m", "landed"], landed.path);
  repo.git(["merge", "-q", "--ff-only", landed.branch]);
  const missing = await finished(repo, "missing");
  rmSync(missing.path, { recursive: true });
  return { running, interrupted, locked, dirty, unmerged, merged, landed, missing };
}
