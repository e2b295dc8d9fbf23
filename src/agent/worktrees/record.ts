import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomically } from "../../kernel/fs/atomic-write.js";
import { describeError } from "../../kernel/errors.js";
import { isMissingPathError, lstatOrUndefined } from "../../kernel/fs/stat.js";
import { recordPath, REPO_RECORD } from "./layout.js";

/**
 * What bosun keeps of a task worktree that git does not: the commit it started from, and the
 * repository, which a listing needs when the worktree's folder is gone. Everything else (lock,
 * head, changes) is read from git each time.
 */
export interface TaskWorktreeRecord {
  version: 1;
  repoRoot: string;
  branch: string;
  base: string;
  session: string;
  task: string;
  createdAt: string;
}

/**
 * Which repository a repository folder (`<repo-key>/`) is for, so that a listing can ask git
 * about it even when every task's folder and record in it are gone.
 */
export interface RepoRecord {
  version: 1;
  repoRoot: string;
}

const MAX_RECORD_BYTES = 64 * 1024;

/** Writes the record of a repository folder, unless it is there already. */
export async function ensureRepoRecord(keyDir: string, repoRoot: string): Promise<void> {
  const file = join(keyDir, REPO_RECORD);
  if (lstatOrUndefined(file)) return;
  await writeFileAtomically(file, JSON.stringify({ version: 1, repoRoot } satisfies RepoRecord, null, 2) + "\n", { mode: 0o600 });
}

/** A repository folder's record, or a problem (one line) when it is not one bosun wrote. */
export function readRepoRecord(file: string): { record?: RepoRecord; problem?: string } {
  const { value, problem } = readJson(file);
  if (problem || value === undefined) return problem ? { problem } : {};
  const record = value as Partial<RepoRecord> | null;
  if (!record || typeof record !== "object" || record.version !== 1 || typeof record.repoRoot !== "string") return { problem: "the record is not one bosun wrote (unknown version or missing fields)" };
  return { record: record as RepoRecord };
}

/** Writes a worktree's record beside its folder, atomically and private to the user. */
export async function writeRecord(worktreePath: string, record: TaskWorktreeRecord): Promise<void> {
  await writeFileAtomically(recordPath(worktreePath), JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
}

/**
 * A worktree's record: `undefined` when there is none, or a problem (one line) when the file is
 * not a record bosun wrote.
 */
export function readRecord(file: string): { record?: TaskWorktreeRecord; problem?: string } {
  const { value, problem } = readJson(file);
  if (problem || value === undefined) return problem ? { problem } : {};
  const record = value as Partial<TaskWorktreeRecord> | null;
  const strings = ["repoRoot", "branch", "base", "session", "task", "createdAt"] as const;
  if (!record || typeof record !== "object" || record.version !== 1 || strings.some((key) => typeof record[key] !== "string")) {
    return { problem: "the record is not one bosun wrote (unknown version or missing fields)" };
  }
  if (!/^[0-9a-f]{40,64}$/.test(record.base!)) return { problem: "the record's base is not a commit id" };
  return { record: record as TaskWorktreeRecord };
}

function readJson(file: string): { value?: unknown; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isMissingPathError(error)) return {};
    return { problem: `cannot read the record: ${describeError(error)}` };
  }
  if (text.length > MAX_RECORD_BYTES) return { problem: "the record is too large to be bosun's" };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: "the record is not valid JSON" };
  }
}
