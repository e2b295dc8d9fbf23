import { join, resolve, sep } from "node:path";
import { UserError } from "../../kernel/errors.js";
import { errorCode, type InstallFs } from "../apply/install-fs.js";

/** An action path bosun refuses: it could reach outside the runtime's folder. */
export class UnsafePathError extends UserError {
  override name = "UnsafePathError";
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly source: string,
  ) {
    super(`${source}: unsafe path ${JSON.stringify(path.length > 120 ? path.slice(0, 117) + "..." : path)}: ${problem}`);
  }
}

const MAX_PATH_CHARS = 1024;
const MAX_SEGMENT_BYTES = 255;
/**
 * The common case, accepted as is in one test: ASCII names that do not start with a dot or a
 * space, of at most 255 characters, separated by single slashes. Every such path passes the
 * full checks below unchanged; anything else is checked (and normalized) by them.
 */
const PLAIN_REL_PATH = /^[\w@+,=~-][\w .@+,=~-]{0,254}(?:\/[\w@+,=~-][\w .@+,=~-]{0,254})*$/;

/**
 * An action path as the engine uses it: relative POSIX. Backslashes (Windows separators) become
 * `/`; absolute paths (POSIX, drive letters, UNC), empty, `.` and `..` segments, control
 * characters and overlong names are refused. Nothing is collapsed or decoded: `a/../b` is an
 * error, `%2e%2e` is a plain folder name. `limits` false skips the length limits, for the paths
 * bosun makes from an action path (its backup copy, its temp file), which are longer.
 */
export function normalizeRelPath(input: unknown, source: string, limits = true): string {
  if (typeof input === "string" && input.length <= MAX_PATH_CHARS && PLAIN_REL_PATH.test(input)) return input;
  if (typeof input !== "string") throw new UnsafePathError(String(input), "not a string", source);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(input)) throw new UnsafePathError(input, "holds a control character", source);
  if (input.trim() === "") throw new UnsafePathError(input, "is empty", source);
  if (limits && input.length > MAX_PATH_CHARS) throw new UnsafePathError(input, `is longer than ${MAX_PATH_CHARS} characters`, source);
  const path = input.replaceAll("\\", "/");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) throw new UnsafePathError(input, "must be relative", source);
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw new UnsafePathError(input, "relPath must stay inside the root (no empty, . or .. parts)", source);
    if (limits && Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw new UnsafePathError(input, `has a name longer than ${MAX_SEGMENT_BYTES} bytes`, source);
  }
  return path;
}

/** Joins a checked relative path to its root, and checks the result is lexically inside. */
export function joinInside(root: string, rel: string): string {
  // A plain relative path under a resolved root needs no resolving: the result is the same.
  if (sep === "/" && PLAIN_REL_PATH.test(rel) && isResolved(root)) return root === "/" ? `/${rel}` : `${root}/${rel}`;
  const path = resolve(root, rel);
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) throw new UnsafePathError(rel, "resolves outside the root", root);
  return path;
}

const resolvedRoots = new Set<string>();

function isResolved(root: string): boolean {
  if (resolvedRoots.has(root)) return true;
  if (resolve(root) !== root) return false;
  if (resolvedRoots.size > 1000) resolvedRoots.clear();
  resolvedRoots.add(root);
  return true;
}

/** `absent`: a folder on the way does not exist, so neither does the path (nothing need look). */
export type GuardResult = { ok: true; path: string; absent: boolean } | { ok: false; path: string; problem: string };

/**
 * Checks that a path stays inside its root on disk: every folder on the way that exists must be
 * a real folder, or a symlink whose target (realpath) is a folder inside the root. Folders are
 * checked from the root down, so nothing below a symlink that leaves the root is ever looked at.
 * The last part of the path is never followed.
 */
export class RootGuard {
  private realRoot: string | null | undefined;
  private readonly prefixes = new Map<string, string | null>();
  private readonly chains = new Map<string, string | null>();

  constructor(
    readonly root: string,
    private readonly fs: InstallFs,
  ) {}

  check(rel: string): GuardResult {
    const path = joinInside(this.root, rel);
    const slash = rel.lastIndexOf("/");
    const problem = slash === -1 ? null : this.checkChain(rel.slice(0, slash));
    if (problem === "absent") return { ok: true, path, absent: true };
    if (problem) return { ok: false, path, problem };
    return { ok: true, path, absent: false };
  }

  /** The first problem on the way down to a folder (each of its folders from the top), remembered per folder. */
  private checkChain(dir: string): string | null {
    const known = this.chains.get(dir);
    if (known !== undefined) return known;
    const segments = dir.split("/");
    let prefix = "";
    let result: string | null = null;
    for (let i = 0; i < segments.length && result === null; i++) {
      prefix = i === 0 ? (segments[0] as string) : `${prefix}/${segments[i]}`;
      result = this.checkFolder(prefix);
    }
    this.chains.set(dir, result);
    return result;
  }

  /** Forget what was learned (after the disk changed). */
  reset(): void {
    this.chains.clear();
    this.prefixes.clear();
    this.realRoot = undefined;
  }

  /** null: a folder inside the root; "absent": does not exist (nor anything under it); else the problem. */
  private checkFolder(prefix: string): string | null {
    const known = this.prefixes.get(prefix);
    if (known !== undefined) return known;
    const result = this.inspectFolder(prefix);
    this.prefixes.set(prefix, result);
    return result;
  }

  private inspectFolder(prefix: string): string | null {
    const path = join(this.root, prefix);
    let info;
    try {
      info = this.fs.lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      if (errorCode(error) === "ENOTDIR") return `${prefix} is not a folder`;
      throw error;
    }
    if (!info) return "absent";
    if (info.isDirectory()) return null;
    if (!info.isSymbolicLink()) return `${prefix} is a file, not a folder`;
    const realRoot = this.resolveRealRoot();
    let target: string;
    try {
      target = this.fs.realpathSync(path);
    } catch {
      return `${prefix} is a broken symlink`;
    }
    if (realRoot === null || !target.startsWith(realRoot + sep)) return `${prefix} is a symlink to a folder outside the root (${target})`;
    if (!this.fs.statSync(target).isDirectory()) return `${prefix} is a symlink to a file, not a folder`;
    return null;
  }

  private resolveRealRoot(): string | null {
    if (this.realRoot === undefined) {
      try {
        this.realRoot = this.fs.realpathSync(this.root);
      } catch {
        this.realRoot = null;
      }
    }
    return this.realRoot;
  }
}
