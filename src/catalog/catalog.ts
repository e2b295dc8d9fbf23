import { State, type Registration, type Transform, type TransformOptions } from "../kernel/state/state.js";
import type { Scope } from "../kernel/state/scope.js";
import { diffCatalogs, type CatalogDiff } from "./diff.js";
import { catalogEditor, type CatalogEditor } from "./editor.js";
import { Policy } from "./policy.js";
import { CatalogReader } from "./reader.js";
import { emptyCatalog, type CatalogValue } from "./records.js";

/** Sent once per rebuild that changed the catalog, after the new value is visible. */
export interface CatalogUpdated {
  type: "catalog.updated";
  /** The working directory whose catalog changed. */
  location: string;
  diff: CatalogDiff;
}

export interface CatalogOptions {
  location: string;
  policy?: Policy;
  now?: () => number;
  onListenerError?: (error: unknown) => void;
}

export type CatalogTransform = Transform<CatalogEditor>;

/**
 * One location's provider/model catalog: a State of `CatalogValue` rebuilt from the transforms
 * that plugins register, with the policy applied last (denied providers and models are removed,
 * whatever any transform did). `catalog.updated` fires only when a rebuild changed something.
 */
export class Catalog {
  private readonly state: State<CatalogValue, CatalogEditor, CatalogDiff>;
  private readonly readers = new WeakMap<CatalogValue, CatalogReader>();
  private policyInForce: Policy;

  constructor(private readonly options: CatalogOptions) {
    this.policyInForce = options.policy ?? new Policy();
    this.state = new State<CatalogValue, CatalogEditor, CatalogDiff>({
      initial: emptyCatalog,
      draft: catalogEditor,
      finalize: (_draft, value) => applyPolicy(value, this.policyInForce),
      compare: diffCatalogs,
      ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
    });
  }

  get location(): string {
    return this.options.location;
  }

  get policy(): Policy {
    return this.policyInForce;
  }

  /** Rebuilds run so far. */
  get rebuilds(): number {
    return this.state.rebuilds;
  }

  transform(scope: Scope, transform: CatalogTransform, options?: TransformOptions): Promise<Registration> {
    return this.state.transform(scope, transform, options);
  }

  reload(): Promise<void> {
    return this.state.reload();
  }

  /** Replaces the policy and rebuilds, so the new rules apply to everything again. */
  setPolicy(policy: Policy): Promise<void> {
    this.policyInForce = policy;
    return this.state.reload();
  }

  /** The committed value. */
  value(): CatalogValue {
    return this.state.get();
  }

  /** The read API over the committed value (projections are shared per value). */
  read(): CatalogReader {
    const value = this.state.get();
    let reader = this.readers.get(value);
    if (!reader) {
      reader = new CatalogReader(value, this.options.now);
      this.readers.set(value, reader);
    }
    return reader;
  }

  onUpdated(listener: (event: CatalogUpdated) => void): () => void {
    return this.state.subscribe(({ change }) => listener({ type: "catalog.updated", location: this.options.location, diff: change }));
  }

  /** No more rebuilds or events (a closing location unregisters everything without rebuilding). */
  close(): void {
    this.state.close();
  }
}

/** Removes what the policy denies: providers (`provider.use <id>`), then models (`model.use <provider>/<model>`). */
export function applyPolicy(value: CatalogValue, policy: Policy): void {
  if (policy.isEmpty) return;
  // A Map may lose the entry being visited: forEach goes on with the next one, so no copy of the keys is needed.
  if (policy.mentions("provider.use")) {
    value.providers.forEach((_, id, providers) => {
      if (policy.evaluate("provider.use", id, "allow").effect === "deny") providers.delete(id);
    });
  }
  if (policy.mentions("model.use")) {
    value.providers.forEach((entry, providerID) => {
      const denied = policy.modelDenier(providerID);
      if (!denied) return;
      entry.models.forEach((_, modelID, models) => {
        if (denied(modelID)) models.delete(modelID);
      });
    });
  }
}
