import type { StartupReport, StepReport } from "../startup/runner.js";
import { columns } from "./output.js";

type Style = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;

/**
 * Lines for a migration report: one per step with its outcome, then each change and each
 * warning. `verbose` adds the informational notes (why a step had nothing to do).
 */
export function migrationLines(report: StartupReport, style: Style, verbose = false): string[] {
  const lines: string[] = [];
  const rows = report.steps.map((step) => [step.id, stepOutcome(step, report.dryRun, style)]);
  columns(rows).forEach((row, i) => {
    lines.push(row);
    const step = report.steps[i]!;
    const verb = report.dryRun ? "would" : "did";
    for (const action of step.actions) lines.push(`      ${style("dim", verb)} ${action.describe}`);
    for (const note of step.notes) {
      if (note.level === "warn") lines.push(`      ${style("yellow", "!")} ${note.message}`);
      else if (verbose) lines.push(`      ${style("dim", note.message)}`);
    }
  });
  return lines;
}

function stepOutcome(step: StepReport, dryRun: boolean, style: Style): string {
  const count = step.actions.length;
  const source = step.source === "builtin" ? "" : style("dim", ` (${step.source})`);
  if (count === 0) return style("dim", "nothing to do") + source;
  const changes = `${count} change${count === 1 ? "" : "s"}`;
  return (dryRun ? style("cyan", `${changes} planned`) : style("green", `${changes} applied`)) + source;
}
