import type { LoadedConfig } from "../kernel/config/config.js";
import type { Log } from "../kernel/log.js";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "./start.js";
import { openLocation, type Location } from "../catalog/location.js";
import { ModelsDevClient } from "../catalog/models-dev-client.js";

/** The models.dev client for a started bosun (one per process). */
export function modelsDevClientFor(boot: Boot, log: Log): ModelsDevClient {
  return new ModelsDevClient({
    env: boot.env,
    cacheDir: boot.paths.cache,
    stateDir: boot.paths.state,
    packageRoot: boot.packageRoot,
    userAgent: `bosun/${packageVersion()}`,
    log,
  });
}

/** The location of the directory bosun was started in, with the config the boot read. */
export function openBootLocation(boot: Boot, modelsDev: ModelsDevClient, log: Log, directory: string = process.cwd()): Promise<Location> {
  const config: LoadedConfig = boot.config ?? { value: {}, layers: [], sources: boot.configSources, warnings: [] };
  return openLocation({
    directory,
    env: boot.env,
    paths: boot.paths,
    config,
    installedPlugins: boot.plugins,
    extensions: boot.extensions,
    modelsDev,
    log,
  });
}
