import type { Command } from "commander";
import { displayPath } from "../kernel/paths.js";
import type { ListedProvider, ModelsListing } from "../catalog/listing.js";
import type { CatalogReader } from "../catalog/reader.js";
import { providerAvailability } from "../catalog/availability.js";
import { UserError } from "../kernel/errors.js";
import { formatTokens } from "../llm/token-count.js";
import type { CatalogForCommand } from "./catalog-command.js";
import { describeSource, timeAgo } from "./catalog-words.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

export function registerModels(program: Command, output: Output): void {
  const models = program
    .command("models")
    .description("the model catalog: available models by default (downloads models.dev's list when the cache is over 5 minutes old)")
    .option("--json", "print the catalog as JSON")
    .option("--provider <id>", "only this provider's models (shown even when it is not available)")
    .option("--all", "include providers that are not available, marked")
    .option("--offline", "do not download; use the cached or built-in list")
    .action(async (options: { json?: boolean; provider?: string; all?: boolean; offline?: boolean }) => {
      const { openCatalogForCommand } = await import("./catalog-command.js");
      const session = await openCatalogForCommand(output, options.offline ? "never" : "if-stale");
      try {
        // Without the stored keys the list would show their providers as unavailable.
        const authProblem = session.location.authStoreProblem();
        if (authProblem) throw new UserError(authProblem);
        const reader = session.location.catalog.read();
        if (options.provider !== undefined && !reader.provider.get(options.provider)) {
          throw new UserError(`unknown provider ${JSON.stringify(options.provider)}; bosun models --all lists every provider`);
        }
        const { listModels } = await import("../catalog/listing.js");
        const listing = listModels(reader, session.modelsDev.current().source, {
          ...(options.provider === undefined ? {} : { provider: options.provider }),
          all: Boolean(options.all),
        });
        for (const notice of sourceNotices(session)) writeLine(output.stderr, `bosun: ${notice}`);
        if (options.json) writeJson(output, listing);
        else renderModels(listing, reader, session, output);
      } finally {
        await session.location.close();
      }
    });

  models
    .command("refresh")
    .description("download models.dev's list now (whatever the age of the cache)")
    .option("--json", "print the outcome as JSON")
    .action(async (_options: unknown, command: Command) => {
      // `--json` after `refresh` may be taken by `models` (which has one too): read both.
      const options = command.optsWithGlobals<{ json?: boolean }>();
      const boot = await (await import("./boot.js")).bootForCommand(output);
      const { modelsDevClientFor } = await import("../app/open-catalog.js");
      const modelsDev = modelsDevClientFor(boot, boot.log);
      if (modelsDev.fetchDisabled) throw new UserError("downloads are turned off by BOSUN_DISABLE_MODELS_FETCH; unset it to refresh the model list");
      const { withSpinner } = await import("./spinner.js");
      const outcome = await withSpinner(output, `Downloading the model list from ${modelsDev.sourceUrl}`, () => modelsDev.refresh({ force: true }));
      if (outcome.status === "failed") {
        const age = modelsDev.cacheAge();
        const keeping = age === undefined ? "bosun keeps using its built-in list" : `bosun keeps using the cached list from ${timeAgo(age)}`;
        throw new UserError(`${outcome.error}; ${keeping}`);
      }
      const { data } = modelsDev.current();
      const providers = Object.keys(data).length;
      const modelCount = Object.values(data).reduce((n, provider) => n + Object.keys(provider.models).length, 0);
      const cache = displayPath(modelsDev.cacheFile, boot.paths.home);
      if (options.json) {
        writeJson(output, { status: outcome.status, url: `${modelsDev.sourceUrl}/api.json`, cache: modelsDev.cacheFile, providers, models: modelCount });
        return;
      }
      const what = `${plural(providers, "provider")}, ${plural(modelCount, "model")}`;
      writeLine(
        output.stdout,
        outcome.status === "fetched"
          ? `Downloaded the model list from ${modelsDev.sourceUrl}/api.json (${what}) to ${cache}`
          : `The model list is already up to date (${what}, ${cache}, written ${timeAgo(modelsDev.cacheAge() ?? 0)})`,
      );
    });
}

/** What the user should know about where the list came from (on stderr, so JSON stays clean). */
function sourceNotices(session: CatalogForCommand): string[] {
  const { modelsDev, refresh } = session;
  const snapshot = modelsDev.current();
  const notices: string[] = [];
  if (snapshot.problem) notices.push(snapshot.problem);
  const showing = snapshot.source === "embedded" ? "showing bosun's built-in list" : `showing the cached list from ${timeAgo(modelsDev.cacheAge() ?? 0)}`;
  if (refresh?.status === "failed") notices.push(`could not update the model list (${refresh.error}); ${showing}`);
  else if (snapshot.source === "embedded" && modelsDev.fetchDisabled) notices.push(`BOSUN_DISABLE_MODELS_FETCH is set; ${showing}`);
  return notices;
}

function renderModels(listing: ModelsListing, reader: CatalogReader, session: CatalogForCommand, output: Output): void {
  const style = styler(output);
  const lines: string[] = [];
  const { modelsDev } = session;
  lines.push(`${style("bold", "Models")}  ${style("dim", `from ${describeSource(modelsDev.current().source, modelsDev.sourceUrl, modelsDev.cacheAge())}`)}`);
  lines.push(`Default model: ${listing.default ? `${listing.default.providerID}/${listing.default.modelID}` : style("yellow", "none (no model is available)")}`);
  if (listing.providers.length === 0) {
    lines.push("", "No provider is available yet. Set a provider's API key variable (e.g. ANTHROPIC_API_KEY), or run");
    lines.push("`bosun auth set PROVIDER`, or add a local server to bosun.json; `bosun models --all` lists every provider.");
  }
  for (const provider of listing.providers) {
    lines.push("", `${style("bold", provider.name)} ${style("dim", `(${provider.id})`)}  ${providerNote(provider, reader, style)}`);
    if (provider.models.length === 0) lines.push(`  ${style("dim", "no models")}`);
    lines.push(
      ...columns(
        provider.models.map((model) => [
          model.id,
          model.name === model.id ? "" : model.name,
          model.contextLimit === null ? "-" : `${formatTokens(model.contextLimit)} ctx`,
          model.outputLimit === null ? "-" : `${formatTokens(model.outputLimit)} out`,
          [model.toolCall ? "tools" : "", model.reasoning ? "reasoning" : ""].filter(Boolean).join(", "),
          model.cost.input === null ? "" : `$${model.cost.input} / $${model.cost.output} per 1M`,
        ]),
      ),
    );
  }
  for (const line of lines) writeLine(output.stdout, line);
}

function providerNote(provider: ListedProvider, reader: CatalogReader, style: ReturnType<typeof styler>): string {
  const { available, why } = providerAvailability(reader, provider.id);
  return style(available ? "dim" : "yellow", why);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
