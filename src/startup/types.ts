import type * as nodeFs from "node:fs";
import type { BosunPaths, Env } from "../kernel/paths.js";
import type { Project } from "../kernel/project.js";

/** The file-system calls migrations make; tests can wrap them (to simulate a crash or EXDEV). */
export type MigrationFs = Pick<
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

/** Starts a program in the background (own process group, no stdio); returns "" or an error. */
export type DetachedSpawner = (command: string, args: string[]) => string;

export interface MigrationContext {
  paths: BosunPaths;
  project: Project | null;
  env: Env;
  fs: MigrationFs;
  /** bosun's package folder: the packaged assets live under it. */
  packageRoot: string;
  spawnDetached: DetachedSpawner;
}

export interface MigrationNote {
  level: "info" | "warn";
  message: string;
}

/**
 * One change a step will make. `describe` says what, for `--dry-run` and the report; `apply`
 * does it (synchronously) and may return notes about how it went.
 */
export interface MigrationAction {
  kind: string;
  describe: string;
  apply(): MigrationNote[] | void;
}

/** What a step found: the changes to make, and what it noticed but will not change. */
export interface StepPlan {
  actions: MigrationAction[];
  notes: MigrationNote[];
}

/**
 * A startup migration step. `plan` only reads; the runner applies the returned actions, or only
 * lists them for a dry run, so a preview and a real run share the same planning code. A built-in
 * step may plan asynchronously, to load what it needs only when it needs it (the config schema);
 * applying is always synchronous.
 */
export interface MigrationStep {
  id: string;
  plan(ctx: MigrationContext): StepPlan | Promise<StepPlan>;
}
