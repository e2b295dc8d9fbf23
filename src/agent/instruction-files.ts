import { realpathSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findProject } from "../kernel/project.js";
import { currentFileUser, untrustedBecause, type FileUser } from "../kernel/fs/file-trust.js";
import { isInside } from "../kernel/fs/path-inside.js";
import { describeNonRegular, readFileStart, UnusableFileError } from "../kernel/fs/regular-file.js";
import { lstatOrUndefined, realPathOrSelf, statOrUndefined } from "../kernel/fs/stat.js";
import { assembleInstructions, type InstructionLimits, type InstructionScope, type InstructionSource, type ProjectInstructions } from "./instructions.js";

/** The names looked for in each folder, in order: the first that can be read is the folder's file. */
const INSTRUCTION_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface InstructionSearch {
  /** The folder the agent works in. */
  workdir: string;
  /** bosun's config folder: its `AGENTS.md` is the user's own file, for every project. */
  configDir: string;
  /** The home folder: the project root is always below it (see `findProject`). */
  home: string;
  /** Who the files must belong to; default: the user bosun runs as. */
  user?: FileUser | null;
}

/** A file that was found but not used, and why (it is reported, never fatal). */
export interface SkippedInstructionFile {
  file: string;
  reason: string;
}

export interface FoundInstructions {
  /** The files to use, in prompt order: the user's, then the project's from the root down. */
  sources: InstructionSource[];
  skipped: SkippedInstructionFile[];
  /** The project root the files were read from; null when the working folder is no place for a project (home, a shared folder). */
  root: string | null;
}

/** The instructions of a run, with the files that were passed over. */
export interface LoadedInstructions extends ProjectInstructions {
  skipped: SkippedInstructionFile[];
}

/** Finds and reads the instruction files for `search`, and assembles the system prompt section. */
export function loadInstructions(search: InstructionSearch, limits: InstructionLimits): LoadedInstructions {
  const found = findInstructionFiles(search, limits.fileBytes);
  return { ...assembleInstructions(found.sources, limits), skipped: found.skipped };
}

/**
 * The instruction files for a working folder: `<config>/AGENTS.md`, then in every folder from
 * the project root (see `findProject`: the git root, else the bosun project's, else the working
 * folder; none in the home folder or a shared one) down to the working folder its `AGENTS.md`,
 * or its `CLAUDE.md` when it has no `AGENTS.md` it can use. Reading is careful: only regular
 * files that only the user could have written (a folder, named pipe or device of that name is
 * passed over, never opened for reading), a project file's symlink only when it leads to a file
 * inside the project, at most `maxBytes` of each, a file read twice (through a symlink) only once.
 */
export function findInstructionFiles(search: InstructionSearch, maxBytes: number): FoundInstructions {
  const workdir = realPathOrSelf(resolve(search.workdir));
  const user = search.user === undefined ? currentFileUser() : search.user;
  const { root } = findProject(workdir, search.home, user);
  const sources: InstructionSource[] = [];
  const skipped: SkippedInstructionFile[] = [];
  const seen = new Set<string>();

  const readFolder = (folder: string, within: string | null, names: readonly string[]) => {
    const scope: InstructionScope = within === null ? "user" : "project";
    for (const name of names) {
      const file = join(folder, name);
      const outcome = readInstructionFile(file, within, maxBytes, user);
      if (outcome.kind === "missing") continue;
      if (outcome.kind === "skipped") {
        skipped.push({ file, reason: outcome.reason });
        continue;
      }
      if (!seen.has(outcome.real)) sources.push({ file, scope, ...outcome.read });
      seen.add(outcome.real);
      return;
    }
  };

  readFolder(search.configDir, null, ["AGENTS.md"]);
  if (root !== null) for (const folder of foldersDown(root, workdir)) readFolder(folder, root, INSTRUCTION_FILE_NAMES);
  return { sources, skipped, root };
}

/** `root`, then each folder below it on the way to `workdir` (which is `root` or inside it). */
function foldersDown(root: string, workdir: string): string[] {
  const folders = [workdir];
  for (let dir = workdir; dir !== root && dirname(dir) !== dir; ) folders.unshift((dir = dirname(dir)));
  return folders;
}

type ReadOutcome = { kind: "missing" } | { kind: "skipped"; reason: string } | { kind: "read"; real: string; read: Omit<InstructionSource, "file" | "scope"> };

/**
 * Reads one candidate file. `within` (the project root) is where a symlink may lead; null for
 * the user's own file, whose symlinks are followed anywhere. The kind of file is checked before
 * opening (so a named pipe is never opened), and the open file again: its kind (in case it was
 * swapped) and who could have written it.
 */
function readInstructionFile(file: string, within: string | null, maxBytes: number, user: FileUser | null): ReadOutcome {
  const skip = (reason: string): ReadOutcome => ({ kind: "skipped", reason });
  let target: Stats | undefined;
  try {
    target = lstatOrUndefined(file);
  } catch (error) {
    return skip(`cannot be read (${errorCode(error)})`);
  }
  if (!target) return { kind: "missing" };
  let real = file;
  if (target.isSymbolicLink()) {
    try {
      real = realpathSync(file);
    } catch {
      return skip("is a symlink that leads nowhere");
    }
    if (within !== null && !isInside(real, within)) return skip(`is a symlink to ${real}, outside the project`);
    target = statOrUndefined(real);
    if (!target) return skip("is a symlink that leads nowhere");
  }
  if (!target.isFile()) return skip(describeNonRegular(target));

  let start: ReturnType<typeof readFileStart>;
  try {
    // `real` has no symlink in it: one there now was swapped in, and is refused.
    start = readFileStart(real, maxBytes, { followSymlinks: false });
  } catch (error) {
    return skip(error instanceof UnusableFileError ? error.problem : `cannot be read (${errorCode(error)})`);
  }
  const untrusted = untrustedBecause(start.info, user);
  if (untrusted) return skip(untrusted);
  const complete = start.data.length >= start.info.size;
  const text = decodeInstructionText(start.data, complete);
  if (text === null) return skip("looks binary (it has NUL bytes), not like text");
  return { kind: "read", real, read: { text, bytes: start.info.size, complete } };
}

/**
 * A file's bytes as text: UTF-8 (a BOM dropped), UTF-16 when it starts with a UTF-16 BOM, and
 * Latin-1 when it is not valid UTF-8 (an older editor's file: every byte is a character, so the
 * text is never lost). Null for binary data (NUL bytes without a UTF-16 BOM). `complete` false
 * means the bytes stop mid-file: a character cut at the end is dropped, not misread.
 */
export function decodeInstructionText(bytes: Buffer, complete = true): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2), { stream: !complete });
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2), { stream: !complete });
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return bytes.toString("latin1");
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
