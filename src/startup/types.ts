import type * as nodeFs from "node:fs";
import type { BosunPaths, Env } from "../kernel/paths.js";
import type { Project } from "../kernel/project.js";
import type { ConfigSchemaLoader } from "../kernel/config/config.js";
import type { DetachedSpawner } from "../kernel/spawn-detached.js";

/** The file-system calls migrations make; tests can wrap them (to simulate a crash or EXDEV). */
export type StartupFs = Pick<
  typeof nodeFs,
  | "accessSync"
  | "chmodSync"
  | "closeSync"
  | "copyFileSync"
  | "fchmodSync"
  | "fstatSync"
  | "fsyncSync"
  | "linkSync"
  | "lstatSync"
  | "mkdirSync"
  | "openSync"
  | "readFileSync"
  | "readdirSync"
  | "readlinkSync"
  | "renameSync"
  | "rmSync"
  | "rmdirSync"
  | "statSync"
  | "symlinkSync"
  | "unlinkSync"
  | "utimesSync"
  | "writeFileSync"
>;


export interface StartupContext {
  paths: BosunPaths;
  project: Project | null;
  env: Env;
  fs: StartupFs;
  /** bosun's package folder: the packaged assets live under it. */
  packageRoot: string;
  spawnDetached: DetachedSpawner;
  /** The schema of `bosun.json` (loaded on demand): a step that writes config checks it first. */
  loadConfigSchema: ConfigSchemaLoader<unknown>;
}

export interface StartupNote {
  level: "info" | "warn";
  message: string;
}

/**
 * One change a step will make. `describe` says what, for `--dry-run` and the report; `apply`
 * does it (synchronously) and may return notes about how it went.
 */
export interface StartupAction {
  kind: string;
  describe: string;
  apply(): StartupNote[] | void;
}

/** What a step found: the changes to make, and what it noticed but will not change. */
export interface StepPlan {
  actions: StartupAction[];
  notes: StartupNote[];
}

/**
 * A startup migration step. `plan` only reads; the runner applies the returned actions, or only
 * lists them for a dry run, so a preview and a real run share the same planning code. A built-in
 * step may plan asynchronously, to load what it needs only when it needs it (the config schema);
 * applying is always synchronous.
 */
export interface StartupStep {
  id: string;
  plan(ctx: StartupContext): StepPlan | Promise<StepPlan>;
}
