import { join } from "node:path";
import { packageVersion } from "../boot/package-info.js";
import type { Boot } from "../boot/start.js";
import type { MigrationReport } from "../migrations/runner.js";

/** A subsystem's line on the status screen. */
export interface SubsystemStatus {
  state: "not-set-up" | "ready" | "attention";
  detail: string;
}

/** `bosun status --json`: a stable shape; later subsystems add their sections. */
export interface StatusReport {
  version: string;
  /** One line for hooks and prompts (the hook helper prints it at session start). */
  summary: string;
  paths: { config: string; data: string; cache: string; state: string; legacy: string };
  project: { root: string; config: string | null } | null;
  config: { files: { scope: string; file: string; exists: boolean }[] };
  dotenv: { file: string; found: boolean; variables: number; problem?: string };
  migrations: MigrationReport;
  plugins: { name: string; version: string | null; enabled: boolean; problem: string | null }[];
  subsystems: Record<"agents" | "install" | "catalog" | "agent", SubsystemStatus>;
}

export const SUBSYSTEM_TITLES: Record<keyof StatusReport["subsystems"], string> = {
  agents: "Agents",
  install: "Install",
  catalog: "Catalog",
  agent: "Agent",
};

const NOT_YET: Record<keyof StatusReport["subsystems"], string> = {
  agents: "not set up yet: agent detection (bosun agents) is not part of this build",
  install: "not set up yet: pack installation (bosun install) is not part of this build",
  catalog: "not set up yet: the model catalog (bosun models) is not part of this build",
  agent: "not set up yet: bosun's own agent (bosun run) is not part of this build",
};

export function buildStatusReport(boot: Boot): StatusReport {
  const { paths, project } = boot;
  const projectConfig = boot.configSources.find((source) => source.scope === "project");
  const subsystems = Object.fromEntries(
    Object.entries(NOT_YET).map(([name, detail]) => [name, { state: "not-set-up", detail }]),
  ) as StatusReport["subsystems"];
  const version = packageVersion();
  const warnings = boot.migrations.steps.reduce((n, step) => n + step.notes.filter((note) => note.level === "warn").length, 0);
  return {
    version,
    summary: `bosun ${version}: ${warnings > 0 ? `${warnings} startup migration warning(s), see \`bosun status\`; ` : ""}agents, packs and the model catalog are not set up yet`,
    paths: { config: paths.config, data: paths.data, cache: paths.cache, state: paths.state, legacy: paths.legacy },
    project: project ? { root: project.root, config: projectConfig?.exists ? projectConfig.file : null } : null,
    config: { files: boot.configSources.map(({ scope, file, exists }) => ({ scope, file, exists })) },
    dotenv: {
      file: join(paths.data, ".env"),
      found: boot.dotenv.found,
      variables: boot.dotenv.applied.length + boot.dotenv.shadowed.length,
      ...(boot.dotenv.problem ? { problem: boot.dotenv.problem } : {}),
    },
    migrations: boot.migrations,
    plugins: boot.plugins.map(({ name, version, enabled, problem }) => ({ name, version, enabled, problem })),
    subsystems,
  };
}
