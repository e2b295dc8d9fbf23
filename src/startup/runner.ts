import { join } from "node:path";
import { describeError } from "../kernel/errors.js";
import { ExtensionError } from "../extensions/extension-error.js";
import type { ExtensionHost } from "../extensions/host.js";
import type { LoadedExtension } from "../extensions/load.js";
import { acquireLockSync, type HeldLock } from "../kernel/fs/file-lock.js";
import { asFolderError, FolderError } from "../kernel/fs/folder-error.js";
import { ensurePrivateDir } from "../kernel/fs/private-dir.js";
import { legacyLayoutStep } from "./10_legacy_layout.js";
import { agentsJsonToYamlStep } from "./20_agents_json_to_yaml.js";
import { runtimeHelperSyncStep } from "./30_runtime_helper_sync.js";
import { privateFoldersStep } from "./40_private_folders.js";
import { StartupMigrationError } from "./migration-error.js";
import type { StartupAction, StartupContext, StartupNote, StartupStep, StepPlan } from "./types.js";

declare module "../extensions/points.js" {
  interface ExtensionPointArgs {
    /** A copy of the startup context; the extension returns its plan. */
    startup_migration: StartupContext;
  }
}

/** Built-in steps, in file-name order; `startup_migration` extensions run after them. */
export const BUILTIN_STEPS: StartupStep[] = [legacyLayoutStep, agentsJsonToYamlStep, runtimeHelperSyncStep, privateFoldersStep];

export const STARTUP_MIGRATION_POINT = "startup_migration";

export interface StepReport {
  id: string;
  /** "builtin", or the extension file the step came from. */
  source: string;
  actions: { kind: string; describe: string }[];
  notes: StartupNote[];
}

/**
 * Told about each change as soon as it is applied, and about a step's warnings once the step
 * changed something, so a later failure (a migration that throws, a config error) cannot hide
 * what was already done.
 */
export interface StartupListener {
  applied(stepId: string, action: { kind: string; describe: string }): void;
  warned(stepId: string, message: string): void;
}

export interface StartupReport {
  dryRun: boolean;
  /** True when this run changed something on disk. */
  changed: boolean;
  steps: StepReport[];
}

/**
 * Runs steps in order. Each step is planned, then (unless this is a dry run) its actions are
 * applied one by one before the next step plans, so a step sees what earlier ones did. The
 * migrations lock is taken only when a step has something to do, so a start with nothing to
 * migrate writes nothing at all; under the lock the step is planned again, in case another bosun
 * migrated in the meantime.
 */
export class StartupRunner {
  private lock: HeldLock | null = null;
  readonly report: StartupReport;

  constructor(
    private readonly ctx: StartupContext,
    dryRun: boolean,
    private readonly lockTimeoutMs = 30_000,
    private readonly listener?: StartupListener,
  ) {
    this.report = { dryRun, changed: false, steps: [] };
  }

  async run(step: StartupStep, source = "builtin"): Promise<void> {
    let plan = await planStep(this.ctx, step);
    if (!this.report.dryRun && plan.actions.length > 0 && !this.lock) {
      const { state } = this.ctx.paths;
      ensurePrivateDir(state, this.ctx.fs);
      try {
        this.lock = acquireLockSync(join(state, "startup-migrations.lock"), { timeoutMs: this.lockTimeoutMs });
      } catch (error) {
        throw asFolderError(error, state);
      }
      plan = await planStep(this.ctx, step);
    }
    const stepReport: StepReport = { id: step.id, source, actions: [], notes: [...plan.notes] };
    this.report.steps.push(stepReport);
    for (const action of plan.actions) {
      const done = { kind: action.kind, describe: action.describe };
      stepReport.actions.push(done);
      if (this.report.dryRun) continue;
      this.report.changed = true;
      const notes = applyAction(step.id, source, action);
      this.listener?.applied(step.id, done);
      stepReport.notes.push(...notes);
    }
    if (this.report.dryRun || stepReport.actions.length === 0) return;
    for (const note of stepReport.notes) if (note.level === "warn") this.listener?.warned(step.id, note.message);
  }

  /** Releases the lock if one was taken; a failed release is a note, not a failed start. */
  finish(): StartupReport {
    if (this.lock) {
      try {
        this.lock.release();
      } catch (error) {
        this.report.steps.at(-1)?.notes.push({ level: "warn", message: `releasing the migrations lock failed: ${describeError(error)}` });
      }
      this.lock = null;
    }
    return this.report;
  }
}

async function planStep(ctx: StartupContext, step: StartupStep): Promise<StepPlan> {
  try {
    return await step.plan(ctx);
  } catch (error) {
    if (error instanceof ExtensionError) throw error;
    throw new StartupMigrationError(step.id, "work out what to migrate", error);
  }
}

function applyAction(stepId: string, source: string, action: StartupAction): StartupNote[] {
  let result: unknown;
  try {
    result = action.apply();
  } catch (error) {
    // A folder of bosun's that cannot be used is named as such, whichever step ran into it.
    if (error instanceof ExtensionError || error instanceof FolderError) throw error;
    if (source !== "builtin") throw new ExtensionError(source, STARTUP_MIGRATION_POINT, `could not ${action.describe}: ${describeError(error)}`, { cause: error });
    throw new StartupMigrationError(stepId, action.describe, error);
  }
  if (typeof (result as { then?: unknown } | null)?.then === "function") {
    Promise.resolve(result).catch(() => {});
    throw new ExtensionError(source, STARTUP_MIGRATION_POINT, `action "${action.describe}" returned a promise; apply() must be synchronous`);
  }
  return Array.isArray(result) ? result.filter(isNote) : [];
}

/**
 * A `startup_migration` extension as a step: its function gets the migration context and returns
 * its plan (an array of actions, or `{actions, notes}`; nothing means nothing to do). It must only
 * read; bosun applies what it returns.
 */
export function extensionStep(host: ExtensionHost, extension: LoadedExtension): StartupStep {
  return {
    id: extension.name,
    plan(ctx) {
      const value = host.runSync(extension, { ...ctx });
      return normalizePlan(extension, value);
    },
  };
}

function normalizePlan(extension: LoadedExtension, value: unknown): StepPlan {
  if (value === undefined || value === null) return { actions: [], notes: [] };
  const shaped = Array.isArray(value) ? { actions: value, notes: [] } : (value as Partial<StepPlan>);
  const actions = shaped.actions ?? [];
  const notes = shaped.notes ?? [];
  const invalid = (problem: string) => new ExtensionError(extension.file, STARTUP_MIGRATION_POINT, `returned an invalid plan: ${problem}`);
  if (!Array.isArray(actions) || !Array.isArray(notes)) throw invalid("expected an array of actions or {actions, notes}");
  actions.forEach((action: Partial<StartupAction>, index) => {
    if (typeof action?.describe !== "string" || action.describe === "") throw invalid(`action ${index} has no describe text`);
    if (typeof action.apply !== "function") throw invalid(`action ${index} has no apply function`);
  });
  if (!notes.every(isNote)) throw invalid("notes must be {level: 'info'|'warn', message}");
  return {
    actions: actions.map((action) => ({ kind: action.kind ?? "extension", describe: action.describe, apply: () => action.apply() })),
    notes,
  };
}

function isNote(value: unknown): value is StartupNote {
  const note = value as Partial<StartupNote> | null;
  return (note?.level === "info" || note?.level === "warn") && typeof note.message === "string";
}
