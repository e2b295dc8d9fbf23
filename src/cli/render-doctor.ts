import { displayPath, displayPathsIn } from "../kernel/paths.js";
import { kindWord } from "../doctor/artifacts.js";
import type { ClosingCheck } from "../doctor/closing-check.js";
import type { ArtifactDoctor, DoctorReport, RuntimeDoctor } from "../doctor/doctor.js";
import { lockCheckLines } from "./render-lock.js";

type Style = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;

/**
 * The text report of `bosun doctor`: per runtime, its roots (intact or what changed), each
 * artifact as its CLI loaded it, the sign-in; then the hook's snapshot, then one line per problem.
 */
export function doctorLines(report: DoctorReport, home: string, style: Style): string[] {
  const show = (path: string) => displayPath(path, home);
  const lines: string[] = [style("bold", "bosun doctor")];
  if (report.runtimes.length === 0) lines.push("", "bosun installed no pack yet (bosun install --runtime R --scope global)");
  for (const runtime of report.runtimes) lines.push("", ...runtimeLines(runtime, home, style));
  lines.push("", hookLine(report, show, style));
  if (report.lock) lines.push("", ...lockSectionLines(report.lock, home, style));
  if (report.problems.length > 0) {
    lines.push("", style("bold", `Problems (${report.problems.length})`));
    for (const problem of report.problems) lines.push(`  ${style("red", "✗")} ${displayPathsIn(problem.text, home)}`);
  } else lines.push("", style("green", report.runtimes.length === 0 ? "nothing to check" : "everything bosun installed is intact and loaded"));
  return lines;
}

function runtimeLines(runtime: RuntimeDoctor, home: string, style: Style): string[] {
  const show = (path: string) => displayPath(path, home);
  const cli = runtime.cli ? (runtime.cli.path ? show(runtime.cli.path) : style("dim", `${runtime.cli.binary} not installed`)) : style("dim", "no CLI check");
  const lines = [`${style("bold", runtime.title)}  ${cli}  ${signInText(runtime, style)}`];
  for (const root of runtime.roots) {
    const packs = root.packs.map((pack) => `${pack.name} ${pack.version}`).join(", ");
    const changed = root.intact.files.length + root.intact.config.length + root.intact.problems.length;
    lines.push(`  ${root.scope}  ${show(root.dir)}  ${packs}  ${root.intact.ok ? style("green", "intact") : style("red", `${changed} change${changed === 1 ? "" : "s"}`)}`);
    for (const file of root.intact.files) lines.push(`    ${style("yellow", file.change)}  ${file.path}`);
    for (const entry of root.intact.config) lines.push(`    ${style("yellow", "entry gone")}  ${entry}`);
    for (const problem of root.intact.problems) lines.push(`    ${style("yellow", problem)}`);
  }
  if (runtime.probe) lines.push(`  ${style("dim", `asked: ${runtime.probe.asked} (${(runtime.probe.ms / 1000).toFixed(1)} s)`)}${runtime.probe.failure ? `  ${style("red", runtime.probe.failure)}` : ""}`);
  for (const artifact of runtime.artifacts) lines.push(`    ${stateMark(artifact, style)}  ${kindWord(artifact.kind)} ${artifact.name} (${artifact.scope})${artifact.reason ? style("dim", `  ${displayPathsIn(artifact.reason, home)}`) : ""}`);
  return lines;
}

function stateMark(artifact: ArtifactDoctor, style: Style): string {
  switch (artifact.state) {
    case "loaded":
      return style("green", "loaded    ");
    case "waiting":
      return style("yellow", "waiting   ");
    case "not-loaded":
      return style("red", "not loaded");
    default:
      return style("dim", "unchecked ");
  }
}

function signInText(runtime: RuntimeDoctor, style: Style): string {
  const auth = runtime.signIn;
  if (!auth) return "";
  if (auth.error) return style("yellow", `sign-in: ${auth.error}`);
  if (!auth.connected) return style("dim", "not signed in");
  return `signed in (${auth.mode === "env" ? auth.authPath : "own login"})`;
}

/** The lock section: the check's lines (as `bosun install --check` prints them), or why the lock could not be read. */
function lockSectionLines(lock: NonNullable<DoctorReport["lock"]>, home: string, style: Style): string[] {
  if ("error" in lock) return [`${style("bold", "Lock")}  ${displayPath(lock.file, home)}  ${style("red", "cannot be read")} (see Problems)`];
  return lockCheckLines(lock, home, style);
}

function hookLine(report: DoctorReport, show: (path: string) => string, style: Style): string {
  const { hook } = report;
  if (hook.problem) return `Hook status  ${style("yellow", `${show(hook.path)} ${hook.problem}`)} (bosun status writes a new one)`;
  if (!hook.generatedAt) return `Hook status  ${style("dim", "none yet: the hook shows a fallback line until bosun status or bosun install writes it")}`;
  return `Hook status  last written ${hook.generatedAt} (${show(hook.path)})`;
}

/** The closing check after `bosun install`: one line per runtime asked, then each problem. */
export function closingCheckLines(check: ClosingCheck, home: string, style: Style): string[] {
  if (check.runtimes.length === 0) return [];
  const lines = ["", style("bold", "Loaded (asked each agent's CLI; bosun doctor checks everything)")];
  for (const runtime of check.runtimes) {
    const loaded = runtime.artifacts.filter((artifact) => artifact.state === "loaded").length;
    const waiting = runtime.artifacts.filter((artifact) => artifact.state === "waiting").length;
    const unchecked = runtime.artifacts.filter((artifact) => artifact.state === "unchecked").length;
    const parts = [runtime.probe?.failure ? style("red", runtime.probe.failure) : `${loaded} of ${runtime.artifacts.length} loaded`];
    if (waiting > 0 && !runtime.probe?.failure) parts.push(style("yellow", `${waiting} waiting for your trust`));
    if (unchecked > 0 && !runtime.probe?.failure) parts.push(style("dim", `${unchecked} not checkable offline`));
    lines.push(`  ${runtime.title}  ${parts.join(", ")}`);
  }
  for (const problem of check.problems) lines.push(`  ${style("red", "✗")} ${displayPathsIn(problem.text, home)}`);
  return lines;
}
