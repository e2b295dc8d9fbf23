import { existsSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Boot } from "../app/start.js";
import { describeError } from "../kernel/errors.js";
import { readRegularFile } from "../kernel/fs/regular-file.js";
import type { InstallOutcome } from "../install/install-pack.js";
import { HELPER_RELATIVE_PATH } from "../install/hook-helper.js";
import type { Output } from "./output.js";

/**
 * The status snapshot bosun's hook helper prints at each agent session start
 * (`<data>/hook-status.json`, read by assets/bin/bosun-hook.mjs). `bosun status`, `bosun agents`
 * and `bosun install` write it from what they computed anyway, so the next session shows the
 * current line without the hook ever starting bosun.
 */
export const HOOK_SNAPSHOT_FILE = "hook-status.json";

/** The helper version whose snapshot format this is (its `version` field). */
const SNAPSHOT_FORMAT = 2;
/** The helper ignores a bigger snapshot, so bosun never reads one either. */
const SNAPSHOT_MAX_BYTES = 64 * 1024;

/** The snapshot's fields, as the helper reads and writes them. */
export interface HookSnapshot {
  version: number;
  generatedAt: string;
  /** The one line the helper prints. */
  line: string;
  /** How the helper refreshes a stale snapshot in the background: `node entry status --json`. */
  cli: { node: string; entry: string };
}

export interface SnapshotPlace {
  /** bosun's data folder: the helper is `<data>/bin/bosun-hook.mjs`, the snapshot `<data>/hook-status.json`. */
  dataDir: string;
  /** bosun's package folder (its `bin/bosun.js` is what the helper's refresh runs). */
  packageRoot: string;
}

/** Is bosun's hook helper installed? Without it no hook reads the snapshot, and none is written. */
export function helperInstalled(dataDir: string): boolean {
  return existsSync(join(dataDir, HELPER_RELATIVE_PATH));
}

/**
 * Writes the snapshot with `line`: atomic (a temp file renamed over the old one) and 0600. Returns
 * "" when written, else why not; never throws, since no command fails over it.
 */
export function writeHookSnapshot(place: SnapshotPlace, line: string): string {
  const snapshot: HookSnapshot = {
    version: SNAPSHOT_FORMAT,
    generatedAt: new Date().toISOString(),
    line,
    cli: { node: process.execPath, entry: join(place.packageRoot, "bin", "bosun.js") },
  };
  const file = join(place.dataDir, HOOK_SNAPSHOT_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(snapshot) + "\n", { mode: 0o600 });
    renameSync(temp, file);
    return "";
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    return `could not write ${file}: ${describeError(error)}`;
  }
}

/** The line of the snapshot there now, or null (missing, not a regular file, too big, not the helper's format). */
export function readHookSnapshotLine(dataDir: string): string | null {
  try {
    const parsed = JSON.parse(readRegularFile(join(dataDir, HOOK_SNAPSHOT_FILE), SNAPSHOT_MAX_BYTES).toString("utf8")) as Partial<HookSnapshot> | null;
    return typeof parsed?.line === "string" ? parsed.line : null;
  } catch {
    return null;
  }
}

/**
 * `bosun agents` knows only the agents' part of the line: it replaces that part of the line there
 * now when that line is this version's (the rest came from the last `bosun status`), or starts a
 * line of its own.
 */
export function withAgentsPart(line: string | null, version: string, agentsPart: string, pattern: RegExp): string {
  const start = `bosun ${version}: `;
  if (line?.startsWith(start) && pattern.test(line)) return line.replace(pattern, agentsPart);
  return start + agentsPart;
}

type SnapshotBoot = Pick<Boot, "paths" | "packageRoot" | "log">;

/** `bosun status` and `bosun install`: the snapshot gets the summary line, when the helper is installed. */
export function saveHookSnapshot(boot: SnapshotBoot, line: string): void {
  if (helperInstalled(boot.paths.data)) writeLogged(boot, line);
}

/** `bosun agents`: the snapshot's line gets the agents' part just computed. */
export function saveAgentsPartInHookSnapshot(boot: SnapshotBoot, version: string, agentsPart: string, pattern: RegExp): void {
  if (helperInstalled(boot.paths.data)) writeLogged(boot, withAgentsPart(readHookSnapshotLine(boot.paths.data), version, agentsPart, pattern));
}

function writeLogged(boot: SnapshotBoot, line: string): void {
  const problem = writeHookSnapshot({ dataDir: boot.paths.data, packageRoot: boot.packageRoot }, line);
  // Logged, not shown: a status or agents list is never spoiled by the hook's file.
  if (problem) boot.log.warn("hook status snapshot not written", { problem });
}

/**
 * `bosun install`, after it installed a pack with a hook that runs the helper: the snapshot gets
 * the summary `bosun status` would print now, so the very next agent session shows it.
 */
export async function saveHookSnapshotAfterInstall(boot: Boot, output: Output, outcome: InstallOutcome): Promise<void> {
  if (outcome.mode !== "install" || !outcome.result.targets.some(({ target }) => target.desired?.usesHelper)) return;
  if (!helperInstalled(boot.paths.data)) return;
  try {
    const { buildStatusReport } = await import("./status-report.js");
    const { report } = await buildStatusReport(boot, output);
    saveHookSnapshot(boot, report.summary);
  } catch (error) {
    // The install is done; the next bosun status writes the snapshot instead.
    boot.log.warn("hook status snapshot not written", { problem: describeError(error) });
  }
}
