import { fileURLToPath } from "node:url";
import { packageVersion } from "../kernel/package-info.js";
import type { Boot } from "../app/start.js";
import { authStoreFile, embeddedProvidersFile, modelsCacheFile, modelsSourceUrl } from "../catalog/catalog-files.js";
import { SummaryCache } from "../catalog/summary-cache.js";
import type { CatalogSummary } from "../app/catalog-summary.js";
import { describeSource } from "./catalog-words.js";
import type { SubsystemStatus } from "./subsystem-status.js";

/** How long `bosun status` waits for plugins on disk before reporting them as still activating. */
const STATUS_SETTLE_MS = 2_000;
/** Providers named on the status screen before "and N more". */
const NAMED_PROVIDERS = 6;

/**
 * The catalog's part of `bosun status`: available providers, the default model, where the data
 * came from, and plugins that failed. Never downloads. The summary is kept in the cache folder
 * and reused while its inputs (data, config and key files, key variables, bosun's version) are
 * unchanged; with plugins on disk that run code, it is computed every time.
 */
export async function catalogStatus(boot: Boot): Promise<SubsystemStatus> {
  const sourceUrl = modelsSourceUrl(boot.env);
  const files = [
    modelsCacheFile(boot.paths.cache, sourceUrl),
    embeddedProvidersFile(boot.packageRoot),
    ...boot.configSources.map((source) => source.file),
    authStoreFile(boot.paths.data),
    // This build of bosun: a rebuilt bosun (same version, new code) computes afresh.
    fileURLToPath(import.meta.url),
  ];
  const extra = [packageVersion(), sourceUrl, process.cwd()];
  const runsPluginCode = boot.plugins.some((plugin) => plugin.enabled && !plugin.problem && plugin.main !== null);
  const cache = new SummaryCache<CatalogSummary>(boot.paths.cache, boot.env);
  let summary = runsPluginCode ? undefined : cache.read(files, extra);
  if (!summary) {
    const { summarizeCatalog } = await import("../app/catalog-summary.js");
    summary = await summarizeCatalog(boot, boot.log, STATUS_SETTLE_MS);
    if (!runsPluginCode) cache.write({ files, envNames: summary.envNames, extra }, summary);
  }
  return statusOf(summary);
}

function statusOf(summary: CatalogSummary): SubsystemStatus {
  const { available, total } = summary;
  const ageMs = summary.fetchedAt === null ? undefined : Math.max(0, Date.now() - summary.fetchedAt);
  const troubled = summary.plugins.filter((plugin) => plugin.state === "failed" || plugin.state === "activating");
  const shown = available.slice(0, NAMED_PROVIDERS).join(", ") + (available.length > NAMED_PROVIDERS ? ` and ${available.length - NAMED_PROVIDERS} more` : "");
  const detail =
    available.length === 0 ? `no provider available (${total} known); set an API key variable or run bosun auth set PROVIDER` : `${available.length} of ${total} providers available: ${shown}`;
  const defaultName = summary.default ? `${summary.default.providerID}/${summary.default.modelID}` : null;
  const lines = [`default model  ${defaultName ?? "none"}`, `source         ${describeSource(summary.source, summary.sourceUrl, ageMs)}`];
  const pluginProblems: Record<string, string> = {};
  for (const plugin of troubled) {
    const problem = plugin.state === "failed" ? (plugin.problem ?? "failed") : `still activating after ${STATUS_SETTLE_MS / 1000} s`;
    lines.push(`! plugin ${plugin.name}: ${problem}`);
    pluginProblems[plugin.name] = problem;
  }
  for (const problem of summary.problems) lines.push(`! ${problem}`);
  return {
    state: available.length === 0 || troubled.length > 0 || summary.problems.length > 0 ? "attention" : "ready",
    detail,
    lines,
    pluginProblems,
    summary: defaultName ? `default model ${defaultName}` : "no model available (bosun auth set PROVIDER)",
    ...(available.length === 0 ? { next: "make a model available: bosun auth set PROVIDER, or set the provider's key variable (bosun models --all lists them)" } : {}),
    data: {
      source: summary.source,
      cacheAgeMs: ageMs ?? null,
      providers: { available, total },
      default: summary.default,
      plugins: summary.plugins.map(({ name, origin, state, problem }) => ({ name, origin, state, problem })),
      problems: summary.problems,
    },
  };
}
