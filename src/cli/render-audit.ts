import { relative } from "node:path";
import { displayPath } from "../kernel/paths.js";
import { auditHasEntries, type AuditExecutable, type AuditHook, type AuditSetting, type PackAudit, type RemovedHook, type RemovedSetting } from "../install/audit/pack-audit.js";

type Style = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;

/**
 * How much of the audit a block shows: `full` lists everything the pack runs (`--dry-run`);
 * `changes` lists what is new, changed or removed since the install before, and counts the rest
 * (one line when nothing is new).
 */
export type AuditForm = "full" | "changes";

const MARK = { new: "+", changed: "~", unchanged: " ", removed: "-" } as const;
const MARK_STYLE = { new: "green", changed: "cyan", removed: "yellow" } as const;

/**
 * "What pack P will run in your agents": one block for the whole run, by runtime and scope,
 * each hook with its event (the runtime's name, then bosun's), matcher, config file and exact
 * command; each executable file; each settings entry that widens what the agent may do. No
 * lines when the pack runs nothing and stops running nothing.
 */
export function auditLines(audit: PackAudit, form: AuditForm, home: string, style: Style): string[] {
  if (!auditHasEntries(audit)) return [];
  const total = countText(audit.hooks.length, audit.executables.length, audit.settings);
  if (form === "changes" && audit.unchanged) return [`${style("bold", `What pack ${audit.pack} will run in your agents: nothing new`)} (${total}, as installed; --dry-run lists them)`];
  const lines = [style("bold", `What pack ${audit.pack} will run in your agents`) + headline(audit, form, total)];
  for (const group of byTarget(audit)) {
    const rows = [
      ...group.hooks.filter((hook) => form === "full" || hook.change !== "unchanged").flatMap((hook) => hookLines(hook, hook.change, style)),
      ...group.removed.flatMap((hook) => hookLines(hook, "removed", style)),
      ...group.executables.filter((file) => form === "full" || file.change === "new").map((file) => executableLine(file, style)),
      ...group.settings.filter((setting) => form === "full" || setting.change !== "unchanged").flatMap((setting) => settingLines(setting, setting.change, style)),
      ...group.removedSettings.flatMap((setting) => settingLines(setting, "removed", style)),
    ];
    if (rows.length > 0) lines.push(`  ${style("bold", `${group.title} (${group.scope})`)}  ${displayPath(group.root, home)}`, ...rows);
  }
  if (form === "changes") {
    const same = countText(audit.hooks.filter((hook) => hook.change === "unchanged").length, audit.executables.length - audit.changes.executables.length, audit.settings.filter((setting) => !audit.changes.settings.includes(setting)));
    if (same !== "nothing") lines.push(`  ${style("dim", `unchanged: ${same} (--dry-run lists them)`)}`);
  }
  return lines;
}

function headline(audit: PackAudit, form: AuditForm, total: string): string {
  const { added, changed, removed, executables, settings, removedSettings } = audit.changes;
  const changedSettings = settings.filter((setting) => setting.change === "changed").length;
  const news = added.length + executables.length + settings.length - changedSettings;
  const changes = changed.length + changedSettings;
  const gone = removed.length + removedSettings.length;
  const parts = [news > 0 ? `${news} new` : "", changes > 0 ? `${changes} changed` : "", gone > 0 ? `${gone} removed` : ""].filter(Boolean);
  const everything = news === audit.hooks.length + audit.executables.length + audit.settings.length && changes + gone === 0;
  if (form === "full") return `: ${total}${audit.unchanged ? ", as installed" : everything ? ", all new" : ` (${parts.join(", ")})`}`;
  return everything ? `: ${total}, all new` : `, changed since it was installed: ${parts.join(", ")}`;
}

function hookLines(hook: AuditHook | RemovedHook, change: keyof typeof MARK, style: Style): string[] {
  const event = hook.bosunEvent ? `${hook.event} (${hook.bosunEvent})` : hook.event;
  const matcher = "matcher" in hook && hook.matcher !== undefined ? `, matcher ${JSON.stringify(hook.matcher)}` : "";
  const head = `${mark(change, style)} hook ${hook.hook}: ${event}${matcher}, in ${hook.file}${change === "removed" ? ", removed" : ""}`;
  if (change === "changed" && "was" in hook) return [head, `        now  ${hook.command}`, `        was  ${hook.was ?? ""}`];
  return [head, `        ${hook.command}`];
}

function executableLine(file: AuditExecutable, style: Style): string {
  return `${mark(file.change, style)} executable ${relative(file.root, file.path)}${file.artifact ? ` (${file.artifact})` : ""}`;
}

function settingLines(setting: AuditSetting | RemovedSetting, change: keyof typeof MARK, style: Style): string[] {
  const what = setting.kind === "permission" ? "allows" : setting.kind === "command" ? "runs" : setting.kind === "mcp" ? (setting.value.startsWith("url ") ? "connects to" : "starts") : "sets";
  const value = setting.kind === "mcp" && setting.value.startsWith("url ") ? setting.value.slice(4) : setting.value;
  const subject = setting.kind === "mcp" ? `mcp server ${setting.key.split(".").slice(1).join(".")}` : `setting ${setting.key}`;
  const head = `${mark(change, style)} ${subject}${setting.file ? ` in ${setting.file}` : ""} ${what} ${value}${change === "removed" ? ", removed" : ""}`;
  return change === "changed" && "was" in setting ? [head, `        was  ${setting.was ?? ""}`] : [head];
}

function mark(change: keyof typeof MARK, style: Style): string {
  const color = change === "unchanged" ? undefined : MARK_STYLE[change];
  return `    ${color ? style(color, MARK[change]) : MARK[change]}`;
}

/** "18 hooks, 40 executable files, 6 settings, 2 MCP servers" (MCP server entries counted apart from the other settings). */
function countText(hooks: number, executables: number, entries: readonly { kind: string }[]): string {
  const servers = entries.filter((entry) => entry.kind === "mcp").length;
  const settings = entries.length - servers;
  const parts = [hooks > 0 ? plural(hooks, "hook") : "", executables > 0 ? plural(executables, "executable file") : "", settings > 0 ? plural(settings, "setting") : "", servers > 0 ? plural(servers, "MCP server") : ""].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "nothing";
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

interface TargetGroup {
  title: string;
  scope: string;
  root: string;
  hooks: AuditHook[];
  removed: RemovedHook[];
  executables: AuditExecutable[];
  settings: AuditSetting[];
  removedSettings: RemovedSetting[];
}

/** The audit's entries by root, in the order the run lists its runtimes. */
function byTarget(audit: PackAudit): TargetGroup[] {
  const groups = new Map<string, TargetGroup>();
  const group = (entry: { title: string; scope: string; root: string }) => {
    const key = `${entry.scope}\u0000${entry.root}`;
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { title: entry.title, scope: entry.scope, root: entry.root, hooks: [], removed: [], executables: [], settings: [], removedSettings: [] }));
    return found;
  };
  for (const hook of audit.hooks) group(hook).hooks.push(hook);
  for (const hook of audit.changes.removed) group(hook).removed.push(hook);
  for (const file of audit.executables) group(file).executables.push(file);
  for (const setting of audit.settings) group(setting).settings.push(setting);
  for (const setting of audit.changes.removedSettings) group(setting).removedSettings.push(setting);
  return [...groups.values()];
}
