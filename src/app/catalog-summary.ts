import type { Log } from "../kernel/log.js";
import type { Boot } from "./start.js";
import type { PluginReport } from "../catalog/plugins/host.js";
import type { ModelsSource } from "../catalog/models-dev-client.js";
import { modelsDevClientFor, openBootLocation } from "./open-catalog.js";
import type { ModelRef } from "../catalog/records.js";

/** What `bosun status` says about the catalog. */
export interface CatalogSummary {
  source: ModelsSource;
  sourceUrl: string;
  /** When the cached list was written (epoch ms); null for the built-in list. */
  fetchedAt: number | null;
  available: string[];
  total: number;
  default: ModelRef | null;
  plugins: PluginReport[];
  /** False when some plugin on disk was still activating when the summary was taken. */
  settled: boolean;
  problems: string[];
  /** Every provider's key variables (whether each is set decides availability). */
  envNames: string[];
}

/** Builds the catalog of the current directory (never downloading) and summarizes it. */
export async function summarizeCatalog(boot: Boot, log: Log, settleMs: number): Promise<CatalogSummary> {
  const modelsDev = modelsDevClientFor(boot, log);
  const location = await openBootLocation(boot, modelsDev, log);
  try {
    const settled = await location.settled(settleMs);
    const reader = location.catalog.read();
    const all = reader.provider.all();
    const fallback = reader.model.default();
    const snapshot = modelsDev.current();
    const problems: string[] = [];
    if (snapshot.problem) problems.push(snapshot.problem);
    const authProblem = location.authStoreProblem();
    if (authProblem) problems.push(`stored keys are not used: ${authProblem}`);
    if (location.authStore.isExposed()) problems.push(`${location.authStore.file} can be read by other users; run chmod 600 on it`);
    return {
      source: snapshot.source,
      sourceUrl: modelsDev.sourceUrl,
      fetchedAt: snapshot.fetchedAt ?? null,
      available: reader.provider.available().map((provider) => provider.id),
      total: all.length,
      default: fallback ? { providerID: fallback.providerID, modelID: fallback.id } : null,
      plugins: location.pluginReports(),
      settled,
      problems,
      envNames: [...new Set(all.flatMap((provider) => provider.env))].sort(),
    };
  } finally {
    await location.close();
  }
}
