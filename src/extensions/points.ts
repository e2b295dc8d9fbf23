/**
 * The named extension points bosun calls, and whether each is called synchronously. An extension
 * at a sync point must not return a promise. Extensible functions add `<name>/start` and
 * `<name>/end` points of their own (see `extensible.ts`).
 */
export const EXTENSION_POINTS = {
  startup_migration: "sync",
  agent_init: "sync",
  system_prompt: "async",
  before_llm_call: "async",
  after_llm_call: "async",
  tool_before: "async",
  tool_after: "async",
  subagent_start: "async",
  subagent_end: "async",
} as const satisfies Record<string, "sync" | "async">;

export type ExtensionPointName = keyof typeof EXTENSION_POINTS;

/**
 * The one map from point name to what its extensions get. The subsystem that calls a point
 * declares its entry here by module augmentation, next to the types it hands out
 * (`startup_migration` in startup/runner.ts, the agent's points in agent/hooks.ts), so the host,
 * the callers and the README table read one definition. app/extension-points.ts fails to compile
 * when a point of `EXTENSION_POINTS` has no entry.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled by augmentation
export interface ExtensionPointArgs {}

/** What the extensions at `point` get: its entry in the map, or any object for a point the map does not name (`<name>/start` of an extensible function, a plugin's own). */
export type PointArgs<P extends string> = P extends keyof ExtensionPointArgs ? ExtensionPointArgs[P] : Readonly<Record<string, unknown>>;

/**
 * Points whose extensions only watch: one that throws is reported (the caller says how) and the
 * others still run, instead of ending what is being watched.
 */
export const OBSERVER_POINTS: ReadonlySet<string> = new Set<ExtensionPointName>(["after_llm_call", "subagent_end"]);

/** Point names are folder paths under `extensions/`: lower-case segments joined by `/`. */
const POINT_NAME = /^[a-z0-9_.-]+(\/[a-z0-9_.-]+)*$/;

export function assertPointName(point: string): void {
  if (!POINT_NAME.test(point) || point.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new Error(`invalid extension point name ${JSON.stringify(point)}`);
  }
}
