import { credentialOf, isProviderAvailable, projectModel, type CatalogModel } from "./projection.js";
import type { CatalogValue, CredentialRef, ProviderRecord } from "./records.js";
import { pickSmallModel } from "./small-model.js";

/**
 * Reads one committed catalog value. Projections are computed once per value and shared by
 * every read, so listing 5,000 models twice costs one projection.
 */
export class CatalogReader {
  private projected: CatalogModel[] | undefined;
  private availability = new Map<string, boolean>();

  constructor(
    readonly value: CatalogValue,
    private readonly now: () => number = Date.now,
  ) {}

  readonly provider = {
    get: (id: string): ProviderRecord | undefined => this.value.providers.get(id)?.provider,
    /** Every provider, in insertion order. */
    all: (): ProviderRecord[] => [...this.value.providers.values()].map((entry) => entry.provider),
    available: (): ProviderRecord[] => this.provider.all().filter((provider) => this.isAvailable(provider.id)),
  };

  readonly model = {
    get: (providerID: string, modelID: string): CatalogModel | undefined => {
      const entry = this.value.providers.get(providerID);
      const model = entry?.models.get(modelID);
      return entry && model ? projectModel(entry.provider, model) : undefined;
    },
    /** Every model, newest release first (ties keep provider, then model, order). */
    all: (): CatalogModel[] => this.projectAll(),
    /** Models of available providers that are switched on. */
    available: (): CatalogModel[] => this.projectAll().filter((model) => model.enabled && this.isAvailable(model.providerID)),
    /** The configured default when it is usable, otherwise the newest available model. */
    default: (): CatalogModel | undefined => {
      const wanted = this.value.defaultModel;
      if (wanted && this.isAvailable(wanted.providerID)) {
        const model = this.model.get(wanted.providerID, wanted.modelID);
        if (model?.enabled) return model;
      }
      return this.model.available()[0];
    },
    /** A cheap helper model of one provider (see `pickSmallModel`). */
    small: (providerID: string): CatalogModel | undefined => {
      if (!this.value.providers.has(providerID)) return undefined;
      return pickSmallModel(providerID, this.projectAll().filter((model) => model.providerID === providerID), this.now());
    },
  };

  /** Which credential a provider would use (never its value). */
  credential(providerID: string): CredentialRef | undefined {
    const entry = this.value.providers.get(providerID);
    return entry ? credentialOf(entry.provider, this.value.credentials) : undefined;
  }

  isAvailable(providerID: string): boolean {
    let known = this.availability.get(providerID);
    if (known === undefined) {
      const entry = this.value.providers.get(providerID);
      known = entry ? isProviderAvailable(entry.provider, this.value.credentials) : false;
      this.availability.set(providerID, known);
    }
    return known;
  }

  private projectAll(): CatalogModel[] {
    if (!this.projected) {
      const list: CatalogModel[] = [];
      for (const { provider, models } of this.value.providers.values()) {
        for (const model of models.values()) list.push(projectModel(provider, model));
      }
      // Array.prototype.sort is stable, so equal release times keep insertion order.
      this.projected = list.sort((a, b) => b.time.released - a.time.released);
    }
    return this.projected;
  }
}
