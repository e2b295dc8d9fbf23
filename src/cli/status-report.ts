import { join } from "node:path";
import type { ConfigWarning } from "../kernel/config/config-warning.js";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "../app/start.js";
import type { StartupReport } from "../startup/runner.js";
import type { Output } from "./output.js";
import type { SubsystemStatus, SubsystemStatusSource } from "./subsystem-status.js";
import { agentsStatus } from "./status-agents.js";
import { agentStatus } from "./status-agent.js";
import { catalogStatus } from "./status-catalog.js";
import { foldersStatus } from "./status-folders.js";
import { installStatus } from "./status-install.js";

export type SubsystemName = "folders" | "agents" | "install" | "catalog" | "agent";

/** `bosun status --json`: a stable shape; subsystems add their data under their own entry. */
export interface StatusReport {
  version: string;
  /** One line for hooks and prompts (the hook helper prints it at session start). */
  summary: string;
  paths: { config: string; data: string; cache: string; state: string; legacy: string };
  project: { root: string; config: string | null } | null;
  /** `warnings`: unknown keys (ignored) and project configs not used, as on stderr at every start. */
  config: { files: { scope: string; file: string; exists: boolean }[]; warnings: ConfigWarning[] };
  dotenv: { file: string; found: boolean; variables: number; problem?: string };
  migrations: StartupReport;
  plugins: { name: string; version: string | null; enabled: boolean; problem: string | null }[];
  /** What to do next, most basic first (empty when everything is set up). */
  next: string[];
  subsystems: Record<SubsystemName, { state: SubsystemStatus["state"]; detail: string } & Record<string, unknown>>;
}

export const SUBSYSTEM_TITLES: Record<SubsystemName, string> = {
  folders: "Folders",
  agents: "Agents",
  install: "Install",
  catalog: "Catalog",
  agent: "Agent",
};


/** Where each subsystem's status comes from. */
export const SUBSYSTEM_STATUS: Record<SubsystemName, SubsystemStatusSource> = {
  folders: foldersStatus,
  agents: agentsStatus,
  install: installStatus,
  catalog: catalogStatus,
  agent: agentStatus,
};

function pluginProblem(sections: SubsystemStatus[], name: string): string | null {
  for (const section of sections) if (section.pluginProblems?.[name]) return section.pluginProblems[name];
  return null;
}

/** The status report, with every subsystem's part gathered in parallel. */
export async function buildStatusReport(boot: Boot, output: Output): Promise<{ report: StatusReport; sections: Record<SubsystemName, SubsystemStatus> }> {
  const { paths, project } = boot;
  const names = Object.keys(SUBSYSTEM_STATUS) as SubsystemName[];
  const results = await Promise.all(names.map((name) => SUBSYSTEM_STATUS[name](boot, output)));
  const sections = Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<SubsystemName, SubsystemStatus>;
  const projectConfig = boot.configSources.find((source) => source.scope === "project");
  const version = packageVersion();
  const warnings = boot.migrations.steps.reduce((n, step) => n + step.notes.filter((note) => note.level === "warn").length, 0);
  const parts = results.flatMap((section) => (section.summary ? [section.summary] : []));
  if (warnings > 0) parts.push(`${warnings} startup migration warning${warnings === 1 ? "" : "s"} (see bosun status)`);
  const configWarnings = boot.warnings.length;
  if (configWarnings > 0) parts.push(`${configWarnings} config warning${configWarnings === 1 ? "" : "s"} (bosun config check)`);
  const next = [
    ...(configWarnings > 0 ? ["fix the config warnings above: bosun config check lists them, and exits 0 once they are gone"] : []),
    ...(warnings > 0 ? ["look at the startup migration warnings above: bosun migrate shows them with what to do"] : []),
    ...results.flatMap((section) => (section.next ? [section.next] : [])),
  ];
  const report: StatusReport = {
    version,
    summary: `bosun ${version}: ${parts.length > 0 ? parts.join(" · ") : "agents, packs and the model catalog are not set up yet"}`,
    paths: { config: paths.config, data: paths.data, cache: paths.cache, state: paths.state, legacy: paths.legacy },
    project: project ? { root: project.root, config: projectConfig?.exists ? projectConfig.file : null } : null,
    config: { files: boot.configSources.map(({ scope, file, exists }) => ({ scope, file, exists })), warnings: boot.warnings },
    dotenv: {
      file: join(paths.data, ".env"),
      found: boot.dotenv.found,
      variables: boot.dotenv.applied.length + boot.dotenv.shadowed.length,
      ...(boot.dotenv.problem ? { problem: boot.dotenv.problem } : {}),
    },
    migrations: boot.migrations,
    plugins: boot.plugins.map(({ name, version, enabled, problem }) => ({ name, version, enabled, problem: problem ?? pluginProblem(results, name) })),
    next,
    subsystems: Object.fromEntries(
      names.map((name) => {
        const { state, detail, data } = sections[name];
        return [name, { state, detail, ...data }];
      }),
    ) as StatusReport["subsystems"],
  };
  return { report, sections };
}
