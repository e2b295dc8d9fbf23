import { copyFileSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../kernel/errors.js";
import { requireLazily } from "../kernel/fs/require.js";
import type { DetachedSpawner } from "../kernel/spawn-detached.js";

/** Where bosun installs its hook helper, inside its data folder. */
export const HELPER_RELATIVE_PATH = join("bin", "bosun-hook.mjs");
export const HELPER_BACKUP_SUFFIX = ".startup-migration-backup";

/**
 * Text every helper must contain before it may replace an installed one: the functions that keep
 * a hook from breaking or hanging the agent that calls it, from printing control sequences into
 * its context, and from leaving a half-written snapshot; plus the version stamp compared below.
 */
export const HELPER_MARKERS = [
  "const HELPER_VERSION =",
  "function neverFailTheHost(",
  "neverFailTheHost(() => main(",
  "function withDeadline(",
  "function sanitizeLine(",
  "function readSnapshot(",
  "function writeSnapshotAtomically(",
];

/** Result objects, as the source's runtime sync reports them. */
export interface HelperSyncResult {
  ok: boolean;
  updated: boolean;
  reason?: string;
  warning?: string;
  target?: string;
  backup?: string;
}

/** A stale installed helper and what replaces it. */
export interface HelperReplacement {
  target: string;
  sourceText: string;
  mode: number;
  backup: string;
}

/**
 * Decides whether the installed helper must be replaced by the packaged one. A missing target is
 * normal (nothing registered a hook yet) and a symlink or other non-regular target is left alone;
 * both are quiet. The packaged source must carry every marker. The target is current when it has
 * every marker and a version at least the packaged one's.
 */
export function planHelperSync(target: string, source: string): { result: HelperSyncResult } | { replace: HelperReplacement } {
  const installed = readRegularText(target, "runtime helper");
  if ("reason" in installed) return { result: { ok: true, updated: false, reason: installed.reason } };
  const packaged = readRegularText(source, "packaged runtime helper");
  if ("reason" in packaged) return { result: { ok: false, updated: false, warning: packaged.reason } };
  const missing = missingMarkers(packaged.text);
  if (missing.length > 0) {
    return { result: { ok: false, updated: false, warning: `packaged runtime helper is missing required safety markers: ${missing.join(", ")}` } };
  }
  const installedVersion = helperVersion(installed.text);
  if (missingMarkers(installed.text).length === 0 && installedVersion !== null && installedVersion >= (helperVersion(packaged.text) ?? 0)) {
    return { result: { ok: true, updated: false, reason: "already-current" } };
  }
  return { replace: { target, sourceText: packaged.text, mode: installed.mode, backup: target + HELPER_BACKUP_SUFFIX } };
}

/**
 * Replaces the installed helper: a one-time backup of the first stale copy (never overwritten
 * later), then a sibling temp file with the target's mode, renamed over the target.
 */
export function replaceHelper(replacement: HelperReplacement): HelperSyncResult {
  const { target, sourceText, mode, backup } = replacement;
  try {
    copyFileSync(target, backup, 1 /* COPYFILE_EXCL */);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      return { ok: false, updated: false, warning: `could not back up ${target}: ${describeError(error)}` };
    }
  }
  try {
    const writeFileAtomic = requireLazily("write-file-atomic") as typeof import("write-file-atomic");
    writeFileAtomic.sync(target, sourceText, { mode });
  } catch (error) {
    return { ok: false, updated: false, warning: `could not update ${target}: ${describeError(error)}` };
  }
  return { ok: true, updated: true, target, backup };
}

/** Plan and replace in one call (what the step does, without the refresh). */
export function syncRuntimeHelper(target: string, source: string): HelperSyncResult {
  const planned = planHelperSync(target, source);
  return "result" in planned ? planned.result : replaceHelper(planned.replace);
}

/**
 * Starts the helper's refresh in the background so its status snapshot is rebuilt by the new
 * code without waiting for the next session. Returns "" or why it could not start.
 */
export function startHelperRefresh(helper: string, cliEntry: string, spawnDetached: DetachedSpawner): string {
  return spawnDetached(process.execPath, [helper, "refresh", "--cli", cliEntry]);
}

export function packagedHelperPath(packageRoot: string): string {
  return join(packageRoot, "assets", HELPER_RELATIVE_PATH);
}

export function missingMarkers(text: string): string[] {
  return HELPER_MARKERS.filter((marker) => !text.includes(marker));
}

function helperVersion(text: string): number | null {
  const match = /const HELPER_VERSION = (\d+);/.exec(text);
  return match ? Number(match[1]) : null;
}

function readRegularText(path: string, role: string): { text: string; mode: number } | { reason: string } {
  let info;
  try {
    info = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { reason: `${role} not found: ${path}` };
    return { reason: `${role} could not be inspected: ${path}: ${describeError(error)}` };
  }
  if (!info.isFile()) return { reason: `${role} is not a regular file: ${path}` };
  try {
    return { text: readFileSync(path, "utf8"), mode: info.mode & 0o7777 };
  } catch (error) {
    return { reason: `${role} could not be read: ${path}: ${describeError(error)}` };
  }
}
