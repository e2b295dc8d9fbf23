import { z } from "zod";
import { formatTokens } from "../../llm/token-count.js";
import type { ModelsDevClient, RefreshOutcome } from "../../catalog/models-dev-client.js";
import { searchModels, type FoundModel } from "./catalog-search.js";
import type { ServerTool } from "./tool.js";

export const MAX_LIMIT = 200;

const input = z
  .object({
    query: z.string().max(200).optional().describe('Words to find in provider and model ids and names, all of them (any case), e.g. "sonnet", "openai mini", "anthropic/claude"; every model when absent'),
    provider: z.string().trim().min(1).optional().describe("Only this provider's models (its id, e.g. anthropic, openai, ollama)"),
    limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many models to return (default 20, at most ${MAX_LIMIT})`),
    available_only: z.boolean().optional().describe("Only models of providers bosun can use now (a key is set, or none is needed); by default unavailable ones are listed too, after them, with why"),
    offline: z.boolean().optional().describe("Do not download models.dev's list even when the cache is over 5 minutes old"),
  })
  .strict();

/**
 * `catalog_search`: models from bosun's catalog (models.dev's list, bosun.json's providers and
 * plugins) with their limits, prices, capabilities, whether each can be used and why: the same
 * catalog `bosun models --json` prints, searched. Like `bosun models`, it downloads the list when
 * the cache is stale (unless `offline`).
 */
export const catalogSearchTool: ServerTool<z.infer<typeof input>> = {
  name: "catalog_search",
  title: "Search bosun's model catalog",
  description:
    "Search the model catalog bosun uses (models.dev's list plus bosun.json's providers): each model's context and output limits, price per million tokens, " +
    "tool calling and reasoning, whether it is available and why (which key variable it uses, or what would make it available). The same catalog as `bosun models --json`.",
  input,
  annotations: { readOnlyHint: true, openWorldHint: true },
  async call({ query, provider, limit = 20, available_only, offline }, { boot, cwd }) {
    const [{ modelsDevClientFor }, { readCatalogView, onlyProvider }] = await Promise.all([import("../open-catalog.js"), import("../catalog-view.js")]);
    const modelsDev = modelsDevClientFor(boot, boot.log);
    const refresh = !offline && !modelsDev.isFresh() && !modelsDev.fetchDisabled ? await modelsDev.refresh() : null;
    const view = await readCatalogView(boot, cwd, modelsDev);
    const listing = onlyProvider(view, provider, "catalog_search without provider lists every provider's models");
    const search = searchModels(listing, (id) => view.availability.get(id) ?? { available: false, why: "not available" }, { ...(query === undefined ? {} : { query }), limit, availableOnly: Boolean(available_only) });
    const notices = sourceNotices(modelsDev, refresh);
    const data = { source: view.source, default: view.listing.default, ...search, notices };
    return { data, text: searchText(search.models, search.matched, view.listing.default, notices) };
  },
};

/** What the caller should know about where the list came from: a corrupt cache, a failed download, downloads turned off. */
function sourceNotices(modelsDev: ModelsDevClient, refresh: RefreshOutcome | null): string[] {
  const snapshot = modelsDev.current();
  const notices: string[] = [];
  if (snapshot.problem) notices.push(snapshot.problem);
  const showing = snapshot.source === "embedded" ? "showing bosun's built-in list" : "showing the cached list";
  if (refresh?.status === "failed") notices.push(`could not update the model list (${refresh.error}); ${showing}`);
  else if (snapshot.source === "embedded" && modelsDev.fetchDisabled) notices.push(`BOSUN_DISABLE_MODELS_FETCH is set; ${showing}`);
  return notices;
}

function searchText(models: FoundModel[], matched: number, fallback: { providerID: string; modelID: string } | null, notices: string[]): string {
  const head = matched === 0 ? "No model matches." : `${matched} model${matched === 1 ? "" : "s"} match${matched === 1 ? "es" : ""}${models.length < matched ? ` (the first ${models.length} shown)` : ""}:`;
  const lines = models.map((model) => {
    const limits = [model.contextLimit === null ? null : `${formatTokens(model.contextLimit)} ctx`, model.outputLimit === null ? null : `${formatTokens(model.outputLimit)} out`].filter(Boolean).join(", ");
    const price = model.cost.input === null ? "" : `, $${model.cost.input} / $${model.cost.output} per 1M`;
    return `- ${model.provider}/${model.id}${model.name === model.id ? "" : ` (${model.name})`}${limits ? `: ${limits}` : ""}${price}; ${model.why}`;
  });
  const defaultLine = `Default model: ${fallback ? `${fallback.providerID}/${fallback.modelID}` : "none (no model is available)"}`;
  return [head, ...lines, defaultLine, ...notices.map((notice) => `Note: ${notice}`)].join("\n");
}
