import { displayPath, displayPathsIn } from "../kernel/paths.js";
import type { LockCheck } from "../install/lock/lock-check.js";
import type { LockReport } from "../install/lock/lock-record.js";

/** The report line about the lock after an install or uninstall; null when it did not change. */
export function lockLine(report: LockReport | { file: string; error: string }, home: string): string | null {
  const file = displayPath(report.file, home);
  if ("error" in report) return `Lock  ${file}  not written: ${report.error}; the install is done, run it again to record it`;
  if (report.write === "unchanged") return null;
  return `Lock  ${file}  ${report.write}${report.attributes ? " (and bosun.lock merge=union added to .gitattributes)" : ""}`;
}

type Style = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;

/** The text report of a lock check: what was compared, then one line per drift. */
export function lockCheckLines(check: LockCheck, home: string, style: Style): string[] {
  const what = `${check.checked.packs.length} pack${check.checked.packs.length === 1 ? "" : "s"}, ${check.checked.installs.length} install${check.checked.installs.length === 1 ? "" : "s"}`;
  const head = `${style("bold", "Lock")}  ${displayPath(check.file, home)}  ${what}`;
  if (check.ok) return [`${head}  ${style("green", "matches")}`];
  return [`${head}  ${style("red", `${check.drift.length} difference${check.drift.length === 1 ? "" : "s"}`)}`, ...check.drift.map((drift) => `  ${style("yellow", drift.kind.padEnd(13))} ${displayPathsIn(drift.text, home)}`)];
}
