import { AsyncLocalStorage } from "node:async_hooks";
import { currentBatch, type Rebuildable } from "./batch.js";
import { Mutex } from "./mutex.js";
import type { Scope } from "./scope.js";

/** A replayable edit: gets the editor over the value being built. A returned promise is awaited; any other result is ignored. */
export type Transform<D> = (draft: D) => unknown;

export interface TransformOptions {
  /**
   * Isolates this transform: when it throws during a rebuild it is set aside (never run again
   * until registered anew), this is called with the error, and the rebuild starts over without
   * it, so no half-applied edit is ever published. Without it, a throwing transform fails the
   * rebuild and the previous value stays.
   */
  onError?: (error: unknown) => void;
}

/** A registered transform. `dispose` is idempotent and also runs when the scope closes. */
export interface Registration {
  readonly active: boolean;
  dispose(): Promise<void>;
}

export interface StateOptions<S, D, C> {
  /** A new base value, for the first value and for every rebuild. */
  initial(): S;
  /** The editor transforms get over the value being built. */
  draft(value: S): D;
  /** Runs after every transform, before the value is published (the catalog applies policy here). */
  finalize?(draft: D, value: S): void | Promise<void>;
  /**
   * What changed between the committed value and a rebuilt one; `null` when nothing did, in which
   * case the committed value stays (same object) and listeners hear nothing.
   */
  compare?(previous: S, next: S): C | null;
  /** Where a throwing listener is reported (listeners never break a rebuild). */
  onListenerError?(error: unknown): void;
}

export interface StateChange<S, C> {
  value: S;
  previous: S;
  change: C;
}

interface Entry<D> {
  transform: Transform<D>;
  onError: ((error: unknown) => void) | undefined;
  quarantined: boolean;
}

/** A transform threw during a rebuild that had no isolation for it. */
export class TransformError extends Error {
  override name = "TransformError";
}

// The rebuilds running in the current async context, to fail fast instead of deadlocking when a
// transform waits for a change to the very State it is being replayed into.
const rebuilding = new AsyncLocalStorage<ReadonlySet<object>>();

/**
 * A value rebuilt from scratch by replaying registered transforms: every rebuild is
 * `initial()` → each active transform in registration order → `finalize` → publish. The
 * committed value is never edited afterwards, so readers may keep old values. One mutex per
 * State serializes registration, disposal and rebuilds; inside `batch` the rebuild waits for
 * the end of the batch.
 */
export class State<S, D, C = true> implements Rebuildable {
  private value: S;
  private readonly entries: Entry<D>[] = [];
  private readonly mutex = new Mutex();
  private readonly listeners = new Set<(event: StateChange<S, C>) => void>();
  private queued: Promise<void> | undefined;
  private token: object | undefined;
  private closed = false;
  /** Rebuilds run so far (benchmarks and tests read it). */
  rebuilds = 0;

  constructor(private readonly options: StateOptions<S, D, C>) {
    this.value = options.initial();
  }

  /** The last committed value. */
  get(): S {
    return this.value;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Registers a transform for as long as `scope` is open and rebuilds (or defers to the batch). */
  async transform(scope: Scope, transform: Transform<D>, options: TransformOptions = {}): Promise<Registration> {
    this.assertNotRebuildingHere("register a transform on");
    const entry: Entry<D> = { transform, onError: options.onError, quarantined: false };
    let disposing: Promise<void> | undefined;
    let active = true;
    const registration: Registration = {
      get active() {
        return active;
      },
      dispose: () => {
        active = false;
        disposing ??= this.unregister(entry, removeFinalizer);
        return disposing;
      },
    };
    const removeFinalizer = scope.addFinalizer(() => registration.dispose());
    await this.mutex.run(() => {
      this.entries.push(entry);
    });
    await this.requestRebuild();
    return registration;
  }

  /** Rebuilds now (or at the end of the current batch), e.g. because a transform's inputs changed. */
  reload(): Promise<void> {
    this.assertNotRebuildingHere("reload");
    return this.requestRebuild();
  }

  /** Listens for committed changes; the new value is already visible when a listener runs. */
  subscribe(listener: (event: StateChange<S, C>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stops rebuilding: later disposals only unregister, so tearing a location down does not
   * rebuild a value nobody will read or notify anyone.
   */
  close(): void {
    this.closed = true;
    this.listeners.clear();
  }

  /** One rebuild under the mutex. Requests made while one waits for the mutex share it. */
  rebuildNow(): Promise<void> {
    this.queued ??= this.mutex.run(() => {
      this.queued = undefined;
      return this.materialize();
    });
    return this.queued;
  }

  private requestRebuild(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const open = currentBatch();
    if (open) {
      open.defer(this);
      return Promise.resolve();
    }
    return this.rebuildNow();
  }

  private async unregister(entry: Entry<D>, removeFinalizer: () => void): Promise<void> {
    removeFinalizer();
    await this.mutex.run(() => {
      const index = this.entries.indexOf(entry);
      if (index >= 0) this.entries.splice(index, 1);
    });
    await this.requestRebuild();
  }

  private async materialize(): Promise<void> {
    if (this.closed) return;
    const token = {};
    const outer = rebuilding.getStore();
    this.token = token;
    try {
      await rebuilding.run(new Set([...(outer ?? []), token]), () => this.replay());
    } finally {
      this.token = undefined;
    }
  }

  private async replay(): Promise<void> {
    for (;;) {
      this.rebuilds++;
      const next = this.options.initial();
      const draft = this.options.draft(next);
      const failure = await this.applyTransforms(draft);
      if (failure) {
        failure.entry.quarantined = true;
        try {
          failure.entry.onError!(failure.error);
        } catch (error) {
          this.options.onListenerError?.(error);
        }
        continue;
      }
      if (this.options.finalize) await this.options.finalize(draft, next);
      this.publish(next);
      return;
    }
  }

  private async applyTransforms(draft: D): Promise<{ entry: Entry<D>; error: unknown } | undefined> {
    for (const entry of this.entries.slice()) {
      if (entry.quarantined) continue;
      try {
        const result = entry.transform(draft);
        if (isPromiseLike(result)) await result;
      } catch (error) {
        if (entry.onError) return { entry, error };
        throw new TransformError(`a transform failed, so the previous value stays: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    return undefined;
  }

  private publish(next: S): void {
    const previous = this.value;
    let change: C;
    if (this.options.compare) {
      const found = this.options.compare(previous, next);
      if (found === null) return;
      change = found;
    } else {
      change = true as C;
    }
    this.value = next;
    for (const listener of [...this.listeners]) {
      try {
        listener({ value: next, previous, change });
      } catch (error) {
        (this.options.onListenerError ?? reportListenerError)(error);
      }
    }
  }

  private assertNotRebuildingHere(what: string): void {
    if (this.token && rebuilding.getStore()?.has(this.token)) {
      throw new Error(`a transform cannot ${what} the state it is being replayed into (it would wait for itself forever)`);
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function reportListenerError(error: unknown): void {
  process.emitWarning(`a state listener failed: ${error instanceof Error ? error.message : String(error)}`);
}
