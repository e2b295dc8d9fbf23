import { readFileSync } from "node:fs";
import { parseModelsDevData, type ModelsDevData } from "./models-dev-data.js";
import { embeddedProvidersFile } from "./catalog-files.js";

/**
 * The provider list bosun ships (`assets/providers.json`, models.dev's format): the major
 * providers with a few current models each, used until a models.dev download exists. Read only
 * when needed.
 */
export function readEmbeddedProviders(packageRoot: string): ModelsDevData {
  const file = embeddedProvidersFile(packageRoot);
  return parseModelsDevData(readFileSync(file, "utf8"), file).data;
}
