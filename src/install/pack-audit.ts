import { join } from "node:path";

/** A settings entry a pack writes into a runtime's config: the runtime's own key path and the exact value. */
export interface AuditSettingInput {
  /** The config file, relative to the root, when known. */
  file?: string;
  /** The runtime's key path: `permissions.allow`, `statusLine`, `env`, `env.NAME`… */
  key: string;
  value: unknown;
  /** Already there from an earlier install of this pack. Absent (not known): shown as new. */
  installed?: boolean;
}

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
  settings: readonly AuditSettingInput[];
}

/** `new`: not installed now; `changed`: installed with another command; `unchanged`: installed as is. */
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

/** `permission`: a rule or mode that lets the agent do more; `command`: a command the runtime runs (a status line, a helper); `env`: a variable set for the agent. */
export type SettingKind = "permission" | "command" | "env";

export interface AuditSetting extends Where {
  file?: string;
  key: string;
  kind: SettingKind;
  /** What is granted, run or set, as one line (`Bash(npm test:*)`, the command, `NAME=value`). */
  value: string;
  change: "new" | "unchanged";
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
    settings: AuditSetting[];
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
  for (const input of roots) {
    const where: Where = { runtime: input.runtime, title: input.title, scope: input.scope, root: input.dir };
    const { entries, gone } = compareHooks(input.hooks, input.installed);
    hooks.push(...entries.map((entry) => ({ ...where, ...entry })));
    removed.push(...gone.map((entry) => ({ ...where, ...entry })));
    for (const file of [...input.executables].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) executables.push({ ...where, path: join(input.dir, file.rel), artifact: file.artifact, change: file.wasExecutable ? "unchanged" : "new" });
    for (const setting of input.settings) settings.push(...widening(setting).map((entry) => ({ ...where, ...entry })));
  }
  const changes = {
    added: hooks.filter((hook) => hook.change === "new"),
    changed: hooks.filter((hook) => hook.change === "changed"),
    removed,
    executables: executables.filter((file) => file.change === "new"),
    settings: settings.filter((setting) => setting.change === "new"),
  };
  const unchanged = Object.values(changes).every((list) => list.length === 0);
  return { pack, hooks, executables, settings, changes, unchanged };
}

/** The audit has something to show: the pack runs something, or stops running something. */
export function auditHasEntries(audit: PackAudit): boolean {
  return audit.hooks.length + audit.executables.length + audit.settings.length + audit.changes.removed.length > 0;
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

/** Permission lists that narrow what the agent may do: not listed (they run nothing and grant nothing). */
const NARROWING = new Set(["deny", "ask"]);
/** Keys whose value is a command the runtime runs (Claude Code's helpers). */
const COMMAND_KEY = /(helper|command|export|refresh)$/i;

type SettingEntry = Omit<AuditSetting, keyof Where>;

/**
 * The parts of one settings entry that widen what runs or what the agent may do, one per rule,
 * command or variable: permission rules and modes (not deny/ask lists), a status line or any
 * value with a `command`, helper commands, and environment variables. Other settings (a theme,
 * a model) are not listed.
 */
export function widening(setting: AuditSettingInput): SettingEntry[] {
  const parts = setting.key.split(".");
  const top = parts[0] ?? "";
  const entry = (key: string, kind: SettingKind, value: string): SettingEntry => ({ ...(setting.file === undefined ? {} : { file: setting.file }), key, kind, value, change: setting.installed ? "unchanged" : "new" });
  if (top === "env") {
    if (parts.length > 1) return [entry(setting.key, "env", `${parts.slice(1).join(".")}=${scalarText(setting.value)}`)];
    return objectEntries(setting.value).map(([name, value]) => entry(`env.${name}`, "env", `${name}=${scalarText(value)}`));
  }
  if (top === "permissions") {
    if (parts.length === 1) return objectEntries(setting.value).flatMap(([name, value]) => widening({ ...setting, key: `permissions.${name}`, value }));
    if (NARROWING.has(parts[1] as string)) return [];
    const values = Array.isArray(setting.value) ? setting.value : [setting.value];
    return values.map((value) => entry(setting.key, "permission", scalarText(value)));
  }
  const command = commandOf(setting.value);
  if (command !== null) return [entry(setting.key, "command", command)];
  if (COMMAND_KEY.test(parts.at(-1) as string) && typeof setting.value === "string") return [entry(setting.key, "command", setting.value)];
  return [];
}

function commandOf(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const command = (value as Record<string, unknown>).command;
  return typeof command === "string" ? command : null;
}

function objectEntries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
}

function scalarText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
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
