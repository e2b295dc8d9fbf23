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

/** Point names are folder paths under `extensions/`: lower-case segments joined by `/`. */
const POINT_NAME = /^[a-z0-9_.-]+(\/[a-z0-9_.-]+)*$/;

export function assertPointName(point: string): void {
  if (!POINT_NAME.test(point) || point.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new Error(`invalid extension point name ${JSON.stringify(point)}`);
  }
}
