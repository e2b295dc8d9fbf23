import { emptyModel, emptyProvider, type CatalogValue, type CredentialIndex, type ModelRecord, type ModelRef, type ProviderEntry, type ProviderRecord, type ProviderApi, type RequestParts } from "./records.js";

/**
 * What a transform edits: the catalog being built. Records it returns are live (edit them in
 * place); `update` creates a record the first time an id is named.
 */
export interface CatalogEditor {
  provider: {
    list(): ProviderEntry[];
    get(id: string): ProviderEntry | undefined;
    update(id: string, edit: (provider: ProviderRecord) => void): ProviderRecord;
    remove(id: string): void;
  };
  model: {
    get(providerID: string, modelID: string): ModelRecord | undefined;
    update(providerID: string, modelID: string, edit: (model: ModelRecord) => void): ModelRecord;
    /** Puts a complete record in place (replacing any), for sources that build whole records. */
    set(providerID: string, model: ModelRecord): ModelRecord;
    remove(providerID: string, modelID: string): void;
    default: {
      get(): ModelRef | undefined;
      /** Not checked here: a default that is unavailable when read falls back to the newest model. */
      set(providerID: string, modelID: string): void;
    };
  };
  credentials: {
    get(): CredentialIndex;
    set(index: CredentialIndex): void;
  };
}

export function catalogEditor(value: CatalogValue): CatalogEditor {
  const entry = (id: string): ProviderEntry => {
    let found = value.providers.get(id);
    if (!found) {
      found = { provider: emptyProvider(id), models: new Map() };
      value.providers.set(id, found);
    }
    return found;
  };
  return {
    provider: {
      list: () => [...value.providers.values()],
      get: (id) => value.providers.get(id),
      update(id, edit) {
        const { provider } = entry(id);
        edit(provider);
        provider.id = id;
        moveBaseURL(provider);
        return provider;
      },
      remove: (id) => void value.providers.delete(id),
    },
    model: {
      get: (providerID, modelID) => value.providers.get(providerID)?.models.get(modelID),
      update(providerID, modelID, edit) {
        const { models } = entry(providerID);
        let model = models.get(modelID);
        if (!model) {
          model = emptyModel(providerID, modelID);
          models.set(modelID, model);
        }
        edit(model);
        // The record's keys are the truth, whatever the edit did to the fields.
        model.id = modelID;
        model.providerID = providerID;
        moveBaseURL(model);
        return model;
      },
      set(providerID, model) {
        model.providerID = providerID;
        moveBaseURL(model);
        entry(providerID).models.set(model.id, model);
        return model;
      },
      remove: (providerID, modelID) => void value.providers.get(providerID)?.models.delete(modelID),
      default: {
        get: () => value.defaultModel,
        set: (providerID, modelID) => void (value.defaultModel = { providerID, modelID }),
      },
    },
    credentials: {
      get: () => value.credentials,
      set: (index) => void (value.credentials = { stored: new Set(index.stored), env: new Set(index.env) }),
    },
  };
}

/**
 * A `baseURL` left in a request body (the AI SDK option name many configs use) is where the
 * endpoint is, so it moves to `api.url` instead of being sent as a body field.
 */
function moveBaseURL(record: { api: ProviderApi; request: RequestParts }): void {
  const baseURL = record.request.body.baseURL;
  if (typeof baseURL !== "string") return;
  record.api.url = baseURL;
  delete record.request.body.baseURL;
}
