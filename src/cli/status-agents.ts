import { displayPathsIn } from "../kernel/paths.js";
import { columns, styler } from "./output.js";
import type { SubsystemStatusSource } from "./subsystem-status.js";

/**
 * The agents part of `bosun status`: how many are installed and signed in, a short line per
 * agent. The detection modules load only here, and every probe runs at once (the a0 probe is
 * bounded at 2 s; a refused connection answers at once).
 */
export const agentsStatus: SubsystemStatusSource = async (boot, output) => {
  const [{ agentCounts, agentsHeadline, agentsSummaryPart, collectAgentReports, signInLabel }, { machineDetectionContext }] = await Promise.all([
    import("../runtimes/collect-status.js"),
    import("../runtimes/kit/machine.js"),
  ]);
  const reports = await collectAgentReports(machineDetectionContext(boot.agentEnv, boot.paths), boot.config?.value.agents);
  const style = styler(output);
  const counts = agentCounts(reports);
  const errors = reports.filter((report) => report.auth.error);
  const lines = columns(
    reports.map((report) => [
      report.id,
      report.installed ? "installed" : style("dim", "not installed"),
      report.auth.error ? style("yellow", displayPathsIn(report.auth.error, boot.paths.home)) : report.auth.connected ? `signed in (${signInLabel(report)})` : style("dim", "not signed in"),
    ]),
    "",
  );
  return {
    state: errors.length > 0 ? "attention" : "ready",
    detail: `${agentsHeadline(reports)} (bosun agents)`,
    lines,
    data: {
      ...counts,
      agents: reports.map(({ id, installed, auth }) => ({ id, installed, connected: auth.connected, mode: auth.mode })),
    },
    summary: agentsSummaryPart(reports),
    ...(counts.installed === 0
      ? { next: "install a coding agent: bosun agents lists the install command of each" }
      : counts.signedIn === 0
        ? { next: "sign in to one of your coding agents: bosun agents shows how for each" }
        : {}),
  };
};
