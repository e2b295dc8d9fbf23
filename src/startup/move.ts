import { constants, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { sha256FileSync } from "../kernel/fs/hash.js";
import type { StartupFs } from "./types.js";

/** Suffix of the sibling file a cross-filesystem copy is written to before it is put in place. */
export const TEMP_SUFFIX = ".bosun-migrate.tmp";

const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EMLINK", "ENOSYS"]);

/**
 * Moves `src` to `dst`, which must not exist. On one filesystem this is a rename (files are
 * hard-linked then unlinked, so an existing `dst` is never overwritten). Across filesystems each
 * file is copied to a temp sibling, synced, verified by hash, put in place, and only then is the
 * source deleted; a crash at any point leaves every file complete in at least one place.
 */
export function moveEntry(fs: StartupFs, src: string, dst: string): void {
  fs.mkdirSync(dirname(dst), { recursive: true });
  const info = fs.lstatSync(src);
  try {
    if (info.isFile()) {
      try {
        fs.linkSync(src, dst);
        fs.unlinkSync(src);
        return;
      } catch (error) {
        if (!NO_HARD_LINKS.has(errorCode(error))) throw error;
      }
    }
    fs.renameSync(src, dst);
    return;
  } catch (error) {
    if (errorCode(error) !== "EXDEV") throw error;
  }
  copyAcross(fs, src, dst, info);
}

function copyAcross(fs: StartupFs, src: string, dst: string, info: Stats): void {
  if (info.isDirectory()) {
    fs.mkdirSync(dst, { mode: info.mode & 0o7777 });
    for (const name of fs.readdirSync(src)) {
      const child = fs.lstatSync(join(src, name));
      // A FIFO, socket or device cannot be copied; it stays, and so does its folder.
      if (child.isFile() || child.isDirectory() || child.isSymbolicLink()) moveEntry(fs, join(src, name), join(dst, name));
    }
    removeDirIfEmpty(fs, src);
  } else if (info.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(src), dst);
    fs.unlinkSync(src);
  } else if (info.isFile()) {
    const temp = dst + TEMP_SUFFIX;
    fs.rmSync(temp, { force: true });
    fs.copyFileSync(src, temp, constants.COPYFILE_EXCL);
    syncFile(fs, temp);
    if (sha256FileSync(temp) !== sha256FileSync(src)) {
      fs.unlinkSync(temp);
      throw new Error(`the copy of ${src} at ${dst} does not match the original`);
    }
    fs.chmodSync(temp, info.mode & 0o7777);
    fs.utimesSync(temp, info.atime, info.mtime);
    putInPlace(fs, temp, dst);
    fs.unlinkSync(src);
  } else {
    throw new Error(`${src} is not a file, folder or symlink`);
  }
}

/**
 * Writes a file that must not exist yet: the bytes go to a temp sibling, are synced, and are then
 * put in place (`putInPlace`), so `dst` appears complete or not at all and an existing file is
 * never overwritten.
 */
export function writeNewFile(fs: StartupFs, dst: string, bytes: Uint8Array, mode: number): void {
  const temp = dst + TEMP_SUFFIX;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, bytes, { mode, flag: "wx" });
  syncFile(fs, temp);
  putInPlace(fs, temp, dst);
}

/**
 * Gives the complete file `temp` the name `dst`, which must not exist: a hard link (which fails if
 * `dst` exists) and an unlink. A file system without hard links (vboxsf, 9p, FUSE, SMB) gets a
 * rename instead, which keeps `dst` complete or absent; it is refused when `dst` exists, and the
 * migrations lock keeps other bosun processes from making it in between.
 */
function putInPlace(fs: StartupFs, temp: string, dst: string): void {
  try {
    fs.linkSync(temp, dst);
  } catch (error) {
    if (!NO_HARD_LINKS.has(errorCode(error))) throw error;
    if (exists(fs, dst)) {
      fs.unlinkSync(temp);
      throw Object.assign(new Error(`EEXIST: ${dst} already exists`), { code: "EEXIST" });
    }
    fs.renameSync(temp, dst);
    return;
  }
  fs.unlinkSync(temp);
}

function syncFile(fs: StartupFs, path: string): void {
  const fd = fs.openSync(path, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes a folder if it is empty; answers whether it did. */
export function removeDirIfEmpty(fs: StartupFs, dir: string): boolean {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}

/** True when both are regular files with the same bytes (a move that completed but for cleanup). */
export function sameFileContent(fs: StartupFs, a: string, b: string): boolean {
  const first = fs.lstatSync(a);
  const second = fs.lstatSync(b);
  if (!first.isFile() || !second.isFile()) return false;
  if (first.ino === second.ino && first.dev === second.dev) return true;
  return first.size === second.size && sha256FileSync(a) === sha256FileSync(b);
}

/**
 * `<path><suffix>`, or `<path><suffix>-2`, `-3`… : the first name that is free, or that `reuse`
 * accepts as it is (a backup already made by a run cut short).
 */
export function freeBackupName(fs: StartupFs, path: string, suffix: string, reuse: (candidate: string) => boolean = () => false): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path + suffix : `${path}${suffix}-${n}`;
    if (!exists(fs, candidate) || reuse(candidate)) return candidate;
  }
}

export function lstatIfExists(fs: StartupFs, path: string): Stats | undefined {
  try {
    return fs.lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (errorCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/** What `path` leads to, through a symlink; undefined when nothing is there (or a link leads nowhere). */
export function statIfExists(fs: StartupFs, path: string): Stats | undefined {
  try {
    return fs.statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (errorCode(error) === "ENOTDIR" || errorCode(error) === "ELOOP") return undefined;
    throw error;
  }
}

export function exists(fs: StartupFs, path: string): boolean {
  return lstatIfExists(fs, path) !== undefined;
}

export function isTempName(path: string): boolean {
  return basename(path).endsWith(TEMP_SUFFIX);
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? "";
}
