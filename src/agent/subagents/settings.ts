import type { SandboxNarrowing } from "../sandbox/sandbox.js";
import type { Caps, SubagentLimits } from "./limits.js";

/** The most tasks one `agent` call may fan out to. */
export const MAX_SUBAGENT_TASKS = 16;

/** How deep `subagents.maxDepth` may go: each level can multiply the work by 16. */
export const MAX_SUBAGENT_DEPTH = 5;

/**
 * `bosun.json` `subagents`, with defaults applied:
 * - `maxDepth`: how many levels of sub-agents may exist below the top-level agent (0 turns the
 *   `agent` tool off; 1, the default, lets the top-level agent delegate but not its sub-agents);
 * - `concurrency`: how many tasks of one `agent` call run at once, when they run in parallel;
 * - `treeConcurrency`: how many agents of the whole tree may run at once, across all levels;
 * - `sandbox`: network off and fewer writable folders for every sub-agent;
 * - `confirmAbove`: a fan-out of more tasks asks the user first (default 8);
 * - `limits`: caps on each sub-agent and on the tree (none by default).
 */
export interface SubagentSettings {
  maxDepth: number;
  concurrency: number;
  treeConcurrency: number;
  /** How sub-agents' sandbox is narrower than the top-level agent's (never wider). */
  sandbox?: SandboxNarrowing;
  confirmAbove: number;
  limits: SubagentLimits;
}

/** `bosun.json` `subagents` as written: the tree's caps sit inside `limits`, next to the per-sub-agent ones. */
export type SubagentSettingsInput = Partial<Omit<SubagentSettings, "limits">> & { limits?: Caps & { tree?: Caps } } & Partial<Record<"backend" | "url" | "queue" | "fallback", unknown>>;

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxDepth: 1, concurrency: 4, treeConcurrency: 8, confirmAbove: 8, limits: { child: {}, tree: {} } };

export function subagentSettings(config: SubagentSettingsInput | undefined): SubagentSettings {
  // Where the tasks run is the host's to set up (see the runners), not the tree's.
  const { limits, backend: _backend, url: _url, queue: _queue, fallback: _fallback, ...rest } = config ?? {};
  const { tree, ...child } = limits ?? {};
  return { ...DEFAULT_SUBAGENT_SETTINGS, ...rest, limits: { child, tree: tree ?? {} } };
}
