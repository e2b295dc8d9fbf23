import type { LoadedConfig } from "../../../kernel/config/config.js";
import type { CatalogConfig } from "../../config-schema.js";
import type { AuthStore } from "../../auth-store.js";
import type { ModelsDevClient } from "../../models-dev-client.js";
import type { Env } from "../../../kernel/paths.js";
import type { BosunPlugin } from "../api.js";
import { anthropicPlugin } from "./anthropic.js";
import { configProvidersPlugin } from "./config-providers.js";
import { credentialsPlugin } from "./credentials.js";
import { localServersPlugin } from "./local-servers.js";
import { modelsDevPlugin } from "./models-dev.js";
import { openrouterPlugin } from "./openrouter.js";

export interface BuiltinInputs {
  modelsDev: ModelsDevClient;
  config: LoadedConfig<CatalogConfig>;
  authStore: AuthStore;
  env: Env;
  onAuthStoreProblem?: (problem: string | null) => void;
}

/**
 * Providers some config file names under `providers` without listing key variables: on this
 * machine they need no key. A provider whose config lists `env` keeps needing one.
 */
function keylessConfiguredProviders(config: LoadedConfig<CatalogConfig>): Set<string> {
  const entries = config.layers.flatMap((layer) => Object.entries(layer.value.providers ?? {}));
  const withEnv = new Set(entries.filter(([, entry]) => entry.env !== undefined).map(([id]) => id));
  return new Set(entries.map(([id]) => id).filter((id) => !withEnv.has(id)));
}

/**
 * bosun's own plugins, in the order their transforms replay: the data (models.dev), the user's
 * config over it, then the provider tweaks (after config, so a provider only the config defines
 * gets them too; each tweak leaves values the user set alone), then credentials.
 */
export function builtinPlugins(inputs: BuiltinInputs): BosunPlugin[] {
  return [
    modelsDevPlugin(inputs.modelsDev),
    configProvidersPlugin(inputs.config),
    localServersPlugin(keylessConfiguredProviders(inputs.config)),
    anthropicPlugin(),
    openrouterPlugin(),
    credentialsPlugin({ store: inputs.authStore, env: inputs.env, ...(inputs.onAuthStoreProblem ? { onStoreProblem: inputs.onAuthStoreProblem } : {}) }),
  ];
}
