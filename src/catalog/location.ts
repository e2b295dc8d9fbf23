import type { LoadedConfig } from "../kernel/config/config.js";
import type { CatalogConfig } from "./config-schema.js";
import type { Log } from "../kernel/log.js";
import type { BosunPaths, Env } from "../kernel/paths.js";
import type { ExtensionHost } from "../extensions/host.js";
import type { ModuleImporter } from "../extensions/load.js";
import { builtinPlugins } from "./plugins/builtin/index.js";
import { PluginHost, type PluginReport } from "./plugins/host.js";
import type { InstalledPlugin } from "./plugins/installed.js";
import { userPlugins } from "./plugins/user-plugins.js";
import { batch } from "../kernel/state/batch.js";
import { Scope } from "../kernel/state/scope.js";
import { AuthStore } from "./auth-store.js";
import { authStoreFile } from "./catalog-files.js";
import { Catalog } from "./catalog.js";
import type { ModelsDevClient } from "./models-dev-client.js";
import { policyFromConfig, type Policy } from "./policy.js";

export interface LocationInputs {
  /** The working directory. */
  directory: string;
  env: Env;
  paths: BosunPaths;
  config: LoadedConfig<CatalogConfig>;
  /** Plugins on disk (from the boot); the enabled ones with a `main` are activated in the background. */
  installedPlugins: InstalledPlugin[];
  extensions: ExtensionHost;
  modelsDev: ModelsDevClient;
  log: Log;
  importModule?: ModuleImporter;
  now?: () => number;
}

/** The services of one working directory: its policy, its catalog and the plugins that feed it. */
export interface Location {
  directory: string;
  policy: Policy;
  catalog: Catalog;
  plugins: PluginHost;
  authStore: AuthStore;
  /** Why bosun's auth store could not be read on the last rebuild, if it could not. */
  authStoreProblem(): string | null;
  /** Waits for the plugins on disk (false when `timeoutMs` passed first). */
  settled(timeoutMs?: number): Promise<boolean>;
  /** Every activated plugin's state, built-in and on disk. */
  pluginReports(): PluginReport[];
  /** Disables every plugin and stops the catalog, without a last rebuild. */
  close(): Promise<void>;
}

/**
 * Builds a location: its policy from the config files, a catalog, and the plugins. Resolves once
 * the built-in plugins are active and the catalog has its first value (one rebuild for all of
 * them); plugins on disk activate afterwards in the background.
 */
export async function openLocation(inputs: LocationInputs): Promise<Location> {
  const policy = policyFromConfig(inputs.config.layers);
  const catalog = new Catalog({
    location: inputs.directory,
    policy,
    ...(inputs.now ? { now: inputs.now } : {}),
    onListenerError: (error) => inputs.log.warn("a catalog listener failed", { error: String(error) }),
  });
  const scope = new Scope();
  const plugins = new PluginHost({
    catalog,
    scope,
    location: inputs.directory,
    env: inputs.env,
    paths: inputs.paths,
    extensions: inputs.extensions,
    log: inputs.log,
  });
  const authStore = new AuthStore(authStoreFile(inputs.paths.data));
  let authProblem: string | null = null;
  const switches = inputs.config.value.plugins ?? {};
  const enabled = (name: string) => switches[name]?.enabled !== false;

  const builtins = builtinPlugins({
    modelsDev: inputs.modelsDev,
    config: inputs.config,
    authStore,
    env: inputs.env,
    onAuthStoreProblem: (problem) => (authProblem = problem),
  });
  // A failing built-in is reported by the host like any plugin; the others still activate.
  await batch(async () => {
    for (const plugin of builtins) if (enabled(plugin.name)) await plugins.add(plugin, "builtin").catch(() => undefined);
  });
  // A folder named like a built-in was refused when the plugins were listed: it is not among these.
  plugins.addInBackground(userPlugins(inputs.installedPlugins, inputs.importModule));

  return {
    directory: inputs.directory,
    policy,
    catalog,
    plugins,
    authStore,
    authStoreProblem: () => authProblem,
    settled: (timeoutMs) => plugins.settled(timeoutMs),
    pluginReports: () => plugins.reports(),
    async close() {
      catalog.close();
      await scope.close();
    },
  };
}
