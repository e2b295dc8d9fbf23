import { basename, dirname, join } from "node:path";
import { isPlainObject, MAX_CONFIG_BYTES } from "../kernel/config/config.js";
import { checkConfigDocument, type ConfigSchema } from "../kernel/config/config-check.js";
import { ConfigError } from "../kernel/config/config-error.js";
import { parseJsonc, type JsoncDocument } from "../kernel/jsonc.js";
import { displayPath, type BosunPaths } from "../kernel/paths.js";
import { isInside } from "../kernel/fs/path-inside.js";
import { ensurePrivateDir } from "../kernel/fs/private-dir.js";
import { LEGACY_SETTINGS_KEYS } from "./legacy-settings-keys.js";
import { translateLegacySettings, type SettingsTranslation } from "./legacy-settings-translate.js";
import { exists, freeBackupName, lstatIfExists, moveEntry, removeDirIfEmpty, sameFileContent, statIfExists, TEMP_SUFFIX, writeNewFile } from "./move.js";
import type { StartupAction, StartupContext, StartupFs, StartupNote, StartupStep, StepPlan } from "./types.js";

/**
 * What happens to an entry of the legacy `~/.bosun/` folder when its target already exists:
 * `keep` leaves both where they are and reports it; `overwrite` replaces the target (caches only);
 * `overwrite-with-backup` renames the target to a backup first.
 */
export type ConflictRule = "keep" | "overwrite" | "overwrite-with-backup";

export type LegacyMove =
  /** `settings`: the old settings file, whose keys are translated on the way (see `Planner.settings`). */
  | { from: string; to: (paths: BosunPaths) => string; conflict: ConflictRule; settings?: true }
  | { from: string; drop: true };

/** The move table, documented in the README. Anything not listed stays and is reported. */
export const LEGACY_MOVES: LegacyMove[] = [
  { from: "settings.json", to: (p) => join(p.config, "bosun.json"), conflict: "keep", settings: true },
  { from: "extensions", to: (p) => join(p.config, "extensions"), conflict: "keep" },
  { from: "secrets.env", to: (p) => join(p.data, "secrets.env"), conflict: "keep" },
  { from: "auth.json", to: (p) => join(p.data, "auth.json"), conflict: "keep" },
  { from: ".env", to: (p) => join(p.data, ".env"), conflict: "overwrite-with-backup" },
  { from: "sessions", to: (p) => join(p.data, "sessions"), conflict: "keep" },
  { from: "agents", to: (p) => join(p.data, "agents"), conflict: "keep" },
  { from: "plugins", to: (p) => join(p.data, "plugins"), conflict: "keep" },
  { from: "cache", to: (p) => p.cache, conflict: "overwrite" },
  { from: "logs", drop: true },
];

export const OVERWRITE_BACKUP_SUFFIX = ".startup-migration-backup";

/** Next to `bosun.json`: the old settings file as it was, when it was translated or could not be read. */
export const LEGACY_SETTINGS_BACKUP = "legacy-settings.json";

export const legacyLayoutStep: StartupStep = {
  id: "10_legacy_layout",
  async plan(ctx) {
    // The old settings are checked against the config schema, which needs zod: it is loaded only
    // when there is an old settings file (a start that has a bosun.json loads it anyway).
    const settings = lstatIfExists(ctx.fs, join(ctx.paths.legacy, "settings.json"));
    return planLegacyLayout(ctx, settings ? await ctx.loadConfigSchema() : null);
  },
};

/**
 * Plans moving `~/.bosun/` into the XDG folders. Folders whose target exists are merged entry by
 * entry. A legacy folder is removed only when every entry in it is planned to leave, so whatever
 * could not move stays where it was (and is reported) instead of being deleted with its parent.
 */
function planLegacyLayout(ctx: StartupContext, configSchema: ConfigSchema<unknown> | null): StepPlan {
  const { fs, paths } = ctx;
  const plan: StepPlan = { actions: [], notes: [] };
  const legacy = paths.legacy;
  const info = lstatIfExists(fs, legacy);
  if (!info) return plan;
  const show = (path: string) => displayPath(path, paths.home);
  if (!info.isDirectory()) {
    plan.notes.push(warn(`${show(legacy)} is not a folder; left alone`));
    return plan;
  }
  const overlap = [paths.config, paths.data, paths.cache, paths.state].find((dir) => isInside(dir, legacy) || isInside(legacy, dir));
  if (overlap) {
    plan.notes.push(warn(`${show(legacy)} overlaps ${show(overlap)}; the legacy layout is not migrated`));
    return plan;
  }
  const planner = new Planner(fs, plan, show, configSchema);
  let vacated = true;
  for (const name of fs.readdirSync(legacy).sort()) {
    const rule = LEGACY_MOVES.find((move) => move.from === name);
    const src = join(legacy, name);
    if (!rule) {
      plan.notes.push(warn(`${show(src)} is not in the move table; left in place`));
      vacated = false;
    } else if ("drop" in rule) {
      plan.actions.push(action("remove", `remove ${show(src)} (old logs are not kept)`, () => fs.rmSync(src, { recursive: true, force: true })));
    } else if (rule.settings) {
      vacated = planner.settings(src, rule.to(paths), rule.conflict) && vacated;
    } else {
      vacated = planner.entry(src, rule.to(paths), rule.conflict) && vacated;
    }
  }
  if (vacated) plan.actions.push(planner.removeEmptyDir(legacy));
  if (plan.actions.length > 0) {
    // The config and data folders (which receive settings and secrets) are created private
    // before anything moves into them.
    const missing = [paths.config, paths.data].filter((dir) => !lstatIfExists(fs, dir));
    plan.actions.unshift(...missing.map((dir) => action("mkdir", `create ${show(dir)} (private)`, () => ensurePrivateDir(dir, fs))));
  }
  return plan;
}

class Planner {
  constructor(
    private readonly fs: StartupFs,
    private readonly plan: StepPlan,
    private readonly show: (path: string) => string,
    private readonly configSchema: ConfigSchema<unknown> | null,
  ) {}

  /** Plans one source entry; answers whether it will have left its place afterwards. */
  entry(src: string, dst: string, conflict: ConflictRule): boolean {
    const { fs, plan, show } = this;
    const source = lstatIfExists(fs, src);
    if (!source) return true;
    if (!source.isFile() && !source.isDirectory() && !source.isSymbolicLink()) {
      plan.notes.push(warn(`${show(src)} is not a file, folder or symlink; left in place`));
      return false;
    }
    this.removeLeftover(dst);
    const target = lstatIfExists(fs, dst);
    if (!target) {
      plan.actions.push(action("move", `move ${show(src)} → ${show(dst)}`, () => moveEntry(fs, src, dst)));
      return true;
    }
    if (source.isDirectory() && target.isDirectory()) {
      let vacated = true;
      for (const name of fs.readdirSync(src).sort()) vacated = this.entry(join(src, name), join(dst, name), conflict) && vacated;
      if (vacated) plan.actions.push(this.removeEmptyDir(src));
      return vacated;
    }
    // Checked before any overwrite rule: a move cut short after the new name was made but before
    // the old one was removed leaves the same file twice, which is not a conflict.
    if (sameFileContent(fs, src, dst)) {
      plan.actions.push(action("remove", `remove ${show(src)} (already moved to ${show(dst)})`, () => fs.unlinkSync(src)));
      return true;
    }
    if (conflict === "overwrite") {
      plan.actions.push(
        action("replace", `replace ${show(dst)} with ${show(src)}`, () => {
          fs.rmSync(dst, { recursive: true, force: true });
          moveEntry(fs, src, dst);
        }),
      );
      return true;
    }
    if (conflict === "overwrite-with-backup") {
      plan.actions.push(
        action("replace", `replace ${show(dst)} with ${show(src)} (the old one is kept as ${basename(dst)}${OVERWRITE_BACKUP_SUFFIX})`, () => {
          fs.renameSync(dst, freeBackupName(fs, dst, OVERWRITE_BACKUP_SUFFIX));
          moveEntry(fs, src, dst);
        }),
      );
      return true;
    }
    plan.notes.push(warn(`kept ${show(src)}: ${show(dst)} already exists; merge or delete one of them by hand`));
    return false;
  }

  /**
   * The old settings file. Its keys are translated into the current schema (`LEGACY_SETTINGS_KEYS`)
   * by editing its text, so comments and layout stay; the translation is written as the target and
   * the untouched original is kept next to it as `legacy-settings.json`. A file with nothing to
   * translate moves as it is, and so does a symlink (its file is checked, never rewritten). What
   * would not start bosun as its config (not JSONC, not an object, or a wrong value of a known
   * key, even one the translation made) is never made the config: it moves to
   * `legacy-settings.json` unread, with a warning.
   */
  settings(src: string, dst: string, conflict: ConflictRule): boolean {
    const { fs, plan, show } = this;
    const source = lstatIfExists(fs, src);
    const file = source?.isSymbolicLink() ? statIfExists(fs, src) : source;
    if (!source || !file?.isFile()) return this.entry(src, dst, conflict);
    // It appeared after the step looked for it: the next plan (under the lock, or the next start) takes it.
    if (!this.configSchema) return false;
    const read = readSettings(fs, src, dst, file.size, source.isSymbolicLink(), this.configSchema);
    if ("unusable" in read) {
      const backup = this.backupOf(src, dst);
      plan.notes.push(warn(`${show(src)} ${read.unusable}; it is kept unread as ${show(backup)}: copy what you need into ${show(dst)}`));
      this.keepOriginal(src, backup);
      return true;
    }
    const { translation, bytes } = read;
    for (const kept of translation.kept) plan.notes.push(warn(`${show(src)}: ${kept}, so it was not translated; bosun.json reports it as an unknown key`));
    if (translation.changes.length === 0) return this.entry(src, dst, conflict);
    this.removeLeftover(dst);
    const target = lstatIfExists(fs, dst);
    // A target holding exactly this translation was written by a start cut short: only the original is left to keep.
    if (target && !(target.isFile() && fs.readFileSync(dst).equals(bytes))) {
      plan.notes.push(warn(`kept ${show(src)}: ${show(dst)} already exists; merge or delete one of them by hand`));
      return false;
    }
    if (!target) {
      const describe = `write ${show(dst)} from ${show(src)}, translating ${translation.changes.join(", ")}`;
      plan.actions.push(action("translate", describe, () => writeNewFile(fs, dst, bytes, source.mode & 0o777)));
    }
    this.keepOriginal(src, this.backupOf(src, dst));
    return true;
  }

  /** Plans removing the temp sibling an interrupted copy or write left next to `dst`. */
  private removeLeftover(dst: string): void {
    const leftover = dst + TEMP_SUFFIX;
    if (lstatIfExists(this.fs, leftover)) {
      this.plan.actions.push(action("remove", `remove ${this.show(leftover)} left by an interrupted copy`, () => this.fs.rmSync(leftover, { force: true })));
    }
  }

  /** `legacy-settings.json` next to `dst` (then `-2`, `-3`…), or the one that already holds `src`'s bytes. */
  private backupOf(src: string, dst: string): string {
    return freeBackupName(this.fs, join(dirname(dst), LEGACY_SETTINGS_BACKUP), "", (candidate) => sameFileContent(this.fs, src, candidate));
  }

  /** Plans moving the original settings file to `backup` (done already when `backup` holds its bytes). */
  private keepOriginal(src: string, backup: string): void {
    const { fs, plan, show } = this;
    this.removeLeftover(backup);
    if (exists(fs, backup)) plan.actions.push(action("remove", `remove ${show(src)} (already kept as ${show(backup)})`, () => fs.unlinkSync(src)));
    else plan.actions.push(action("move", `move ${show(src)} → ${show(backup)} (the original, untouched)`, () => moveEntry(fs, src, backup)));
  }

  removeEmptyDir(dir: string): StartupAction {
    const shown = this.show(dir);
    return {
      kind: "remove-empty-dir",
      describe: `remove the emptied folder ${shown}`,
      apply: () => (removeDirIfEmpty(this.fs, dir) ? [] : [warn(`kept ${shown}: it still holds entries that could not move`)]),
    };
  }
}

/**
 * The old settings file's translation (as the bytes to write: a BOM stays; a symlink's file is
 * not translated), or why it cannot be the config: too large, not JSONC, not an object, or a
 * value `configSchema` refuses once translated (which would stop every start).
 */
function readSettings(
  fs: StartupFs,
  file: string,
  dst: string,
  size: number,
  linked: boolean,
  configSchema: ConfigSchema<unknown>,
): { translation: SettingsTranslation; bytes: Buffer } | { unusable: string } {
  if (size > MAX_CONFIG_BYTES) return { unusable: `is larger than ${MAX_CONFIG_BYTES} bytes` };
  const text = fs.readFileSync(file).toString("utf8");
  const original = parseSettings(file, text);
  if (original instanceof ConfigError) return { unusable: `is not usable JSONC${original.line === null ? "" : ` (line ${original.line})`}: ${original.problem}` };
  const translation = translateLegacySettings(original.text, linked ? [] : LEGACY_SETTINGS_KEYS);
  // What will be the config is read back as bosun reads its config, so a translation that went
  // wrong cannot lock bosun out either.
  const translated = parseSettings(dst, translation.text);
  const error = translated instanceof ConfigError ? translated : checkConfigDocument(translated, configSchema).errors[0];
  if (error) {
    // Named by its line in the old file when that file has the same problem (the translated text is nowhere on disk).
    const line = checkConfigDocument(original, configSchema).errors.find((same) => same.field !== null && same.field === error.field)?.line;
    const where = [line === undefined || line === null ? null : `line ${line}`, error.field, error.problem].filter(Boolean).join(": ");
    return { unusable: `would stop every start as the config (${where})` };
  }
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  return { translation, bytes: Buffer.from(bom + translation.text, "utf8") };
}

/** A settings text parsed, as an object; a ConfigError when it is not JSONC or not an object. */
function parseSettings(file: string, text: string): JsoncDocument | ConfigError {
  try {
    const doc = parseJsonc(file, text);
    return isPlainObject(doc.value) ? doc : new ConfigError(file, 1, null, "does not hold a JSON object");
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

function action(kind: string, describe: string, apply: () => void): StartupAction {
  return { kind, describe, apply: () => void apply() };
}

function warn(message: string): StartupNote {
  return { level: "warn", message };
}
