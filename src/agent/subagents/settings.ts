import type { SandboxNarrowing } from "../sandbox/sandbox.js";

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
 * - `sandbox`: network off and fewer writable folders for every sub-agent.
 */
export interface SubagentSettings {
  maxDepth: number;
  concurrency: number;
  treeConcurrency: number;
  /** How sub-agents' sandbox is narrower than the top-level agent's (never wider). */
  sandbox?: SandboxNarrowing;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxDepth: 1, concurrency: 4, treeConcurrency: 8 };

export function subagentSettings(config: Partial<SubagentSettings> | undefined): SubagentSettings {
  return { ...DEFAULT_SUBAGENT_SETTINGS, ...config };
}
