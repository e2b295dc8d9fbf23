import type { CredentialIndex, CredentialRef, ModelApi, ModelRecord, ProviderApi, ProviderRecord, RequestParts } from "./records.js";

/** A model as readers see it: its endpoint and request resolved against its provider. */
export type CatalogModel = ModelRecord;

/**
 * The credential a provider would use, in order: a key in its config entry, a key in bosun's auth
 * store (under its integration id, else its own), the first of its variables that is set.
 */
export function credentialOf(provider: ProviderRecord, credentials: CredentialIndex): CredentialRef | undefined {
  const apiKey = provider.request.body.apiKey;
  if (typeof apiKey === "string" && apiKey !== "") return { source: "config" };
  if (credentials.stored.has(provider.integrationID ?? provider.id)) return { source: "auth" };
  for (const variable of provider.env) if (credentials.env.has(variable)) return { source: "env", variable };
  return undefined;
}

/**
 * Whether a provider can be used: not switched off, and either holding a credential or needing
 * none (no key variables and no integration named), like a local server.
 */
export function isProviderAvailable(provider: ProviderRecord, credentials: CredentialIndex): boolean {
  if (provider.disabled) return false;
  if (credentialOf(provider, credentials)) return true;
  return provider.env.length === 0 && provider.integrationID === undefined;
}

/**
 * Resolves a model against its provider: a model without an endpoint of its own (native, no url,
 * no settings) uses the provider's; two AI SDK endpoints share url and settings (the model's
 * win); headers and body merge provider first, model second.
 */
export function projectModel(provider: ProviderRecord, model: ModelRecord): CatalogModel {
  return { ...model, api: projectApi(provider.api, model.api), request: projectRequest(provider.request, model.request) };
}

function projectApi(provider: ProviderApi, model: ModelApi): ModelApi {
  if (model.type === "native" && model.url === undefined && isEmpty(model.settings)) {
    return provider.type === "aisdk"
      ? withUrl({ id: model.id, type: "aisdk", package: provider.package, settings: { ...provider.settings } }, provider.url)
      : withUrl({ id: model.id, type: "native", settings: { ...provider.settings } }, provider.url);
  }
  if (model.type === "aisdk" && provider.type === "aisdk") {
    return withUrl({ id: model.id, type: "aisdk", package: model.package, settings: { ...provider.settings, ...model.settings } }, model.url ?? provider.url);
  }
  return model;
}

function projectRequest(provider: RequestParts, model: ModelRecord["request"]): ModelRecord["request"] {
  const merged: ModelRecord["request"] = { headers: { ...provider.headers, ...model.headers }, body: { ...provider.body, ...model.body } };
  if (model.variant !== undefined) merged.variant = model.variant;
  return merged;
}

function withUrl<T extends ModelApi>(api: T, url: string | undefined): T {
  if (url !== undefined) api.url = url;
  return api;
}

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}
