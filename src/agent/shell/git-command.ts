import { basename, isAbsolute, join } from "node:path";
import { hasOption, lastOptionValue, optionValues, parseOptions } from "./command-options.js";
import { derivedWord, type Word } from "./shell-words.js";

/**
 * What a `git` command does that the checker cares about: whether it destroys work or history
 * (force-push, `reset --hard`, `clean -f`, …), and which folders and files it writes: the
 * repository it works in (`-C dir`, `--git-dir`, `--work-tree`, or the current folder) unless the
 * subcommand only reads, a clone's or worktree's new folder, `--output` files, a global config.
 */

/** A git command split into its global options and its subcommand. */
interface GitCommand {
  /** The folder git works in, from its `-C` options ("." when none), as a word. */
  dir: Word;
  /** `--git-dir` and `--work-tree` values. */
  repositories: Word[];
  sub: string | undefined;
  rest: Word[];
}

/** Subcommands that only read the repository. */
const READ_ONLY = new Set([
  "log",
  "show",
  "diff",
  "status",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "cat-file",
  "blame",
  "annotate",
  "grep",
  "describe",
  "shortlog",
  "rev-list",
  "help",
  "version",
  "whatchanged",
  "show-ref",
  "for-each-ref",
  "name-rev",
  "var",
  "check-ignore",
  "check-attr",
  "count-objects",
  "cherry",
  "range-diff",
  "diff-tree",
  "diff-files",
  "diff-index",
  "merge-base",
]);

function parseGit(args: readonly Word[]): GitCommand {
  let dir: Word | null = null;
  const repositories: Word[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.value.startsWith("-"); i++) {
    const value = args[i]!.value;
    if (value === "-C" && args[i + 1]) {
      const next = args[++i]!;
      dir = dir && !isAbsolute(next.value) ? derivedWord(join(dir.value, next.value), { start: dir.start, expands: dir.expands || next.expands }) : next;
    } else if (value === "-c" || value === "--config-env" || value === "--namespace" || value === "--exec-path") i++;
    else if ((value === "--git-dir" || value === "--work-tree") && args[i + 1]) repositories.push(args[++i]!);
    else if (value.startsWith("--git-dir=") || value.startsWith("--work-tree=")) repositories.push(derivedWord(value.slice(value.indexOf("=") + 1), args[i]!));
  }
  const sub = args[i];
  return { dir: dir ?? derivedWord(".", sub ?? args[0] ?? { start: 0, expands: false }), repositories, sub: sub?.value, rest: args.slice(i + 1) };
}

/** Why a git command is dangerous (it throws away work or history), or null. */
export function gitDanger(args: readonly Word[]): string | null {
  const { sub, rest: words } = parseGit(args);
  const rest = words.map((word) => word.value);
  if (sub === "push") {
    if (rest.some((arg) => arg === "-f" || arg.startsWith("--force") || arg === "--mirror" || /^-[a-zA-Z]*f/.test(arg) || /^\+/.test(arg))) {
      return "force-pushes with git (git push --force rewrites the remote history)";
    }
    if (rest.some((arg) => arg === "--delete" || arg === "-d" || /^:[^:]/.test(arg))) return "deletes a remote branch with git push";
  }
  if (sub === "reset" && rest.includes("--hard")) return "discards uncommitted changes (git reset --hard)";
  if (sub === "clean" && rest.some((arg) => arg === "--force" || /^-[a-zA-Z]*f/.test(arg))) return "deletes untracked files (git clean -f)";
  if (sub === "branch" && rest.some((arg) => arg === "-D" || (arg.startsWith("-") && !arg.startsWith("--") && arg.includes("D")))) return "force-deletes a git branch (git branch -D)";
  if (sub === "checkout" && rest.some((arg) => arg === "-f" || arg === "--force")) return "discards local changes (git checkout --force)";
  if (sub === "filter-branch" || sub === "filter-repo") return `rewrites git history (git ${sub})`;
  return null;
}

/** The folders and files a git command writes (relative to the folder it is started in). */
export function gitWrites(args: readonly Word[]): Word[] {
  const git = parseGit(args);
  const { dir, sub, rest } = git;
  if (sub === undefined) return [];
  const inDir = (word: Word): Word => (dir.value === "." || isAbsolute(word.value) ? word : derivedWord(join(dir.value, word.value), { start: word.start, expands: word.expands || dir.expands }));
  const outputs = rest.flatMap((word, i) => {
    if (word.value.startsWith("--output=") || word.value.startsWith("--output-directory=")) return [derivedWord(word.value.slice(word.value.indexOf("=") + 1), word)];
    if ((word.value === "--output" || word.value === "--output-directory" || (word.value === "-o" && (sub === "archive" || sub === "format-patch"))) && rest[i + 1]) return [rest[i + 1]!];
    return [];
  });
  const written = [...outputs.map(inDir), ...git.repositories];
  if (sub === "clone") {
    const parsed = parseOptions(rest, { short: "bocuj", long: ["--branch", "--origin", "--depth", "--config", "--reference", "--separate-git-dir", "--upload-pack", "--template", "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "--server-option"] });
    const [url, target] = parsed.operands;
    const name = url ? basename(url.value.replace(/\/+$/, "")).replace(/\.git$/, "") : "";
    return [...written, ...(target ? [inDir(target)] : url && name ? [inDir(derivedWord(name, url))] : []), ...optionValues(parsed, "--separate-git-dir")];
  }
  if (sub === "init") {
    const parsed = parseOptions(rest, { long: ["--template", "--separate-git-dir", "--object-format", "--initial-branch", "--shared"], short: "b" });
    return [...written, parsed.operands[0] ? inDir(parsed.operands[0]) : dir];
  }
  if (sub === "config") {
    const parsed = parseOptions(rest, { short: "f", long: ["--file", "--blob", "--type", "--default"] });
    const changes = hasOption(parsed, "--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e");
    const reads = hasOption(parsed, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l") || parsed.operands.length < 2;
    if (reads && !changes) return written;
    if (hasOption(parsed, "--global")) return [...written, derivedWord("~/.gitconfig", args[0]!)];
    if (hasOption(parsed, "--system")) return [...written, derivedWord("/etc/gitconfig", args[0]!)];
    const file = lastOptionValue(parsed, "-f", "--file");
    return [...written, file ? inDir(file) : dir];
  }
  if (sub === "worktree" && rest[0]?.value === "add") {
    const parsed = parseOptions(rest.slice(1), { short: "bB", long: ["--reason"] });
    return [...written, ...(parsed.operands[0] ? [inDir(parsed.operands[0])] : []), dir];
  }
  if (READ_ONLY.has(sub) || listsOnly(sub, rest)) return written;
  return [...written, dir];
}

/** `git branch`, `git tag`, `git remote`, `git stash list`, `git worktree list` with nothing to change. */
function listsOnly(sub: string, rest: readonly Word[]): boolean {
  const values = rest.map((word) => word.value);
  const operands = values.filter((value) => !value.startsWith("-"));
  if (sub === "branch" || sub === "tag") {
    return operands.length === 0 || values.some((value) => ["-l", "--list", "--contains", "--merged", "--no-merged", "--points-at", "--show-current"].includes(value));
  }
  if (sub === "remote") return operands.length === 0 || ["show", "get-url"].includes(operands[0]!);
  if (sub === "stash" || sub === "worktree" || sub === "notes") return operands[0] === "list" || operands[0] === "show";
  return false;
}
