import { displayPath } from "../kernel/paths.js";
import type { RootStatus } from "../install/records/install-status.js";
import { GROUP_LABELS, REPORT_GROUPS, type InstallReport, type ReportGroup, type RootReport } from "../install/report.js";
import { columns } from "./output.js";
import { auditLines, type AuditForm } from "./render-audit.js";

type Style = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;

const GROUP_STYLE: Partial<Record<ReportGroup, "green" | "yellow" | "red" | "cyan">> = {
  added: "green",
  replaced: "cyan",
  moved: "cyan",
  config: "cyan",
  removed: "yellow",
  "backed-up": "yellow",
  "needs-choice": "red",
  blocked: "red",
};

/**
 * The text report of an install or uninstall: per runtime and root, what happened (or would,
 * for a dry run) grouped by risk. Kept and recorded files are counted; every other action is
 * listed with its reason, so nothing destructive is ever folded away. Then what the pack will run
 * (render-audit.ts): in full for a dry run, its changes otherwise; `none` when it was shown
 * before the run was applied.
 */
export function installLines(report: InstallReport, home: string, style: Style, audit: AuditForm | "none" = report.dryRun ? "full" : "changes"): string[] {
  const show = (path: string) => displayPath(path, home);
  const verb = report.mode === "install" ? "install" : "uninstall";
  const lines: string[] = [];
  const packName = `${report.pack.name}${report.pack.version ? ` ${report.pack.version}` : ""}`;
  lines.push(style("bold", report.dryRun ? `bosun ${verb} --dry-run: pack ${packName} (nothing was changed)` : `bosun ${verb}: pack ${packName}`));
  for (const target of report.targets) {
    for (const root of target.roots) {
      lines.push("", `${style("bold", `${target.title} (${target.scope})`)}  ${show(root.dir)}  ${rootState(root, report, style)}`);
      if (root.interrupted) lines.push(`  ${style("yellow", "an interrupted install is here; it is rolled back before anything else")}`);
      for (const run of root.recovered) lines.push(`  ${style("yellow", `rolled back the interrupted run ${run} first`)}`);
      lines.push(...groupLines(root, style));
      for (const migration of root.migrations) lines.push(`  ${style("dim", `migration ${migration.id}: ${migration.title} (${migration.actions} action${migration.actions === 1 ? "" : "s"})`)}`);
      for (const drift of root.drift) lines.push(`  ${style("dim", `migration ${drift.id} changed since it was applied (${drift.stored.slice(0, 19)}… → ${drift.current.slice(0, 19)}…); its record is updated, it does not run again`)}`);
      for (const backup of root.backups) lines.push(`  backup: ${show(`${root.dir}/${backup}`)}`);
      for (const note of root.notes) lines.push(`  ${style("yellow", "!")} ${note}`);
    }
    if (target.cli?.version) lines.push(`  ${style("dim", `${target.title} ${target.cli.version} (${show(target.cli.path ?? "")}): bosun follows its contract for ${target.cli.contract}`)}`);
    for (const skipped of target.skipped) lines.push(`  ${style("dim", `skipped ${skipped.kind} ${skipped.name}: ${skipped.reason}`)}`);
    for (const note of target.notes) lines.push(`  note: ${note}`);
  }
  const ran = report.audit && audit !== "none" ? auditLines(report.audit, audit, home, style) : [];
  if (ran.length > 0) lines.push("", ...ran);
  if (report.helper) lines.push("", `Hook helper  ${show(report.helper.path)}  ${report.helper.installed ? "installed" : report.dryRun ? "would be installed" : "already there (kept current by bosun's startup migrations)"}`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  for (const warning of report.warnings) lines.push(style("yellow", `warning: ${warning}`));
  return lines;
}

function rootState(root: RootReport, report: InstallReport, style: Style): string {
  if (root.status === "unchanged") return style("dim", "nothing to change");
  if (root.status === "planned") return style("cyan", "changes planned");
  return style("green", report.mode === "install" ? "installed" : "uninstalled");
}

function groupLines(root: RootReport, style: Style): string[] {
  const lines: string[] = [];
  const quiet: string[] = [];
  if (root.counts.kept > 0) quiet.push(`${root.counts.kept} kept`);
  if (root.counts.unchanged > 0) quiet.push(`${root.counts.unchanged} recorded`);
  if (quiet.length > 0) lines.push(`  ${style("dim", quiet.join(", "))}`);
  for (const group of REPORT_GROUPS) {
    if (group === "kept" || group === "unchanged") continue;
    const actions = root.actions.filter((action) => action.group === group);
    if (actions.length === 0) continue;
    const color = GROUP_STYLE[group];
    const label = `${GROUP_LABELS[group]} (${actions.length})`;
    lines.push(`  ${color ? style(color, label) : label}`);
    const rows = actions.map((action) => [
      action.to ? `${action.path} → ${action.to}` : action.path,
      [action.blocked ?? action.reason, action.outcome && action.outcome !== "done" ? `[${action.outcome}]` : "", action.choices && !action.resolution ? `(${action.choices.join(" / ")})` : "", action.resolution ? `(you chose ${action.resolution})` : ""]
        .filter(Boolean)
        .join(" "),
    ]);
    lines.push(...columns(rows, "    "));
  }
  return lines;
}

/** `bosun install --status`: one row per root. */
export function installStatusLines(statuses: RootStatus[], home: string, style: Style): string[] {
  if (statuses.length === 0) return [style("dim", "No coding agent folder found here (bosun install --runtime R --scope global|local installs one).")];
  const rows = statuses.map((status) => {
    const packs = status.packs.map((pack) => `${pack.name} ${pack.version}${pack.heldFor ? ` (uninstalled; kept for ${pack.heldFor.join(", ")})` : ""}`).join(", ");
    const sharedGone = status.drift?.shared.length ? `${status.drift.shared.join(", ")} gone (read from a shared folder)` : "";
    const drift = status.drift ? [status.drift.modified.length > 0 ? `${status.drift.modified.length} edited` : "", status.drift.missing.length > 0 ? `${status.drift.missing.length} deleted` : "", status.drift.config.length > 0 ? `${status.drift.config.length} config entries gone` : "", sharedGone].filter(Boolean).join(", ") : "";
    return [
      status.runtime,
      status.scope + (status.key === "main" ? "" : ` (${status.key})`),
      displayPath(status.dir, home),
      status.installed ? packs : style("dim", status.exists ? "not installed" : "no folder"),
      status.installed ? `${status.files} files` : "",
      status.installed ? `${status.migrations.length} migration${status.migrations.length === 1 ? "" : "s"}` : "",
      [status.interrupted ? style("yellow", "interrupted install (run bosun install)") : "", drift ? style("yellow", drift) : status.installed && status.drift ? style("green", "no drift") : "", ...status.problems.map((problem) => style("yellow", problem))].filter(Boolean).join("; "),
    ];
  });
  return columns([["RUNTIME", "SCOPE", "ROOT", "PACK", "FILES", "MIGRATIONS", "DRIFT"], ...rows]);
}
