import { constants, type Stats } from "node:fs";
import { lstat, open, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isMissingPathError } from "../fs/stat.js";
import { assembleInstructions, type InstructionLimits, type InstructionScope, type InstructionSource, type ProjectInstructions } from "./instructions.js";

/** The names looked for in each folder, in order: the first that can be read is the folder's file. */
const INSTRUCTION_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface InstructionSearch {
  /** The folder the agent works in. */
  workdir: string;
  /** bosun's config folder: its `AGENTS.md` is the user's own file, for every project. */
  configDir: string;
  /** The bosun project root (`bosun.json` or `.bosun/`), when the working folder is in one. */
  bosunProjectRoot: string | null;
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
  /** The project root the walk started at. */
  root: string;
}

/** The instructions of a run, with the files that were passed over. */
export interface LoadedInstructions extends ProjectInstructions {
  skipped: SkippedInstructionFile[];
}

/** Finds and reads the instruction files for `search`, and assembles the system prompt section. */
export async function loadInstructions(search: InstructionSearch, limits: InstructionLimits): Promise<LoadedInstructions> {
  const found = await findInstructionFiles(search, limits.fileBytes);
  return { ...assembleInstructions(found.sources, limits), skipped: found.skipped };
}

/**
 * The instruction files for a working folder: `<config>/AGENTS.md`, then in every folder from
 * the project root down to the working folder its `AGENTS.md`, or its `CLAUDE.md` when it has no
 * `AGENTS.md` it can use. Reading is careful: only regular files (a folder, named pipe or device
 * of that name is passed over, never opened for reading), a project file's symlink only when it
 * leads to a file inside the project, at most `maxBytes` of each, a file read twice (through a
 * symlink) only once.
 */
export async function findInstructionFiles(search: InstructionSearch, maxBytes: number): Promise<FoundInstructions> {
  const workdir = await realOrResolved(search.workdir);
  const root = await projectRoot(workdir, search.bosunProjectRoot);
  const sources: InstructionSource[] = [];
  const skipped: SkippedInstructionFile[] = [];
  const seen = new Set<string>();

  const readFolder = async (folder: string, scope: InstructionScope, names: readonly string[]) => {
    for (const name of names) {
      const file = join(folder, name);
      const outcome = await readInstructionFile(file, scope === "project" ? root : null, maxBytes);
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

  await readFolder(search.configDir, "user", ["AGENTS.md"]);
  for (const folder of foldersDown(root, workdir)) await readFolder(folder, "project", INSTRUCTION_FILE_NAMES);
  return { sources, skipped, root };
}

/**
 * Where the walk starts: the root of the git repository holding the working folder (the nearest
 * folder above it with a `.git`, not looking past a file-system boundary, as git does), else the
 * bosun project root when the working folder is inside it, else the working folder alone. A
 * folder without either never picks up instructions from the folders above it (such as `/tmp`).
 */
export async function projectRoot(workdir: string, bosunProjectRoot: string | null): Promise<string> {
  let dir = workdir;
  let device = (await statOrNull(dir))?.dev;
  for (;;) {
    if (await hasEntry(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    const parentDevice = (await statOrNull(parent))?.dev;
    if (parentDevice === undefined || parentDevice !== device) break;
    device = parentDevice;
    dir = parent;
  }
  if (bosunProjectRoot) {
    const bosunRoot = await realOrResolved(bosunProjectRoot);
    if (isInside(workdir, bosunRoot)) return bosunRoot;
  }
  return workdir;
}

/** `root`, then each folder below it on the way to `workdir` (which is `root` or inside it). */
function foldersDown(root: string, workdir: string): string[] {
  const folders = [root];
  const rest = relative(root, workdir);
  if (rest === "" || rest.startsWith("..")) return folders;
  let dir = root;
  for (const part of rest.split(sep)) folders.push((dir = join(dir, part)));
  return folders;
}

type ReadOutcome = { kind: "missing" } | { kind: "skipped"; reason: string } | { kind: "read"; real: string; read: Omit<InstructionSource, "file" | "scope"> };

/**
 * Reads one candidate file. `within` (the project root) is where a symlink may lead; null for
 * the user's own file, whose symlinks are followed anywhere. The kind of file is checked before
 * opening (so a named pipe is never opened) and again on the open handle (in case it was swapped).
 */
async function readInstructionFile(file: string, within: string | null, maxBytes: number): Promise<ReadOutcome> {
  let link: Stats | null;
  try {
    link = await lstatOrNull(file);
  } catch (error) {
    return { kind: "skipped", reason: `cannot be read (${errorCode(error)})` };
  }
  if (!link) return { kind: "missing" };
  let real = file;
  if (link.isSymbolicLink()) {
    try {
      real = await realpath(file);
    } catch {
      return { kind: "skipped", reason: "is a symlink that leads nowhere" };
    }
    if (within !== null && !isInside(real, within)) return { kind: "skipped", reason: `is a symlink to ${real}, outside the project` };
  }
  const target = link.isSymbolicLink() ? await statOrNull(real) : link;
  if (!target) return { kind: "skipped", reason: "is a symlink that leads nowhere" };
  if (!target.isFile()) return { kind: "skipped", reason: `is ${kindOf(target)}, not a regular file` };

  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    return { kind: "skipped", reason: `cannot be read (${errorCode(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: "skipped", reason: `is ${kindOf(info)}, not a regular file` };
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const complete = length >= info.size;
    const text = decodeInstructionText(buffer.subarray(0, length), complete);
    if (text === null) return { kind: "skipped", reason: "looks binary (it has NUL bytes), not like text" };
    return { kind: "read", real, read: { text, bytes: info.size, complete } };
  } catch (error) {
    return { kind: "skipped", reason: `cannot be read (${errorCode(error)})` };
  } finally {
    await handle.close();
  }
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

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a named pipe";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "a special file";
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

async function realOrResolved(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissingPathError(error)) return null;
    throw error;
  }
}

/** Whether anything (a folder, a file, a symlink) is at `path`; false when it cannot be looked at. */
async function hasEntry(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
