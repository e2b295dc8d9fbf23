import { basename, dirname, join } from "node:path";
import { hasSetting } from "../config/json-settings.js";
import { displayPath } from "../../kernel/paths.js";
import type { InstallScope, RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { INSTALL_SCOPES } from "../../runtimes/kit/install-types.js";
import { inspectPath } from "../plan/classify.js";
import { hasHookEntry, parseConfig } from "../config/json-hooks.js";
import { settingsSyntaxOf } from "../config/settings-syntax.js";
import { findTomlBlock } from "../config/toml-block.js";
import { InstallFileError } from "../install-errors.js";
import { errorCode, readOrNull, type InstallFs } from "../apply/install-fs.js";
import { readInstallState } from "./install-state.js";
import { listJournals } from "../apply/journal.js";
import { readManifest, type Manifest } from "./manifest.js";
import { skippingReads } from "../plan/shared-folders.js";
import { MANIFEST_FILE, STATE_FILE, statePath, type InstallRoot } from "./root.js";
import { rootsFor } from "./root.js";
import { isSkip } from "../../runtimes/kit/install-types.js";

/** How one root looks: what bosun installed there, what it applied, and what changed since. */
export interface RootStatus {
  runtime: string;
  title: string;
  scope: InstallScope;
  /** `main`, or the extra root's name. */
  key: string;
  dir: string;
  exists: boolean;
  installed: boolean;
  /** `heldFor`: the pack was uninstalled here, but skill folders other runtimes read here stay for them. */
  packs: { name: string; version: string; files: number; updatedAt: string; heldFor?: string[] }[];
  files: number;
  migrations: { id: string; source: string; appliedAt: string }[];
  /** A run was interrupted here; the next install rolls it back first. */
  interrupted: boolean;
  /**
   * Files you changed or deleted since bosun wrote them, hook entries no longer in the config, and
   * skill files this runtime reads from a shared folder (instead of a copy of its own) that are
   * gone (null: not checked).
   */
  drift: { modified: string[]; missing: string[]; config: string[]; shared: string[] } | null;
  problems: string[];
}

export interface StatusOptions {
  runtimes: readonly InstallRuntime[];
  scopes?: readonly InstallScope[];
  ctx: RootContext;
  fs: InstallFs;
  /** Hash what bosun installed (with the manifest's stat cache) to report drift. */
  checkDrift: boolean;
  /** Report roots whose folder does not exist too (for runtimes named explicitly). */
  includeMissing?: boolean;
}

/** The install state of every root of the given runtimes and scopes. Only reads. */
export function collectInstallStatus(options: StatusOptions): RootStatus[] {
  const out: RootStatus[] = [];
  for (const runtime of options.runtimes) {
    for (const scope of options.scopes ?? INSTALL_SCOPES) {
      let roots: InstallRoot[];
      try {
        roots = rootsFor(runtime, scope, options.ctx);
      } catch {
        continue;
      }
      for (const root of roots) {
        const status = rootStatus(runtime, root, options);
        if (status.exists && (status.installed || root.key === "main" || status.interrupted)) out.push(status);
        else if (options.includeMissing && root.key === "main") out.push(status);
      }
    }
  }
  return out;
}

function rootStatus(runtime: InstallRuntime, root: InstallRoot, options: StatusOptions): RootStatus {
  const { fs } = options;
  const exists = fs.lstatSync(root.dir, { throwIfNoEntry: false }) !== undefined;
  const base: RootStatus = { runtime: runtime.id, title: runtime.title, scope: root.scope, key: root.key, dir: root.dir, exists, installed: false, packs: [], files: 0, migrations: [], interrupted: false, drift: null, problems: [] };
  // Cline's project scope is the project folder itself: it counts only when bosun was there.
  if (!exists || (root.dir === options.ctx.cwd && !fs.lstatSync(statePath(root, MANIFEST_FILE), { throwIfNoEntry: false }))) return { ...base, exists: exists && root.dir !== options.ctx.cwd };
  const read = readManifest(fs, statePath(root, MANIFEST_FILE));
  const manifest = read.manifest;
  base.problems.push(...read.problems.map((problem) => `bosun-manifest.json ${problem}`));
  try {
    base.migrations = readInstallState(fs, statePath(root, STATE_FILE)).state.appliedMigrations.map(({ id, source, appliedAt }) => ({ id, source, appliedAt }));
  } catch (error) {
    base.problems.push((error as Error).message);
  }
  try {
    base.interrupted = listJournals(fs, root).some((journal) => !journal.committed);
  } catch (error) {
    base.problems.push(error instanceof InstallFileError ? error.message : `bosun-journal: ${errorCode(error) ?? (error as Error).message}`);
  }
  base.packs = Object.entries(manifest.packs).map(([name, pack]) => ({ name, version: pack.version, files: pack.files.length, updatedAt: pack.updatedAt, ...(pack.heldFor ? { heldFor: pack.heldFor } : {}) }));
  base.installed = base.packs.length > 0;
  base.files = Object.keys(manifest.files).length;
  if (options.checkDrift && base.installed) {
    const modified: string[] = [];
    const missing: string[] = [];
    for (const [rel, hash] of Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
      try {
        const looked = inspectPath(fs, join(root.dir, rel), { hash, stat: manifest.fileStats[rel] });
        if (looked.kind === "absent") missing.push(rel);
        else if (looked.hash !== hash) modified.push(rel);
      } catch {
        modified.push(rel);
      }
    }
    const config: string[] = [];
    const layout = runtime.installSurface.layout(root.scope);
    const format = !isSkip(layout.hooks) && layout.hooks.register.kind === "config" ? layout.hooks.register.format : "nested";
    for (const entry of manifest.config) {
      // Absent, unreadable, or not a regular file (a FIFO is not waited on): the entry is not there.
      const text = readOrNull(fs, join(root.dir, entry.file));
      if (text === null) {
        config.push(entry.kind === "hook" ? `${entry.file}: ${entry.event} (${entry.hook})` : entry.kind === "setting" ? `${entry.file}: ${entry.path.join(".")}` : `${entry.file}: bosun's block`);
        continue;
      }
      if (entry.kind === "toml-block") {
        if (!findTomlBlock(text)) config.push(`${entry.file}: bosun's block`);
        continue;
      }
      if (entry.kind === "setting") {
        // A setting may be in a TOML file (Codex's config.toml), by the file's name.
        const parsed = settingsSyntaxOf(entry.file).parse(text);
        if (!parsed.ok || !hasSetting(parsed.value, entry)) config.push(`${entry.file}: ${entry.path.join(".")}`);
        continue;
      }
      const parsed = parseConfig(text);
      if (!parsed.ok || !hasHookEntry(parsed.value, format, entry.event, entry.command)) config.push(`${entry.file}: ${entry.event} (${entry.hook})`);
    }
    const shared = root.key === "main" ? missingSharedSkills(runtime, root, manifest, options) : [];
    base.drift = { modified, missing, config, shared };
  }
  return base;
}

/**
 * The skill files a runtime reads from a shared folder where bosun put them (it skipped its own
 * copy, shared-folders.ts) that are no longer there: shown as paths from the home folder.
 */
function missingSharedSkills(runtime: InstallRuntime, root: InstallRoot, manifest: Manifest, options: StatusOptions): string[] {
  const packs = Object.entries(manifest.packs).filter(([, pack]) => !pack.heldFor).map(([name]) => name);
  if (packs.length === 0) return [];
  const gone: string[] = [];
  for (const dir of skippingReads(runtime, root.scope, options.ctx)) {
    const shared = readManifest(options.fs, join(dirname(dir), MANIFEST_FILE)).manifest;
    const base = basename(dir);
    for (const pack of packs) {
      for (const rel of shared.packs[pack]?.files ?? []) {
        const name = rel.startsWith(`${base}/`) && rel.endsWith("/SKILL.md") ? rel.slice(base.length + 1, -"/SKILL.md".length) : null;
        if (!name || name.includes("/") || Object.keys(manifest.files).some((own) => own.endsWith(`/${name}/SKILL.md`))) continue;
        const path = join(dirname(dir), rel);
        if (options.fs.lstatSync(path, { throwIfNoEntry: false }) === undefined) gone.push(displayPath(path, options.ctx.home));
      }
    }
  }
  return gone.sort();
}
