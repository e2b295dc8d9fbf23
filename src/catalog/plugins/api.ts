import type { Log } from "../../kernel/log.js";
import type { BosunPaths, Env } from "../../kernel/paths.js";
import type { CatalogTransform } from "../catalog.js";
import type { Finalizer } from "../../kernel/state/scope.js";
import type { Registration } from "../../kernel/state/state.js";

export type { CatalogEditor } from "../editor.js";
export type { CatalogTransform } from "../catalog.js";
export type { Registration } from "../../kernel/state/state.js";

/** What a plugin's `activate` gets. Everything it registers lives until the plugin is disabled. */
export interface PluginContext {
  /** The plugin's name (its folder name for a plugin on disk). */
  name: string;
  /** The working directory this catalog belongs to. */
  location: string;
  env: Env;
  paths: BosunPaths;
  catalog: {
    /**
     * Registers a replayable edit of the catalog: it runs on every rebuild, after the transforms
     * registered before it, and its effects disappear when the plugin is disabled.
     */
    transform(transform: CatalogTransform): Promise<Registration>;
    /** Rebuilds the catalog, e.g. after something a transform reads has changed. */
    reload(): Promise<void>;
  };
  /**
   * Extension points of the plugin's own: `extensible("sync-team", fn)` returns `fn` wrapped with
   * the points `<plugin>.sync-team/start` and `/end` (see "Extensible functions"), so other
   * plugins and the user can hook it. bosun's own points are bosun's to call: a plugin cannot fire
   * `tool_before` or any other of them.
   */
  extensions: PluginExtensions;
  /** Lines in bosun's log, tagged with the plugin's name. */
  log: Log;
  /** Runs when the plugin is disabled or its location closes (stop timers, close files). */
  onDispose(cleanup: Finalizer): void;
}

/** What a plugin may do with extension points: make functions of its own extensible. */
export interface PluginExtensions {
  extensible<A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
}

/** A plugin: built-in ones and those on disk (`plugin.json` `main`) have the same shape. */
export interface BosunPlugin {
  name: string;
  activate(ctx: PluginContext): void | Promise<void>;
}
