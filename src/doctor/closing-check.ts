import type { DoctorProblem, DoctorReport, RuntimeDoctor } from "./doctor.js";

/** The closing check of `bosun install`: per runtime whose CLI was asked, how it loaded what was just installed. */
export interface ClosingCheck {
  runtimes: Pick<RuntimeDoctor, "runtime" | "title" | "artifacts" | "probe">[];
  /** Problems with what was just installed (the CLI could not be asked, an artifact it did not load). */
  problems: DoctorProblem[];
}

/** Cuts a doctor report down to one install: the runtimes whose CLI was asked, and the artifacts of the installed pack. */
export function closingCheck(report: DoctorReport, pack: string): ClosingCheck {
  const runtimes = report.runtimes
    .filter((runtime) => runtime.probe !== null)
    .map((runtime) => ({ runtime: runtime.runtime, title: runtime.title, artifacts: runtime.artifacts.filter((artifact) => artifact.pack === pack), probe: runtime.probe }));
  const asked = new Set(runtimes.map((runtime) => runtime.runtime));
  const ours = (problem: DoctorProblem) =>
    problem.kind === "probe" || runtimes.some((runtime) => runtime.runtime === problem.runtime && runtime.artifacts.some((artifact) => artifact.kind === problem.artifact?.kind && artifact.name === problem.artifact.name && artifact.scope === problem.artifact.scope));
  return { runtimes, problems: report.problems.filter((problem) => asked.has(problem.runtime) && (problem.kind === "probe" || problem.kind === "loaded") && ours(problem)) };
}
