import type { Log } from "../kernel/log.js";
import type { Boot } from "../app/start.js";
import type { Location } from "../catalog/location.js";
import type { ModelsDevClient, RefreshOutcome } from "../catalog/models-dev-client.js";
import { bootForCommand } from "./boot.js";
import type { Output } from "./output.js";
import { withSpinner } from "./spinner.js";

/** When a command downloads the models.dev list: never, when the cache is missing or stale, or always. */
export type FetchPolicy = "never" | "if-stale" | "always";

export interface CatalogForCommand {
  boot: Boot;
  log: Log;
  modelsDev: ModelsDevClient;
  location: Location;
  /** What the download did, when the command tried one. */
  refresh: RefreshOutcome | null;
}

/**
 * Starts bosun and opens the catalog of the current directory for a command. A download (when
 * the policy asks for one) happens first, with a spinner on a terminal, so the catalog is built
 * once with the newest data; plugins on disk are waited for (up to `settleMs`).
 */
export async function openCatalogForCommand(output: Output, fetch: FetchPolicy, settleMs = 15_000): Promise<CatalogForCommand> {
  const boot = await bootForCommand(output);
  const { modelsDevClientFor, openBootLocation } = await import("../app/open-catalog.js");
  const log = boot.log;
  const modelsDev = modelsDevClientFor(boot, log);
  let refresh: RefreshOutcome | null = null;
  const wanted = fetch === "always" || (fetch === "if-stale" && !modelsDev.isFresh());
  if (wanted && !modelsDev.fetchDisabled) {
    refresh = await withSpinner(output, `Updating the model list from ${modelsDev.sourceUrl}`, () => modelsDev.refresh({ force: fetch === "always" }));
  }
  const location = await openBootLocation(boot, modelsDev, log);
  await location.settled(settleMs);
  return { boot, log, modelsDev, location, refresh };
}
