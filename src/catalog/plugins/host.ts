import { AsyncLocalStorage } from "node:async_hooks";
import type { Log } from "../../kernel/log.js";
import type { BosunPaths, Env } from "../../kernel/paths.js";
import type { Catalog, CatalogTransform } from "../catalog.js";
import { describeError } from "../../kernel/errors.js";
import type { ExtensionHost } from "../../extensions/host.js";
import { Batch, batch } from "../../kernel/state/batch.js";
import { Mutex } from "../../kernel/state/mutex.js";
import type { Scope } from "../../kernel/state/scope.js";
import type { BosunPlugin, PluginContext, PluginExtensions } from "./api.js";
import { extensibleAsync } from "../../extensions/extensible.js";
import { assertPointName } from "../../extensions/points.js";

export type PluginOrigin = "builtin" | "user";
export type PluginState = "activating" | "active" | "failed" | "removed";

/** What `bosun status` shows for a plugin. */
export interface PluginReport {
  name: string;
  origin: PluginOrigin;
  state: PluginState;
  problem: string | null;
}

/** A plugin whose module still has to be loaded (a plugin on disk). */
export interface LazyPlugin {
  name: string;
  load(): Promise<BosunPlugin>;
}

export class PluginActivationError extends Error {
  override name = "PluginActivationError";
  constructor(
    readonly plugin: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`plugin ${plugin}: ${problem}`, options);
  }
}

export interface PluginHostOptions {
  catalog: Catalog;
  /** The location's scope; each plugin gets a child of it. */
  scope: Scope;
  location: string;
  env: Env;
  paths: BosunPaths;
  extensions: ExtensionHost;
  log: Log;
  /** An activation that takes longer fails (default 10 s). */
  activationTimeoutMs?: number;
  /** An async catalog transform that takes longer fails (default 10 s). */
  transformTimeoutMs?: number;
  /** Background activations finishing within this many ms share one rebuild (default 25). */
  coalesceMs?: number;
}

interface Active {
  scope: Scope;
  origin: PluginOrigin;
}

// Names being activated in the current async context: activating one again from inside its own
// activation is a load cycle, reported instead of waiting forever.
const activating = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs plugins for one location. Each plugin activates in a scope of its own; disabling it
 * closes the scope, which unregisters everything it registered, and the catalog rebuilds
 * without it. A plugin that throws (while activating, or later in a transform) is taken out
 * whole and reported; the others keep working.
 */
export class PluginHost {
  private readonly active = new Map<string, Active>();
  private readonly states = new Map<string, PluginReport>();
  private readonly locks = new Map<string, Mutex>();
  private readonly waiters = new Map<string, { resolve: () => void; reject: (error: unknown) => void }[]>();
  private readonly failures = new Map<string, PluginActivationError>();
  private readonly pending = new Set<Promise<unknown>>();
  private background: Promise<void> = Promise.resolve();

  constructor(private readonly options: PluginHostOptions) {}

  /** Every plugin this host has seen, in the order they were added. */
  reports(): PluginReport[] {
    return [...this.states.values()].map((report) => ({ ...report }));
  }

  /**
   * Activates a plugin (replacing an active one of the same name) inside one batch, so all its
   * registrations cost one rebuild. Rejects when it fails; it is then reported and inactive.
   */
  add(plugin: BosunPlugin, origin: PluginOrigin = "builtin"): Promise<void> {
    if (activating.getStore()?.has(plugin.name)) {
      return Promise.reject(new PluginActivationError(plugin.name, "activates itself again while activating (a load cycle)"));
    }
    return this.lockFor(plugin.name).run(() =>
      activating.run(new Set([...(activating.getStore() ?? []), plugin.name]), () => batch(() => this.activate(plugin, origin))),
    );
  }

  /**
   * Activates plugins without making anyone wait: their modules load in parallel, then they
   * activate one after another in the order given (so their transforms replay in a stable
   * order). Activations that finish close together share one rebuild.
   */
  addInBackground(plugins: LazyPlugin[], origin: PluginOrigin = "user"): void {
    if (plugins.length === 0) return;
    for (const plugin of plugins) this.report(plugin.name, origin, "activating", null);
    const group = new Batch();
    const coalesceMs = this.options.coalesceMs ?? 25;
    let timer: NodeJS.Timeout | undefined;
    const flushSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void group.flush().catch((error: unknown) => this.logRebuildFailure(error)), coalesceMs);
      timer.unref();
    };
    const loads = plugins.map((plugin) => {
      const loading = plugin.load();
      loading.catch(() => undefined);
      return loading;
    });
    const run = async () => {
      for (const [index, lazy] of plugins.entries()) {
        let plugin: BosunPlugin;
        try {
          plugin = await withTimeout(loads[index]!, this.options.activationTimeoutMs ?? 10_000, "did not load in time");
        } catch (error) {
          this.recordFailure(lazy.name, origin, `cannot be loaded: ${describeError(error)}`, error);
          continue;
        }
        await group.run(() => this.add(plugin, origin)).catch(() => undefined);
        flushSoon();
      }
      clearTimeout(timer);
      await group.close().catch((error: unknown) => this.logRebuildFailure(error));
    };
    this.background = Promise.all([this.background, run()]).then(() => undefined);
  }

  /** Disables a plugin: its scope closes and the catalog rebuilds without its transforms. */
  remove(name: string): Promise<void> {
    return this.lockFor(name).run(() =>
      batch(async () => {
        const current = this.active.get(name);
        if (!current) return;
        this.active.delete(name);
        await current.scope.close();
        this.report(name, current.origin, "removed", null);
      }),
    );
  }

  /** Resolves once the plugin is active; rejects with its failure. */
  wait(name: string): Promise<void> {
    if (this.active.has(name)) return Promise.resolve();
    const failure = this.failures.get(name);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(name) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(name, list);
    });
  }

  /**
   * Waits for the background activations and for plugins being taken out after a failure.
   * Returns false when `timeoutMs` passed first (those still activating stay so in `reports`).
   */
  async settled(timeoutMs = 15_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const done = (async () => {
      await this.background;
      while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
      return true as const;
    })();
    try {
      return await Promise.race([done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async activate(plugin: BosunPlugin, origin: PluginOrigin): Promise<void> {
    const previous = this.active.get(plugin.name);
    if (previous) {
      this.active.delete(plugin.name);
      await previous.scope.close();
    }
    this.failures.delete(plugin.name);
    this.report(plugin.name, origin, "activating", null);
    const scope = this.options.scope.fork();
    try {
      await withTimeout(Promise.resolve().then(() => plugin.activate(this.contextFor(plugin.name, scope))), this.options.activationTimeoutMs ?? 10_000, "did not finish activating in time");
    } catch (error) {
      await scope.close().catch(() => undefined);
      throw this.recordFailure(plugin.name, origin, `activation failed: ${describeError(error)}`, error);
    }
    this.active.set(plugin.name, { scope, origin });
    this.report(plugin.name, origin, "active", null);
    for (const waiter of this.waiters.get(plugin.name) ?? []) waiter.resolve();
    this.waiters.delete(plugin.name);
  }

  private contextFor(name: string, scope: Scope): PluginContext {
    const { catalog, log } = this.options;
    const tagged = (fields?: Record<string, unknown>) => ({ plugin: name, ...fields });
    return {
      name,
      location: this.options.location,
      env: this.options.env,
      paths: this.options.paths,
      extensions: pluginExtensions(this.options.extensions, name),
      log: {
        info: (message, fields) => log.info(message, tagged(fields)),
        warn: (message, fields) => log.warn(message, tagged(fields)),
        error: (message, fields) => log.error(message, tagged(fields)),
      },
      onDispose: (cleanup) => void scope.addFinalizer(cleanup),
      catalog: {
        transform: (transform) => catalog.transform(scope, this.guard(name, transform), { onError: (error) => this.transformFailed(name, error) }),
        reload: () => catalog.reload(),
      },
    };
  }

  /** An async transform gets a deadline, so one plugin cannot stall every rebuild. */
  private guard(name: string, transform: CatalogTransform): CatalogTransform {
    const limit = this.options.transformTimeoutMs ?? 10_000;
    return (editor) => {
      const result = transform(editor);
      if (typeof (result as { then?: unknown } | null)?.then !== "function") return result;
      return withTimeout(Promise.resolve(result), limit, `${name}'s catalog transform did not finish in time`);
    };
  }

  // Called by the catalog in the middle of a rebuild (which already left this transform out):
  // the rest of the plugin is taken out afterwards, outside the rebuild.
  private transformFailed(name: string, error: unknown): void {
    const current = this.active.get(name);
    this.recordFailure(name, current?.origin ?? this.states.get(name)?.origin ?? "user", `its catalog transform threw: ${describeError(error)}`, error);
    if (!current) return;
    this.active.delete(name);
    const closing = current.scope.close().catch((closeError: unknown) => this.options.log.warn("plugin cleanup failed", { plugin: name, error: describeError(closeError) }));
    this.pending.add(closing);
    void closing.finally(() => this.pending.delete(closing));
  }

  private recordFailure(name: string, origin: PluginOrigin, problem: string, cause: unknown): PluginActivationError {
    const failure = new PluginActivationError(name, problem, { cause });
    this.failures.set(name, failure);
    this.report(name, origin, "failed", problem);
    this.options.log.warn("plugin failed", { plugin: name, problem });
    for (const waiter of this.waiters.get(name) ?? []) waiter.reject(failure);
    this.waiters.delete(name);
    return failure;
  }

  private report(name: string, origin: PluginOrigin, state: PluginState, problem: string | null): void {
    this.states.set(name, { name, origin, state, problem });
  }

  private lockFor(name: string): Mutex {
    let lock = this.locks.get(name);
    if (!lock) {
      lock = new Mutex();
      this.locks.set(name, lock);
    }
    return lock;
  }

  private logRebuildFailure(error: unknown): void {
    this.options.log.error("catalog rebuild after plugin activation failed", { error: describeError(error) });
  }
}

/** Rejects with `message` when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** A plugin's own extensible functions, named `<plugin>.<name>` so they never reach bosun's points. */
function pluginExtensions(host: ExtensionHost, plugin: string): PluginExtensions {
  return {
    extensible: (name, fn) => {
      if (name.includes("/")) throw new Error(`invalid extensible function name ${JSON.stringify(name)}: use one segment (no "/")`);
      const point = `${plugin}.${name}`;
      assertPointName(point);
      return extensibleAsync(host, point, fn);
    },
  };
}
