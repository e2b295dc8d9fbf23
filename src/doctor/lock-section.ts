import * as nodeFs from "node:fs";
import { join } from "node:path";
import type { Env } from "../kernel/paths.js";
import { bundledPackDir } from "../install/install-pack.js";
import { checkLock, type LockCheck } from "../install/lock/lock-check.js";
import { LOCK_FILE_NAME } from "../install/lock/lock-file.js";
import { projectRootOf, readLock } from "../install/lock/lock-io.js";
import { DigestCache } from "../install/lock/digest-cache.js";
import { readPackSource } from "../install/lock/pack-source.js";

/** Doctor's lock section: the check `bosun install --check` makes, or why the lock could not be read. */
export type DoctorLock = LockCheck | { file: string; error: string };

/**
 * When the project around `cwd` has a `bosun.lock`: the same comparison as `bosun install
 * --check` (bosun's own pack's source, every locked install, the project's unlocked installs).
 * Null when there is no project or no lock. Reads only.
 */
export function doctorLock(options: { env: Env; home: string; cwd: string; packageRoot: string; cacheDir?: string }): DoctorLock | null {
  const project = projectRootOf(options.cwd, options.home);
  if (!project) return null;
  const place = { root: project.root, file: join(project.root, LOCK_FILE_NAME), git: project.git };
  try {
    const read = readLock(place);
    if (!read) return null;
    const own = readPackSource(bundledPackDir(options.packageRoot), DigestCache.open(options.cacheDir, { write: false }));
    return checkLock({ lock: read.lock, file: place.file, ctx: { env: options.env, home: options.home, cwd: project.root }, fs: nodeFs, sources: [own] });
  } catch (error) {
    return { file: place.file, error: (error as Error).message };
  }
}
