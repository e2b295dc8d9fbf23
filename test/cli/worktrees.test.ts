import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { everyState, makeRepo, type TestRepo } from "../agent/worktrees/repo-fixture.js";

/** The built CLI in the repository's temp home, without the machine's git config. */
function bosun(repo: TestRepo, ...argv: string[]) {
  return runBin(argv, { ...repo.t.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }, repo.root);
}

/** A path as the CLI shows it (under the temp home: `~/…`). */
const shown = (repo: TestRepo, path: string) => path.replace(repo.t.home, "~");

describe("bosun worktrees", () => {
  it("says when there are none", () => {
    const repo = makeRepo();
    expect(bosun(repo, "worktrees")).toEqual({ code: 0, stdout: "no task worktrees\n", stderr: "" });
    expect(JSON.parse(bosun(repo, "worktrees", "--json").stdout)).toEqual({ worktrees: [], problems: [] });
    expect(bosun(repo, "worktrees", "prune")).toEqual({ code: 0, stdout: "no task worktrees\n", stderr: "" });
  });

  it("lists each worktree with its state, branch, repository, changes, age and path, and problems on their own lines", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    mkdirSync(join(wts.merged.path, "..", "stray"));
    const before = snapshotTree(repo.t.root);
    const { code, stdout, stderr } = bosun(repo, "worktrees");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(snapshotTree(repo.t.root)).toEqual(before);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^STATE\s+BRANCH\s+REPO\s+CHANGES\s+AGE\s+PATH$/);
    const row = (task: string) => lines.find((line) => line.includes(`bosun/s/${task} `))!;
    expect(row("running")).toMatch(new RegExp(`^running\\s+bosun/s/running\\s+${repo.root}\\s+0 commits\\s+just now\\s+${shown(repo, wts.running.path)}$`));
    expect(row("interrupted")).toMatch(/^interrupted\s/);
    expect(row("locked")).toMatch(/^locked\s/);
    expect(row("dirty")).toMatch(/^dirty\s+bosun\/s\/dirty\s+\S+\s+0 commits, 1 uncommitted\s/);
    expect(row("unmerged")).toMatch(/^unmerged\s+bosun\/s\/unmerged\s+\S+\s+1 commit\s/);
    expect(row("merged")).toMatch(/^merged\s/);
    expect(row("landed")).toMatch(/^merged\s+bosun\/s\/landed\s+\S+\s+1 commit\s/);
    expect(row("missing")).toMatch(/^missing\s+bosun\/s\/missing\s+\S+\s+folder gone\s/);
    expect(lines.at(-1)).toBe(`problem: ${shown(repo, join(wts.merged.path, "..", "stray"))}: not a git worktree (no .git file); left alone`);
    expect(lines).toHaveLength(10);
  });

  it("--json prints a stable object of worktrees and problems", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const { code, stdout } = bosun(repo, "worktrees", "--json");
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { worktrees: Record<string, unknown>[]; problems: unknown[] };
    expect(Object.keys(json)).toEqual(["worktrees", "problems"]);
    expect(json.problems).toEqual([]);
    expect(json.worktrees.map((entry) => [entry.task, entry.state])).toEqual([
      ["dirty", "dirty"],
      ["interrupted", "interrupted"],
      ["landed", "merged"],
      ["locked", "locked"],
      ["merged", "merged"],
      ["missing", "missing"],
      ["running", "running"],
      ["unmerged", "unmerged"],
    ]);
    expect(Object.keys(json.worktrees[0]!).sort()).toEqual(
      ["base", "branch", "branchHead", "checkedOut", "commits", "createdAt", "folderExists", "head", "lockReason", "path", "pid", "recordFile", "repoRoot", "session", "state", "task", "uncommittedFiles", "uniqueCommits"].sort(),
    );
    expect(json.worktrees.find((entry) => entry.task === "interrupted")).toMatchObject({ path: wts.interrupted.path, pid: wts.interrupted.pid, lockReason: `bosun: task running (pid ${wts.interrupted.pid})` });
  });
});

describe("bosun worktrees prune", () => {
  it("--dry-run says what it would remove and what it keeps, one line each, and changes nothing", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const before = snapshotTree(repo.t.root);
    const { code, stdout, stderr } = bosun(repo, "worktrees", "prune", "--dry-run");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(snapshotTree(repo.t.root)).toEqual(before);
    expect(stdout.trimEnd().split("\n")).toEqual([
      `would remove ${shown(repo, wts.landed.path)} and branch bosun/s/landed`,
      `would remove ${shown(repo, wts.merged.path)} and branch bosun/s/merged`,
      `would remove git's entry for ${shown(repo, wts.missing.path)} (its folder was gone) and branch bosun/s/missing`,
      `kept ${shown(repo, wts.dirty.path)}: dirty: 1 uncommitted file`,
      `kept ${shown(repo, wts.interrupted.path)}: interrupted: its task was interrupted (bosun process ${wts.interrupted.pid} is gone); look at it, then unlock it with: git worktree unlock ${wts.interrupted.path}`,
      `kept ${shown(repo, wts.locked.path)}: locked: locked by someone else ("on a USB disk")`,
      `kept ${shown(repo, wts.running.path)}: running: its task is running (bosun process ${process.pid})`,
      `kept ${shown(repo, wts.unmerged.path)}: unmerged: 1 commit no other branch has`,
    ]);
  });

  it("removes the merged ones and their branches, then lists only what it kept", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const { code, stdout } = bosun(repo, "worktrees", "prune");
    expect(code).toBe(0);
    expect(stdout).toContain(`removed ${shown(repo, wts.merged.path)} and branch bosun/s/merged\n`);
    expect(stdout.match(/^removed /gm)).toHaveLength(3);
    expect(stdout.match(/^kept /gm)).toHaveLength(5);
    expect(existsSync(wts.merged.path)).toBe(false);
    expect(repo.git(["branch", "--list", "bosun/s/merged", "bosun/s/landed", "bosun/s/missing"])).toBe("");
    const after = JSON.parse(bosun(repo, "worktrees", "--json").stdout) as { worktrees: { task: string }[] };
    expect(after.worktrees.map((entry) => entry.task)).toEqual(["dirty", "interrupted", "locked", "running", "unmerged"]);
    // A second prune has nothing left to remove.
    expect(bosun(repo, "worktrees", "prune").stdout).not.toMatch(/^removed /m);
  });

  it("--json prints what it removed and kept", async () => {
    const repo = makeRepo();
    const wts = await everyState(repo);
    const json = JSON.parse(bosun(repo, "worktrees", "prune", "--json").stdout) as Record<string, { path: string; state: string }[]>;
    expect(Object.keys(json)).toEqual(["dryRun", "removed", "kept", "problems"]);
    expect(json.removed!.map((removed) => removed.path)).toEqual([wts.landed.path, wts.merged.path, wts.missing.path]);
    expect(json.kept!.map((kept) => kept.state)).toEqual(["dirty", "interrupted", "locked", "running", "unmerged"]);
  });

  it("refuses a flag it does not know, with one line and its usage", () => {
    const repo = makeRepo();
    expect(bosun(repo, "worktrees", "prune", "--force")).toEqual({ code: 1, stdout: "", stderr: "bosun: unknown option '--force'\n(run bosun worktrees prune --help for usage)\n" });
    expect(bosun(repo, "worktrees", "prnue").stderr).toBe("bosun: unknown command 'prnue'\n(Did you mean prune?)\n(run bosun worktrees --help for usage)\n");
  });
});
