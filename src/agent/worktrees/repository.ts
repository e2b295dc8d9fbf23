import { realPathOrSelf } from "../../kernel/fs/stat.js";
import { firstLine, runGit } from "./git.js";
import { NoCommitsError, NotARepositoryError } from "./errors.js";

/** The repository a task runs in: its top folder (real path) and the commit checked out there. */
export interface Repository {
  repoRoot: string;
  head: string;
}

/**
 * The repository around `cwd`, with one git process: `rev-parse --show-toplevel` names the top,
 * `--verify HEAD^{commit}` the commit (absent in a repository with no commits yet).
 */
export async function findRepository(cwd: string): Promise<Repository> {
  const result = await runGit(["rev-parse", "--show-toplevel", "--verify", "-q", "HEAD^{commit}"], { cwd, okCodes: [1, 128] });
  const [top, head] = result.stdout.split("\n");
  if (result.code === 128 || !top) throw new NotARepositoryError(cwd, firstLine(result.stderr));
  if (result.code !== 0 || !head) throw new NoCommitsError(realPathOrSelf(top));
  return { repoRoot: realPathOrSelf(top), head };
}
