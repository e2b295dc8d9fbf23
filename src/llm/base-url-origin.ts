import type { ConfigLayer } from "../kernel/config/config.js";
import type { CatalogConfig } from "../catalog/config-schema.js";
import { lineOfPath } from "../kernel/jsonc.js";
import type { ModelsSnapshot } from "../catalog/models-dev-client.js";
import { usualLocalServer } from "../catalog/plugins/builtin/local-servers.js";

export interface BaseURLSources {
  /** The config files read, in merge order. */
  configLayers: readonly ConfigLayer<Pick<CatalogConfig, "providers">>[];
  /** The models.dev data the catalog was built from. */
  modelsDev: ModelsSnapshot;
}

/**
 * Where the base URL a catalog model is reached at was set, as the phrase the unreachable error
 * shows after the URL: the config file and line whose `providers.<id>.baseURL` it is (the file
 * that wins the merge), else models.dev's list (or bosun's built-in one), bosun's usual address
 * for a local server, the provider package's default, or, when it is none of these, a plugin.
 * Anything but a config file or a plugin says how to set another URL.
 */
export function baseURLOrigin(model: { providerID: string; id: string; url: string | undefined; npm: string }, sources: BaseURLSources): string {
  const { providerID, url } = model;
  const configured = [...sources.configLayers].reverse().find((layer) => layer.value.providers?.[providerID]?.baseURL !== undefined);
  if (url !== undefined && configured?.value.providers?.[providerID]?.baseURL === url) return `set in ${configured.file}:${lineOfPath(configured.document, ["providers", providerID, "baseURL"])}`;
  const override = `providers.${providerID}.baseURL in bosun.json overrides it`;
  if (url === undefined) return `the default of ${model.npm}; ${override}`;
  const listed = sources.modelsDev.data[providerID];
  if (listed && (listed.api === url || listed.models[model.id]?.provider?.api === url)) {
    return `from ${sources.modelsDev.source === "embedded" ? "bosun's built-in provider list" : "models.dev"}; ${override}`;
  }
  const usual = usualLocalServer(providerID);
  if (usual?.url === url) return `bosun's usual address for ${usual.name}; ${override}`;
  return "set by a plugin";
}
