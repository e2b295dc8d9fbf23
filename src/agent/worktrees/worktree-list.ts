import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describeError } from "../../kernel/errors.js";
import { isInside } from "../../kernel/fs/path-inside.js";
import { lstatOrUndefined, realPathOrSelf } from "../../kernel/fs/stat.js";
import { bosunBranches } from "./branch.js";
import { isTaskName, recordPath, repoKey, taskBranch, worktreesRoot } from "./layout.js";
import { listGitWorktrees, type GitWorktree } from "./porcelain.js";
import { readRecord } from "./record.js";
import { walkWorktreesFolder, type FoundWorktree, type WorktreeProblem } from "./walk.js";
import { inspectWorktree, type TaskWorktreeEntry } from "./worktree-state.js";

export type { WorktreeProblem } from "./walk.js";

export interface WorktreeListing {
  /** Sorted by repository, session and task. */
  worktrees: TaskWorktreeEntry[];
  problems: WorktreeProblem[];
}

/** One repository's worktrees and bosun branches, read once for all its task worktrees. */
interface RepoView {
  worktrees: GitWorktree[];
  branches: Map<string, string>;
}

/**
 * Every task worktree bosun made under `<dataDir>/worktrees/`, with its state. Found by walking
 * the folders and records, then checked against `git worktree list --porcelain` of each
 * repository: a worktree git lists in bosun's folder whose folder is gone is listed as `missing`
 * even without a record. Anything that is not a task worktree git knows of (a stray folder, a
 * broken record, a record whose worktree git forgot, a repository that is gone) is a problem
 * line. Reads only.
 */
export async function listTaskWorktrees(options: { dataDir: string }): Promise<WorktreeListing> {
  const root = realPathOrSelf(worktreesRoot(options.dataDir));
  const { found, repos, problems } = walkWorktreesFolder(root);
  const byRepo = new Map<string, FoundWorktree[]>();
  // Each repository bosun made worktrees for is asked, so git's list shows those whose folder and record are gone.
  for (const repo of repos) if (repoKey(repo.repoRoot) === repo.repoKey) byRepo.set(repo.repoRoot, []);
  const views = new Map<string, Promise<RepoView>>();
  const viewOf = (repoRoot: string, cwd = repoRoot) => {
    let view = views.get(repoRoot);
    if (!view) {
      view = Promise.all([listGitWorktrees(cwd), bosunBranches(cwd)]).then(([worktrees, branches]) => ({ worktrees, branches }));
      // Each caller handles a failure; this only keeps an unread rejection from being reported.
      view.catch(() => {});
      views.set(repoRoot, view);
    }
    return view;
  };
  await Promise.all(
    found.map(async (item) => {
      const repoRoot = item.record?.repoRoot ?? (item.folder ? await repoOfFolder(item.path) : undefined);
      if (repoRoot === undefined) {
        // A folder with no record that is no worktree, or a broken record without a folder.
        if (item.folder) problems.push({ path: item.path, problem: "not a git worktree (no .git file); left alone" });
        return;
      }
      if (typeof repoRoot !== "string") return problems.push({ path: item.path, problem: `${repoRoot.problem}; left alone` });
      if (repoKey(repoRoot) !== item.repoKey) return problems.push({ path: item.path, problem: `belongs to ${repoRoot}, whose worktrees are kept in another folder; left alone` });
      byRepo.set(repoRoot, [...(byRepo.get(repoRoot) ?? []), item]);
    }),
  );

  const worktrees: TaskWorktreeEntry[] = [];
  await Promise.all(
    [...byRepo].map(async ([repoRoot, items]) => {
      let view: RepoView;
      try {
        view = await viewOf(repoRoot);
      } catch (error) {
        // A repository that is gone with no worktree of bosun's left in it is no problem.
        for (const item of items) problems.push({ path: item.path, problem: `its repository ${repoRoot} cannot be read (${describeError(error)}); left alone` });
        return;
      }
      const listed = new Map(view.worktrees.map((git) => [realPathOrSelf(git.path), git]));
      const claimed = new Set<GitWorktree>();
      await Promise.all(
        items.map(async (item) => {
          const git = listed.get(item.path);
          if (!git) {
            const problem = item.folder
              ? `a folder git does not list as a worktree of ${repoRoot}; left alone`
              : `git no longer lists this worktree and its folder is gone; delete the record if you no longer need it (branch ${taskBranch(item.session, item.task)} is kept)`;
            return problems.push({ path: item.recordFile && !item.folder ? item.recordFile : item.path, problem });
          }
          claimed.add(git);
          await inspect(item, repoRoot, git, view, worktrees, problems);
        }),
      );
      // Worktrees git lists in bosun's folder that the walk did not find: their folder and record are gone.
      for (const git of view.worktrees) {
        if (claimed.has(git) || !isInside(git.path, root) || git.path === root) continue;
        const parts = relative(root, git.path).split(sep);
        if (parts.length !== 3 || !isTaskName(parts[1]!) || !isTaskName(parts[2]!) || lstatOrUndefined(git.path)) {
          problems.push({ path: git.path, problem: `git lists a worktree of ${repoRoot} here that bosun did not make; left alone` });
          continue;
        }
        const item: FoundWorktree = { path: git.path, repoKey: parts[0]!, session: parts[1]!, task: parts[2]!, folder: false };
        await inspect(item, repoRoot, git, view, worktrees, problems);
      }
    }),
  );
  worktrees.sort((a, b) => a.path.localeCompare(b.path));
  problems.sort((a, b) => a.path.localeCompare(b.path));
  return { worktrees, problems };
}

/**
 * The same task worktree, looked at again from scratch (its repository's worktrees and branches,
 * its record and its contents): what a prune checks right before it removes anything. A problem
 * (one line) when git no longer lists it.
 */
export async function reinspectWorktree(entry: TaskWorktreeEntry): Promise<TaskWorktreeEntry | { problem: string }> {
  try {
    const [worktrees, branches] = await Promise.all([listGitWorktrees(entry.repoRoot), bosunBranches(entry.repoRoot)]);
    const git = worktrees.find((candidate) => realPathOrSelf(candidate.path) === entry.path);
    if (!git) return { problem: "git no longer lists it" };
    const { record } = readRecord(recordPath(entry.path));
    return await inspectWorktree({
      path: entry.path,
      repoRoot: entry.repoRoot,
      branch: entry.branch,
      session: entry.session,
      task: entry.task,
      base: record?.base ?? null,
      createdAt: record?.createdAt ?? null,
      recordFile: record ? recordPath(entry.path) : null,
      git,
      branchHead: branches.get(entry.branch) ?? null,
    });
  } catch (error) {
    return { problem: describeError(error) };
  }
}

async function inspect(item: FoundWorktree, repoRoot: string, git: GitWorktree, view: RepoView, into: TaskWorktreeEntry[], problems: WorktreeProblem[]): Promise<void> {
  const branch = item.record?.branch ?? taskBranch(item.session, item.task);
  try {
    into.push(
      await inspectWorktree({
        path: item.path,
        repoRoot,
        branch,
        session: item.session,
        task: item.task,
        base: item.record?.base ?? null,
        createdAt: item.record?.createdAt ?? null,
        recordFile: item.recordFile ?? null,
        git,
        branchHead: view.branches.get(branch) ?? null,
      }),
    );
  } catch (error) {
    problems.push({ path: item.path, problem: `cannot be inspected (${describeError(error)}); left alone` });
  }
}

/**
 * The repository a worktree folder belongs to, from its `.git` file (`gitdir: <repo>/.git/worktrees/<name>`):
 * the main worktree that `git worktree list` names first. A folder without a `.git` file is no
 * worktree (undefined); one git cannot read is a problem.
 */
async function repoOfFolder(path: string): Promise<string | { problem: string } | undefined> {
  const dotGit = join(path, ".git");
  if (!lstatOrUndefined(dotGit)?.isFile()) return undefined;
  try {
    if (!/^gitdir: /.test(readFileSync(dotGit, "utf8"))) return { problem: "its .git file is not a worktree's" };
    const main = (await listGitWorktrees(path))[0];
    return main ? realPathOrSelf(main.path) : { problem: "git lists no repository for it" };
  } catch (error) {
    return { problem: `not a worktree git can read (${describeError(error)})` };
  }
}
