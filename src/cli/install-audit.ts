import * as nodeFs from "node:fs";
import type { Boot } from "../app/start.js";
import type { InstallOutcome, InstallPackOptions } from "../install/install-pack.js";
import type { PackAudit } from "../install/audit/pack-audit.js";
import { auditOfPlan, auditOfPlans } from "../install/audit/pack-audit-inputs.js";
import { styler, writeLine, type Output } from "./output.js";

/**
 * The audit of a preview's plan (pack-audit.ts): what the pack will run, compared with what is
 * installed now. Built before anything is written; null for an uninstall.
 */
export async function auditOfPreview(preview: InstallOutcome): Promise<PackAudit | null> {
  return auditOfPlan(preview, nodeFs);
}

/**
 * A run's `beforeApply`: the audit of the plans the run applies (made again under the lock) goes
 * to `keep`; with `--yes` it is written on stderr right then, before the first write, even with
 * `--quiet` (unless it is only the line saying nothing new runs). An error found before that (a
 * held lock, an interrupted run that cannot be undone) is still the only line.
 */
export async function auditBeforeApplying(yes: boolean, boot: Boot, output: Output, keep: (audit: PackAudit) => void): Promise<NonNullable<InstallPackOptions["beforeApply"]>> {
  const { auditLines } = await import("./render-audit.js");
  return (plans) => {
    const pack = plans[0]?.plan.pack.name;
    if (pack === undefined) return;
    const audit = auditOfPlans(pack, plans, false, nodeFs);
    keep(audit);
    if (!yes || (audit.unchanged && output.verbosity === "quiet")) return;
    for (const line of auditLines(audit, "changes", boot.paths.home, styler(output, "stderr"))) writeLine(output.stderr, line);
  };
}
