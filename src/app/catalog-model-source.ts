import type { Boot } from "./start.js";
import type { CatalogModel } from "../catalog/projection.js";
import type { CatalogReader } from "../catalog/reader.js";
import type { AuthStore } from "../catalog/auth-store.js";
import { UserError } from "../kernel/errors.js";
import { baseURLOrigin } from "../llm/base-url-origin.js";
import { PROVIDER_PACKAGES, parseModelSpec, type ModelPrice, type ModelTarget, type ProviderPackage } from "../llm/model-target.js";
import { NoModelError, type ModelSource } from "../llm/model-source.js";

/** Token limits used when the catalog does not know a model's (a model only the config names). */
export const UNKNOWN_LIMITS = { context: 32_768, output: 4_096 };

/**
 * The model source backed by the catalog of the current directory: `--model provider/model`, or
 * the catalog's default (the configured `model` when available, else the newest available one).
 * Uses the cached or built-in models.dev list (`bosun models` refreshes it).
 */
export async function createCatalogModelSource(boot: Boot): Promise<ModelSource> {
  const { modelsDevClientFor, openBootLocation } = await import("./open-catalog.js");
  const log = boot.log;
  const modelsDev = modelsDevClientFor(boot, log);
  const location = await openBootLocation(boot, modelsDev, log);
  await location.settled(15_000);
  // The committed value stays readable after the location closes.
  const reader = location.catalog.read();
  const authStore = location.authStore;
  const authProblem = location.authStoreProblem();
  await location.close();
  // A run without the stored keys could neither use them nor keep them out of what it writes.
  if (authProblem) throw new UserError(authProblem);
  const sources = { configLayers: boot.config?.layers ?? [], modelsDev: modelsDev.current() };
  return {
    credentialEnvVars: [...new Set(reader.provider.all().flatMap((provider) => provider.env))],
    storedCredentials: async () => {
      try {
        return Object.entries(authStore.read()).map(([name, entry]) => ({ name, value: entry.key }));
      } catch {
        return [];
      }
    },
    prices: (providerID, modelID) => {
      const model = reader.model.get(providerID, modelID);
      return model && model.cost.length > 0 ? modelPrices(model) : null;
    },
    resolve: async (spec) => {
      const model = pickModel(reader, spec);
      const target = modelTarget(model, reader, authStore, boot.env);
      return { ...target, baseURLOrigin: baseURLOrigin({ providerID: model.providerID, id: model.id, url: target.baseURL, npm: target.npm }, sources) };
    },
  };
}

/** The catalog model `--model` names, or the default one; a clear error for anything else. */
export function pickModel(reader: CatalogReader, spec: string | undefined): CatalogModel {
  if (spec === undefined) {
    const fallback = reader.model.default();
    if (!fallback) {
      throw new NoModelError(
        "no model is available: set a provider's key variable (e.g. ANTHROPIC_API_KEY), run bosun auth set PROVIDER, or add a local server to bosun.json; bosun models --all lists the providers",
      );
    }
    return fallback;
  }
  const wanted = parseModelSpec(spec);
  if (!wanted) throw new NoModelError(`--model takes provider/model (e.g. anthropic/claude-sonnet-5), not ${JSON.stringify(spec)}`);
  const model = reader.model.get(wanted.providerID, wanted.modelID);
  if (!model) throw new NoModelError(`model ${spec} is not in the catalog (or a policy denies it); bosun models --all lists the models`);
  if (!model.enabled) throw new NoModelError(`model ${spec} is switched off in the catalog`);
  return model;
}

/** What the agent loop needs to reach a catalog model, with its credential (never printed). */
export function modelTarget(model: CatalogModel, reader: CatalogReader, authStore: AuthStore, env: Record<string, string | undefined>): ModelTarget {
  const provider = reader.provider.get(model.providerID)!;
  const npm = model.api.type === "aisdk" ? model.api.package : undefined;
  if (!npm || !(PROVIDER_PACKAGES as readonly string[]).includes(npm)) {
    throw new NoModelError(
      `${model.providerID}/${model.id} is served through ${npm ?? "no known AI SDK package"}, which bosun run cannot use yet (it speaks ${PROVIDER_PACKAGES.join(", ")}); set "npm" for provider ${model.providerID} in bosun.json if it speaks one of those`,
    );
  }
  const apiKey = credentialValue(reader, provider.id, provider.integrationID, provider.request.body.apiKey, authStore, env);
  const needsKey = provider.env.length > 0 || provider.integrationID !== undefined;
  return {
    providerID: model.providerID,
    modelID: model.api.id,
    name: model.name,
    npm: npm as ProviderPackage,
    ...(model.api.url ? { baseURL: model.api.url } : {}),
    headers: { ...model.request.headers },
    ...(apiKey ? { apiKey } : {}),
    credentialHint: needsKey ? { env: [...provider.env] } : null,
    limits: { context: model.limit.context || UNKNOWN_LIMITS.context, output: model.limit.output || UNKNOWN_LIMITS.output },
    toolCall: model.capabilities.tools,
    ...(model.cost.length > 0 ? { prices: modelPrices(model) } : {}),
  };
}

function credentialValue(
  reader: CatalogReader,
  providerID: string,
  integrationID: string | undefined,
  configKey: unknown,
  authStore: AuthStore,
  env: Record<string, string | undefined>,
): string | undefined {
  const credential = reader.credential(providerID);
  if (!credential) return undefined;
  if (credential.source === "config") return typeof configKey === "string" ? configKey : undefined;
  if (credential.source === "env") return credential.variable ? env[credential.variable]?.trim() : undefined;
  try {
    return authStore.get(integrationID ?? providerID)?.key;
  } catch {
    return undefined;
  }
}

/** A catalog model's prices as the loop counts them (USD per million tokens, tiers by input size). */
function modelPrices(model: CatalogModel): ModelPrice[] {
  return model.cost.map((entry) => ({ input: entry.input, output: entry.output, ...(entry.tier ? { aboveTokens: entry.tier.size } : {}) }));
}
