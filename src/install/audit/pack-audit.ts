import { join } from "node:path";
import { compareSettings, type AuditSettingInput, type ComparedSetting, type SettingKind } from "./pack-audit-settings.js";

export type { AuditSettingInput, SettingKind } from "./pack-audit-settings.js";

/** A hook registration the pack wants in one root. */
export interface AuditHookInput {
  hook: string;
  /** The runtime's own event name, and bosun's (null: the runtime's name maps to none). */
  event: string;
  bosunEvent: string | null;
  matcher?: string;
  command: string;
  /** The config file it is registered in, relative to the root. */
  file: string;
}

/** A hook registration of this pack that is installed now (bosun's manifest records these). */
export interface InstalledHookInput {
  hook: string;
  event: string;
  bosunEvent: string | null;
  command: string;
  file: string;
}

/** A file the pack installs with its executable bit set. */
export interface AuditExecutableInput {
  rel: string;
  /** `hook guard`, `skill x`…; null when not known. */
  artifact: string | null;
  /** The file is installed now, bosun's, and already executable. */
  wasExecutable: boolean;
}

/** Everything the audit looks at in one root of one runtime and scope. */
export interface AuditRootInput {
  runtime: string;
  title: string;
  scope: string;
  dir: string;
  hooks: readonly AuditHookInput[];
  installed: readonly InstalledHookInput[];
  executables: readonly AuditExecutableInput[];
  /** The settings entries the pack writes here, and the ones of this pack installed now. */
  settings: readonly AuditSettingInput[];
  installedSettings: readonly AuditSettingInput[];
}

/** `new`: not installed now; `changed`: installed with another command (or value); `unchanged`: installed as is. */
export type AuditChange = "new" | "changed" | "unchanged";

interface Where {
  runtime: string;
  title: string;
  scope: string;
  /** The root folder (absolute). */
  root: string;
}

export interface AuditHook extends Where {
  file: string;
  hook: string;
  event: string;
  bosunEvent: string | null;
  matcher?: string;
  command: string;
  change: AuditChange;
  /** For `changed`: the command installed now. */
  was?: string;
}

export interface RemovedHook extends Where {
  file: string;
  hook: string;
  event: string;
  bosunEvent: string | null;
  command: string;
}

export interface AuditExecutable extends Where {
  /** Absolute path. */
  path: string;
  artifact: string | null;
  change: "new" | "unchanged";
}

export interface AuditSetting extends Where, ComparedSetting {}

/** A settings entry of this pack installed now that it no longer writes. */
export interface RemovedSetting extends Where {
  file?: string;
  key: string;
  kind: SettingKind;
  value: string;
}

/** The audit of one run (all runtimes and scopes), as `--json` shows it under `audit`. */
export interface PackAudit {
  pack: string;
  hooks: AuditHook[];
  executables: AuditExecutable[];
  settings: AuditSetting[];
  /** Against what is installed now. `changed` entries are also in `hooks` (with `was`). */
  changes: {
    added: AuditHook[];
    changed: AuditHook[];
    removed: RemovedHook[];
    executables: AuditExecutable[];
    /** New and changed settings entries (a changed one has `was`). */
    settings: AuditSetting[];
    removedSettings: RemovedSetting[];
  };
  /** Nothing in `changes`: the pack runs exactly what it ran before. */
  unchanged: boolean;
}

/**
 * What a pack will run in the user's agents, worked out before anything is written: every hook
 * command (runtime, scope, event, matcher), every executable file, every settings entry that
 * widens what the agent may do, and — against what is installed now — what is new, changed or
 * gone. Pure: the inputs are gathered from the plan by pack-audit-inputs.ts.
 */
export function buildPackAudit(pack: string, roots: readonly AuditRootInput[]): PackAudit {
  const hooks: AuditHook[] = [];
  const removed: RemovedHook[] = [];
  const executables: AuditExecutable[] = [];
  const settings: AuditSetting[] = [];
  const removedSettings: RemovedSetting[] = [];
  for (const input of roots) {
    const where: Where = { runtime: input.runtime, title: input.title, scope: input.scope, root: input.dir };
    const { entries, gone } = compareHooks(input.hooks, input.installed);
    hooks.push(...entries.map((entry) => ({ ...where, ...entry })));
    removed.push(...gone.map((entry) => ({ ...where, ...entry })));
    for (const file of [...input.executables].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) executables.push({ ...where, path: join(input.dir, file.rel), artifact: file.artifact, change: file.wasExecutable ? "unchanged" : "new" });
    const compared = compareSettings(input.settings, input.installedSettings);
    settings.push(...compared.entries.map((entry) => ({ ...where, ...entry })));
    removedSettings.push(...compared.removed.map((entry) => ({ ...where, ...entry })));
  }
  const changes = {
    added: hooks.filter((hook) => hook.change === "new"),
    changed: hooks.filter((hook) => hook.change === "changed"),
    removed,
    executables: executables.filter((file) => file.change === "new"),
    settings: settings.filter((setting) => setting.change !== "unchanged"),
    removedSettings,
  };
  const unchanged = Object.values(changes).every((list) => list.length === 0);
  return { pack, hooks, executables, settings, changes, unchanged };
}

/** The audit has something to show: the pack runs something, or stops running something. */
export function auditHasEntries(audit: PackAudit): boolean {
  return audit.hooks.length + audit.executables.length + audit.settings.length + audit.changes.removed.length + audit.changes.removedSettings.length > 0;
}

type HookEntry = Omit<AuditHook, keyof Where>;

/**
 * Desired hooks against installed ones, matched by hook name and event: the same command is
 * unchanged, another one changed (old → new); an installed hook the pack no longer has is gone.
 */
function compareHooks(desired: readonly AuditHookInput[], installed: readonly InstalledHookInput[]): { entries: HookEntry[]; gone: Omit<RemovedHook, keyof Where>[] } {
  const key = (hook: { hook: string; event: string }) => `${hook.hook}\u0000${hook.event}`;
  const before = new Map<string, InstalledHookInput[]>();
  for (const hook of installed) before.set(key(hook), [...(before.get(key(hook)) ?? []), hook]);
  const matched = new Set<InstalledHookInput>();
  const entries = desired.map((hook): HookEntry => {
    const previous = before.get(key(hook)) ?? [];
    const same = previous.find((old) => old.command === hook.command);
    const other = previous.find((old) => !matched.has(old));
    const base = { file: hook.file, hook: hook.hook, event: hook.event, bosunEvent: hook.bosunEvent, ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }), command: hook.command };
    if (same) {
      matched.add(same);
      return { ...base, change: "unchanged" };
    }
    if (other) {
      matched.add(other);
      return { ...base, change: "changed", was: other.command };
    }
    return { ...base, change: "new" };
  });
  const gone = installed.filter((hook) => !matched.has(hook)).map((hook) => ({ file: hook.file, hook: hook.hook, event: hook.event, bosunEvent: hook.bosunEvent, command: hook.command }));
  return { entries, gone };
}

function objectEntries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
}

/** bosun's event for a runtime's event name (the runtime's events table read backwards); null when none maps to it. */
export function bosunEventOf(events: Readonly<Record<string, string | undefined>>, runtimeEvent: string): string | null {
  const names = Object.entries(events)
    .filter(([, name]) => name === runtimeEvent)
    .map(([event]) => event);
  return names.length > 0 ? names.join(" or ") : null;
}

/**
 * The hooks in a Copilot-style hook file (`{ hooks: { <event>: [{ bash }] } }`): bosun writes
 * one per hook, so reading it back gives the command installed now.
 */
export function hookFileEntries(text: string): { event: string; command: string }[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  return objectEntries(hooks).flatMap(([event, list]) =>
    (Array.isArray(list) ? list : []).flatMap((item) => {
      const command = (item as { bash?: unknown } | null)?.bash;
      return typeof command === "string" ? [{ event, command }] : [];
    }),
  );
}

/**
 * The matcher of the nested (Claude-style) config entry that runs `command` on `event`
 * (`hooks.<event>[].matcher`), as the config file has it; undefined when there is none.
 */
export function matcherInConfig(config: unknown, event: string, command: string): string | undefined {
  const list = (config as { hooks?: Record<string, unknown> } | null)?.hooks?.[event];
  for (const item of Array.isArray(list) ? list : []) {
    const group = item as { matcher?: unknown; hooks?: unknown } | null;
    const runs = Array.isArray(group?.hooks) && group.hooks.some((hook) => (hook as { command?: unknown } | null)?.command === command);
    if (runs) return typeof group?.matcher === "string" ? group.matcher : undefined;
  }
  return undefined;
}
