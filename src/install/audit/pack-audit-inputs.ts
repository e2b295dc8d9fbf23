import { join } from "node:path";
import { isSkip, type HookPlacement } from "../../runtimes/kit/install-types.js";
import type { DesiredFile, DesiredInstall } from "../plan/desired.js";
import type { InstallOutcome } from "../install-pack.js";
import { parseConfig } from "../config/json-hooks.js";
import { readOrNull, type InstallFs } from "../apply/install-fs.js";
import type { HookEntryRecord, Manifest, SettingRecord } from "../records/manifest.js";
import { bosunEventOf, buildPackAudit, hookFileEntries, matcherInConfig, type AuditExecutableInput, type AuditHookInput, type AuditRootInput, type AuditSettingInput, type InstalledHookInput, type PackAudit } from "./pack-audit.js";
import type { RootPlan } from "../plan/plan-types.js";
import type { InstallRoot } from "../records/root.js";
import type { PlannedRoot } from "../run-install.js";

/**
 * The pack audit of an install's plan (null for an uninstall). Reads what is installed now —
 * the mode of the executable files, the hook files of runtimes that register a hook by file —
 * so it must be built from the plan, before the plan is applied.
 */
export function auditOfPlan(outcome: InstallOutcome, fs: InstallFs): PackAudit | null {
  if (outcome.mode !== "install") return null;
  const plans = outcome.result.targets.flatMap(({ target, roots }) => roots.map((result) => ({ target, root: result.root, plan: result.plan })));
  return auditOfPlans(outcome.pack.name, plans, outcome.settled, fs);
}

/**
 * The pack audit of each root's plan. `settled`: a reinstall that planned nothing (settled.ts),
 * whose hooks and executables are the ones installed.
 */
export function auditOfPlans(pack: string, plans: readonly PlannedRoot[], settled: boolean, fs: InstallFs): PackAudit {
  const roots: AuditRootInput[] = [];
  for (const { target, root, plan } of plans) {
    const desired = target.desired;
    if (!desired) continue;
    const layout = target.runtime.installSurface.layout(target.scope, target.cli?.choice.edition);
    const manifest = plan.manifest.manifest;
    // A pack this one takes the place of in this run (succession.ts): its entries are this pack's installed ones.
    const packs = new Set([pack, ...plan.actions.filter((action) => action.type === "succeed-pack").map((action) => action.rel)]);
    const owned = new Set([...packs].flatMap((name) => manifest.packs[name]?.files ?? []));
    const context: RootContext = { fs, pack, packs, placement: isSkip(layout.hooks) ? null : layout.hooks, root, plan, manifest, owned };
    const installed = installedHooks(context);
    const fragments = settingsOf(context, desired);
    roots.push({
      runtime: target.runtime.id,
      title: target.runtime.title,
      scope: target.scope,
      dir: root.dir,
      installed,
      // A settled reinstall planned nothing: what is installed is what the pack runs.
      ...(settled ? { hooks: settledHooks(context, installed), executables: installedExecutables(context) } : { hooks: desiredHooks(context, desired), executables: desiredExecutables(context, desired.files) }),
      settings: settled ? fragments.installed : fragments.settings,
      installedSettings: fragments.installed,
    });
  }
  return buildPackAudit(pack, roots);
}

interface RootContext {
  fs: InstallFs;
  pack: string;
  /** The pack, and the packs it takes the place of in this run: what they recorded is installed now. */
  packs: ReadonlySet<string>;
  placement: HookPlacement | null;
  root: InstallRoot;
  plan: RootPlan;
  /** The manifest as it is now, before this run, and the files this pack owns in it. */
  manifest: Manifest;
  owned: ReadonlySet<string>;
}

/**
 * The settings entries the pack writes in this root, and the ones of this pack installed now.
 * `DesiredInstall` has no settings yet (issue 15's settings fragments add `desired.settings`,
 * and `setting` records to the manifest): this is the one place that maps them to the audit's
 * input (file, runtime key, exact value, entry or value).
 */
function settingsOf(context: RootContext, desired: DesiredInstall): { settings: AuditSettingInput[]; installed: AuditSettingInput[] } {
  const settings = desired.settings
    .filter((setting) => setting.root === context.root.key && setting.refused === undefined)
    .map((setting) => ({ file: setting.file, key: setting.key, value: setting.value, mode: setting.mode }));
  const installed = context.manifest.config
    .filter((record): record is SettingRecord => record.kind === "setting" && context.packs.has(record.pack))
    .map((record) => ({ file: record.file, key: record.path.join("."), value: record.value, mode: record.mode }));
  return { settings, installed };
}

const eventOf = (context: RootContext, event: string) => (context.placement ? bosunEventOf(context.placement.events, event) : null);

/** The pack's hooks in this root as the plan registers them: config entries, or one hook file each. */
function desiredHooks(context: RootContext, desired: DesiredInstall): AuditHookInput[] {
  const key = context.root.key;
  const records = context.plan.config.filter((record): record is HookEntryRecord => record.kind === "hook" && record.pack === context.pack);
  const hooks: AuditHookInput[] = desired.hooks
    .filter((hook) => hook.root === key)
    .map((hook) => ({
      hook: hook.hook,
      event: hook.event,
      bosunEvent: eventOf(context, hook.event),
      ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
      command: hook.command,
      file: records.find((record) => record.hook === hook.hook && record.event === hook.event && record.command === hook.command)?.file ?? (hook.files[0] as string),
    }));
  const register = context.placement?.register;
  if (register?.kind !== "file") return hooks;
  for (const file of desired.files) {
    const name = hookFileName(register.dir, file.rel);
    if (file.root !== key || name === null || file.artifact !== `hook ${name}` || file.source.kind !== "bytes") continue;
    for (const entry of hookFileEntries(file.source.bytes.toString("utf8"))) hooks.push({ hook: name, event: entry.event, bosunEvent: eventOf(context, entry.event), command: entry.command, file: file.rel });
  }
  return hooks;
}

/** This pack's hooks installed in the root now: the entries the manifest records, and its hook files. */
function installedHooks(context: RootContext): InstalledHookInput[] {
  const { manifest, packs } = context;
  const hooks: InstalledHookInput[] = manifest.config
    .filter((record): record is HookEntryRecord => record.kind === "hook" && packs.has(record.pack))
    .map((record) => ({ hook: record.hook, event: record.event, bosunEvent: eventOf(context, record.event), command: record.command, file: record.file }));
  const register = context.placement?.register;
  if (register?.kind !== "file") return hooks;
  for (const rel of context.owned) {
    const name = hookFileName(register.dir, rel);
    if (name === null) continue;
    const text = readOrNull(context.fs, join(context.root.dir, rel));
    for (const entry of text === null ? [] : hookFileEntries(text)) hooks.push({ hook: name, event: entry.event, bosunEvent: eventOf(context, entry.event), command: entry.command, file: rel });
  }
  return hooks;
}

/**
 * A settled root's hooks: the ones installed, each with its matcher read back from the config
 * file (the manifest records none), so the audit is the one a full plan makes.
 */
function settledHooks(context: RootContext, installed: readonly InstalledHookInput[]): AuditHookInput[] {
  const register = context.placement?.register;
  if (register?.kind !== "config" || register.format !== "nested") return [...installed];
  const configs = new Map<string, unknown>();
  const configOf = (file: string) => {
    if (!configs.has(file)) configs.set(file, readConfig(context.fs, join(context.root.dir, file)));
    return configs.get(file);
  };
  return installed.map((hook) => {
    const matcher = matcherInConfig(configOf(hook.file), hook.event, hook.command);
    return matcher === undefined ? hook : { ...hook, matcher };
  });
}

/** A config file's value (plain JSON first, JSONC when that fails); null when it cannot be read. */
function readConfig(fs: InstallFs, path: string): unknown {
  const text = readOrNull(fs, path);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    const parsed = parseConfig(text);
    return parsed.ok ? parsed.value : null;
  }
}

/** The hook a file directly in the runtime's hook-file folder registers (`hooks/<name>.json`), or null. */
function hookFileName(dir: string, rel: string): string | null {
  const match = rel.startsWith(`${dir}/`) ? /^([^/]+)\.json$/.exec(rel.slice(dir.length + 1)) : null;
  return match ? (match[1] as string) : null;
}

/** The pack's executable files in this root, and whether each is so already (installed, bosun's, executable). */
function desiredExecutables(context: RootContext, files: readonly DesiredFile[]): AuditExecutableInput[] {
  return files.filter((file) => file.root === context.root.key && (file.mode & 0o111) !== 0).map((file) => ({ rel: file.rel, artifact: file.artifact, wasExecutable: installedExecutable(context, file.rel) }));
}

/**
 * A settled root: the pack's installed files that are executable, in the plan's order, with the
 * artifact its `keep-file` action names (a settled plan's reasons are a full plan's: `<artifact>: unchanged`).
 */
function installedExecutables(context: RootContext): AuditExecutableInput[] {
  // The settled check looked at every file already: no second walk.
  const known = context.plan.settledExecutables;
  const executable = (rel: string) => (known ? known.has(rel) && context.owned.has(rel) : installedExecutable(context, rel));
  return context.plan.actions
    .filter((action) => action.type === "keep-file" && executable(action.rel))
    .map((action) => ({ rel: action.rel, artifact: action.reason.endsWith(": unchanged") ? action.reason.slice(0, -": unchanged".length) : null, wasExecutable: true }));
}

function installedExecutable(context: RootContext, rel: string): boolean {
  if (!context.owned.has(rel)) return false;
  try {
    const info = context.fs.lstatSync(join(context.root.dir, rel), { throwIfNoEntry: false });
    return info !== undefined && info.isFile() && (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
