import * as nodeFs from "node:fs";
import { join } from "node:path";
import { ExtensionHost } from "../extensions/host.js";
import type { ModuleImporter } from "../extensions/load.js";
import { extensionRoots, type ExtensionRoot } from "../extensions/roots.js";
import { spawnDetached } from "../kernel/spawn-detached.js";
import type { StartupListener, StartupReport } from "../startup/runner.js";
import { runStartupMigrations } from "../startup/startup-pass.js";
import type { DetachedSpawner } from "../kernel/spawn-detached.js";
import type { StartupContext, StartupFs } from "../startup/types.js";
import { listInstalledPlugins, type InstalledPlugin } from "../catalog/plugins/installed.js";
import { readPluginToggles } from "../catalog/plugins/toggles.js";
import { configSources, loadConfig, type ConfigSource, type LoadedConfig } from "../kernel/config/config.js";
import type { BosunConfig } from "./config-schema.js";
import type { ConfigWarning } from "../kernel/config/config-warning.js";
import { DotenvLoader, type DotenvResult } from "../kernel/dotenv.js";
import { createFileLog, type Log } from "../kernel/log.js";
import { packageRoot } from "../kernel/package-info.js";
import { resolvePaths, type BosunPaths, type Env } from "../kernel/paths.js";
import { findProject, type Project } from "../kernel/project.js";

export interface BootOptions {
  /** The environment to read and to load `.env` into (default `process.env`). */
  env?: Env;
  cwd?: string;
  /** Plan the startup migrations without applying them (`bosun migrate --dry-run`). */
  dryRunMigrations?: boolean;
  /** Stop after the migrations and `.env`; do not read `bosun.json`. */
  skipConfig?: boolean;
  fs?: StartupFs;
  spawnDetached?: DetachedSpawner;
  importModule?: ModuleImporter;
  lockTimeoutMs?: number;
  /** Told about each migration change as it is applied, before anything reads the config. */
  migrationListener?: StartupListener;
  /** bosun's log for this process (default: `<state>/logs/bosun.log`, opened on its first line). */
  log?: Log;
}

/** Everything a command needs after bosun has started. */
export interface Boot {
  /** bosun's own environment: the process's, plus what `<data>/.env` adds. */
  env: Env;
  /**
   * The environment as this process got it, before `.env` was loaded: what a coding agent started
   * from the same shell sees (it never reads bosun's `.env`). Detecting agents, their sign-in and
   * their folders uses this one, so a key kept for bosun does not make another agent look signed in.
   */
  agentEnv: Env;
  paths: BosunPaths;
  project: Project | null;
  packageRoot: string;
  dotenv: DotenvResult;
  migrations: StartupReport;
  configSources: ConfigSource[];
  /** Null when the boot skipped config. */
  config: LoadedConfig<BosunConfig> | null;
  /** Project configs not used and unknown config keys, each once (shown on stderr and by status). */
  warnings: ConfigWarning[];
  plugins: InstalledPlugin[];
  extensions: ExtensionHost;
  /** The one log of this process: every subsystem writes its lines here. */
  log: Log;
}

/** The schema of `bosun.json`, assembled from every subsystem's slice; `import()`ed only when a config file exists (a bare start never loads zod). */
export const loadConfigSchema = async () => (await import("./config-schema.js")).configSchema;

/**
 * The start sequence: resolve paths → load `.env` → run startup migrations (which may move the
 * files read next) → reload `.env` → load config → list plugins. Config is read only after the
 * migrations, so they can bring an old layout or format up to date first.
 */
export async function startBosun(options: BootOptions = {}): Promise<Boot> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const paths = resolvePaths(env, cwd);
  const { project, warnings: projectWarnings } = findProject(cwd, paths.home);
  const root = packageRoot();
  const dotenvFile = join(paths.data, ".env");
  const agentEnv: Env = { ...env };
  const dotenv = new DotenvLoader(env);
  dotenv.load(dotenvFile);

  const rootsFor = (plugins: InstalledPlugin[]): ExtensionRoot[] =>
    extensionRoots({
      projectDotDir: project?.dotDir ?? null,
      userConfigDir: paths.config,
      enabledPlugins: plugins.filter((plugin) => plugin.enabled),
      builtinDir: join(root, "assets"),
    });
  const pluginsBeforeConfig = () => listInstalledPlugins(join(paths.data, "plugins"), readPluginToggles(configSources(paths, project)));
  const extensions = new ExtensionHost(rootsFor(pluginsBeforeConfig()), options.importModule);

  const ctx: StartupContext = {
    paths,
    project,
    env,
    fs: options.fs ?? nodeFs,
    packageRoot: root,
    spawnDetached: options.spawnDetached ?? spawnDetached,
    loadConfigSchema,
  };
  const migrations = await runStartupMigrations(extensions, ctx, {
    dryRun: options.dryRunMigrations ?? false,
    refreshExtensionRoots: () => extensions.setRoots(rootsFor(pluginsBeforeConfig())),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    ...(options.migrationListener ? { listener: options.migrationListener } : {}),
  });

  const reloaded = dotenv.load(dotenvFile);
  const sources = configSources(paths, project);
  const config = options.skipConfig ? null : await loadConfig(sources, loadConfigSchema);
  const toggles = Object.fromEntries(
    Object.entries(config?.value.plugins ?? {}).flatMap(([name, settings]) => (settings.enabled === undefined ? [] : [[name, settings.enabled]])),
  );
  const plugins = config ? listInstalledPlugins(join(paths.data, "plugins"), toggles) : pluginsBeforeConfig();
  extensions.setRoots(rootsFor(plugins));

  const warnings = [...projectWarnings, ...(config?.warnings ?? [])];
  const log = options.log ?? createFileLog(paths.state);
  return { env, agentEnv, paths, project, packageRoot: root, dotenv: reloaded, migrations, configSources: sources, config, warnings, plugins, extensions, log };
}
