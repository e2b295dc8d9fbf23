/** A settings entry a pack writes into a runtime's config: the runtime's own key path and the exact value. */
export interface AuditSettingInput {
  /** The config file, relative to the root, when known. */
  file?: string;
  /** The runtime's key path: `permissions.allow`, `statusLine`, `env`, `env.NAME`… */
  key: string;
  value: unknown;
  /** `entry`: one entry of the list at `key` (a permission rule); `value`: the whole value there. Absent: a list value is entries, anything else a value. */
  mode?: "entry" | "value";
}

/**
 * `permission`: a rule or mode that lets the agent do more; `command`: a command the runtime runs
 * (a status line, a helper); `env`: a variable set for the agent; `mcp`: an MCP server the agent
 * starts (its command line) or connects to (its URL).
 */
export type SettingKind = "permission" | "command" | "env" | "mcp";

/** The keys that hold an agent's MCP servers, one entry per server name. */
const MCP_KEYS = new Set(["mcpServers", "mcp", "mcp_servers"]);

/** One thing a settings entry grants, runs or sets. */
export interface WideningEntry {
  file?: string;
  key: string;
  kind: SettingKind;
  /** What is granted, run or set, as one line (`Bash(npm test:*)`, the command, `NAME=value`). */
  value: string;
  /** One entry of a list (another value at the same key is another entry, not a change). */
  list: boolean;
}

/** A widening entry compared with what is installed: `was` is the value there before, for `changed`. */
export interface ComparedSetting extends Omit<WideningEntry, "list"> {
  change: "new" | "changed" | "unchanged";
  was?: string;
}

/** Permission lists that narrow what the agent may do: not listed (they run nothing and grant nothing). */
const NARROWING = new Set(["deny", "ask"]);
/** Keys whose value is a command the runtime runs (Claude Code's helpers). */
const COMMAND_KEY = /(helper|command|export|refresh)$/i;

/**
 * The parts of one settings entry that widen what runs or what the agent may do, one per rule,
 * command or variable: permission rules and modes (not deny/ask lists), a status line or any
 * value with a `command`, helper commands, and environment variables. Other settings (a theme,
 * a model) are not listed.
 */
export function widening(setting: AuditSettingInput): WideningEntry[] {
  const parts = setting.key.split(".");
  const top = parts[0] ?? "";
  const entry = (key: string, kind: SettingKind, value: string, list: boolean): WideningEntry => ({ ...(setting.file === undefined ? {} : { file: setting.file }), key, kind, value, list });
  if (top === "env") {
    if (parts.length > 1) return [entry(setting.key, "env", `${parts.slice(1).join(".")}=${scalarText(setting.value)}`, false)];
    return objectEntries(setting.value).map(([name, value]) => entry(`env.${name}`, "env", `${name}=${scalarText(value)}`, false));
  }
  if (top === "permissions") {
    if (parts.length === 1) return objectEntries(setting.value).flatMap(([name, value]) => widening({ ...setting, key: `permissions.${name}`, value }));
    if (NARROWING.has(parts[1] as string)) return [];
    const list = setting.mode === "entry" || Array.isArray(setting.value);
    const values = Array.isArray(setting.value) ? setting.value : [setting.value];
    return values.map((value) => entry(setting.key, "permission", scalarText(value), list));
  }
  if (MCP_KEYS.has(top) && parts.length === 2) {
    const server = mcpServerText(setting.value);
    if (server !== null) return [entry(setting.key, "mcp", server, false)];
  }
  const command = commandOf(setting.value);
  if (command !== null) return [entry(setting.key, "command", command, false)];
  if (COMMAND_KEY.test(parts.at(-1) as string) && typeof setting.value === "string") return [entry(setting.key, "command", setting.value, false)];
  return [];
}

/**
 * The pack's widening entries against the ones installed now (bosun's manifest records its
 * settings edits): a list entry is there or not; a value at the same key that differs is
 * changed (with the value before). Installed entries the pack no longer writes are `removed`.
 */
export function compareSettings(desired: readonly AuditSettingInput[], installed: readonly AuditSettingInput[]): { entries: ComparedSetting[]; removed: Omit<WideningEntry, "list">[] } {
  const identity = (entry: WideningEntry) => `${entry.file ?? ""}\u0000${entry.key}\u0000${entry.list ? entry.value : ""}`;
  const before = new Map(installed.flatMap(widening).map((entry) => [identity(entry), entry]));
  const seen = new Set<string>();
  const entries = desired.flatMap(widening).map(({ list: _list, ...entry }, index, all): ComparedSetting => {
    const id = identity(all[index] as WideningEntry);
    seen.add(id);
    const old = before.get(id);
    if (!old) return { ...entry, change: "new" };
    return old.value === entry.value ? { ...entry, change: "unchanged" } : { ...entry, change: "changed", was: old.value };
  });
  const removed = [...before].filter(([id]) => !seen.has(id)).map(([, { list: _list, ...entry }]) => entry);
  return { entries, removed };
}

/**
 * An MCP server entry as one line: the command line it starts (`command` and `args`, or
 * OpenCode's command list) with the names of the variables it gets, or `url <address>`.
 */
function mcpServerText(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const entry = value as Record<string, unknown>;
  const url = typeof entry.url === "string" ? entry.url : typeof entry.httpUrl === "string" ? entry.httpUrl : null;
  if (url !== null) return `url ${url}`;
  const words = Array.isArray(entry.command) ? entry.command : [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])];
  if (!words.every((word) => typeof word === "string") || words.length === 0) return null;
  // Codex forwards variables by name (env_vars) beside the ones it sets (env).
  const forwarded = Array.isArray(entry.env_vars) ? entry.env_vars.filter((name): name is string => typeof name === "string") : [];
  const env = [...objectEntries(entry.env ?? entry.environment).map(([name]) => name), ...forwarded];
  return `${words.join(" ")}${env.length > 0 ? ` (env ${env.join(", ")})` : ""}`;
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
