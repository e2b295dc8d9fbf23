import { readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../kernel/errors.js";
import { lstatOrUndefined } from "../../kernel/fs/stat.js";
import { isTaskName, REPO_RECORD } from "./layout.js";
import { readRecord, readRepoRecord, type TaskWorktreeRecord } from "./record.js";

/** A task worktree as bosun's folders show it: its folder, its record beside it, or both. */
export interface FoundWorktree {
  /** `<root>/<repo-key>/<session>/<task>`. */
  path: string;
  repoKey: string;
  session: string;
  task: string;
  /** Whether the folder is there. */
  folder: boolean;
  /** The record file, when there is one. */
  recordFile?: string;
  record?: TaskWorktreeRecord;
}

/** Something in bosun's worktrees folder that is not what bosun puts there; shown, never changed. */
export interface WorktreeProblem {
  path: string;
  problem: string;
}

/** A repository folder and the repository its record names. */
export interface FoundRepo {
  repoKey: string;
  repoRoot: string;
}

/** write-file-atomic's temp file beside a record being written (`<task>.json.<number>`). */
const TEMP_RECORD = /\.json\.\d+$/;

/**
 * Walks `<root>/<repo-key>/<session>/<task>` (root is `<dataDir>/worktrees`) and pairs each task
 * folder with its record; each repository folder's `repo.json` names its repository. Reads only; anything unexpected (a file where a folder belongs, a
 * symlink, a name bosun would not make, a broken record) is a problem, not an error.
 */
export function walkWorktreesFolder(root: string): { found: FoundWorktree[]; repos: FoundRepo[]; problems: WorktreeProblem[] } {
  const found = new Map<string, FoundWorktree>();
  const repos: FoundRepo[] = [];
  const problems: WorktreeProblem[] = [];
  const folders = (dir: string): string[] => {
    try {
      return readdirSync(dir).sort();
    } catch (error) {
      problems.push({ path: dir, problem: `cannot be listed: ${describeError(error)}` });
      return [];
    }
  };
  const isFolder = (path: string, info: Stats | undefined, what: string): boolean => {
    if (info?.isDirectory()) return true;
    problems.push({ path, problem: `${info?.isSymbolicLink() ? "a symlink" : "a file"} where bosun keeps ${what} folders; left alone` });
    return false;
  };
  const info = lstatOrUndefined(root);
  if (!info) return { found: [], repos, problems };
  if (!isFolder(root, info, "its worktree")) return { found: [], repos, problems };
  for (const key of folders(root)) {
    const keyDir = join(root, key);
    if (!isFolder(keyDir, lstatOrUndefined(keyDir), "repository")) continue;
    for (const session of folders(keyDir)) {
      const sessionDir = join(keyDir, session);
      if (session === REPO_RECORD || TEMP_RECORD.test(session)) {
        if (session !== REPO_RECORD) continue;
        const { record, problem } = readRepoRecord(sessionDir);
        if (problem) problems.push({ path: sessionDir, problem: `${problem}; left alone` });
        else if (record) repos.push({ repoKey: key, repoRoot: record.repoRoot });
        continue;
      }
      if (!isFolder(sessionDir, lstatOrUndefined(sessionDir), "session")) continue;
      if (!isTaskName(session)) {
        problems.push({ path: sessionDir, problem: "not a session folder bosun made (its name is not a session name); left alone" });
        continue;
      }
      for (const name of folders(sessionDir)) {
        if (TEMP_RECORD.test(name)) continue;
        const path = join(sessionDir, name);
        const entry = lstatOrUndefined(path);
        const task = name.endsWith(".json") && entry?.isFile() ? name.slice(0, -".json".length) : name;
        if (!isTaskName(task) || (task === name && !entry?.isDirectory())) {
          problems.push({ path, problem: "not a task worktree or record bosun made; left alone" });
          continue;
        }
        const worktree = join(sessionDir, task);
        const item = found.get(worktree) ?? { path: worktree, repoKey: key, session, task, folder: false };
        found.set(worktree, item);
        if (task === name) item.folder = true;
        else {
          const { record, problem } = readRecord(path);
          if (problem) problems.push({ path, problem: `${problem}; left alone` });
          else if (record && (record.session !== session || record.task !== task)) problems.push({ path, problem: "the record names another session or task than its place; left alone" });
          else if (record) Object.assign(item, { recordFile: path, record });
        }
      }
    }
  }
  return { found: [...found.values()], repos, problems };
}
