import { chmod, constants, copyFile, lstat, mkdir, readlink, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { pipeGit, READ_ONLY_DIFF } from "./git.js";
import { hasStaged, hasUnstaged, isUntracked, type StatusEntry } from "./status.js";

/**
 * How a patch is written so that `git apply` reads it back whatever the user's diff settings:
 * binary files in full, standard prefixes, no colour, external diff or textconv, and renames as a
 * deletion and an addition.
 */
const PATCH_FLAGS = ["--binary", "--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", "--submodule=short"];

/** Uncommitted changes that cannot be carried: a merge in the middle of its conflicts. */
export class CarryConflictError extends UserError {
  override name = "CarryConflictError";
  constructor(
    readonly repoRoot: string,
    readonly paths: readonly string[],
  ) {
    super(`${repoRoot} has unresolved merge conflicts (${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", …" : ""}), which cannot be carried into a task worktree: resolve them first, or run the task without carrying changes`);
  }
}

/**
 * Copies the user's uncommitted changes from `repoRoot` into a new worktree checked out at `base`
 * (the commit the user's HEAD was at), reading the user's tree and changing nothing in it, its
 * index or its stash list:
 *
 * - staged changes: `git diff --cached <base>` applied with `git apply --index`, so they are
 *   staged in the worktree too;
 * - unstaged changes: `git diff` (index to work tree) applied on top with `git apply`;
 * - untracked files that are not ignored: copied (a symlink as a symlink, a file with its mode).
 *
 * Patches are binary-safe and carry deletions and mode changes; they stream from one git to the
 * other. Ignored files are not carried. `git apply` applies all of a patch or none of it.
 */
export async function carryChanges(repoRoot: string, base: string, worktree: string, status: readonly StatusEntry[]): Promise<void> {
  const conflicts = status.filter((entry) => entry.x === "U" || entry.y === "U" || (entry.x === entry.y && (entry.x === "A" || entry.x === "D")));
  if (conflicts.length > 0) throw new CarryConflictError(repoRoot, conflicts.map((entry) => entry.path));
  const apply = ["apply", "--whitespace=nowarn"];
  if (hasStaged(status)) {
    await pipeGit({ args: [...READ_ONLY_DIFF, "--cached", ...PATCH_FLAGS, base, "--"], cwd: repoRoot }, { args: [...apply, "--index"], cwd: worktree });
  }
  if (hasUnstaged(status)) {
    await pipeGit({ args: [...READ_ONLY_DIFF, ...PATCH_FLAGS, "--"], cwd: repoRoot }, { args: apply, cwd: worktree });
  }
  await copyUntracked(
    repoRoot,
    worktree,
    status.filter(isUntracked).map((entry) => entry.path),
  );
}

/** How many untracked files are copied at once. */
const COPY_PARALLEL = 32;

async function copyUntracked(from: string, to: string, paths: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      await copyOne(join(from, path), join(to, path));
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_PARALLEL, paths.length) }, worker));
}

/** One untracked file: never over something already in the worktree (COPYFILE_EXCL, symlink's EEXIST). */
async function copyOne(source: string, target: string): Promise<void> {
  const info = await lstat(source);
  await mkdir(dirname(target), { recursive: true });
  if (info.isSymbolicLink()) {
    await symlink(await readlink(source), target);
  } else if (info.isFile()) {
    await copyFile(source, target, constants.COPYFILE_EXCL);
    await chmod(target, info.mode & 0o7777);
  }
  // git lists only files and symlinks as untracked: anything else changed since, and is skipped.
}
