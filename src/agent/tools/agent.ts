import { z } from "zod";
import { oneLine } from "../session/list.js";
import { SUBAGENT_KINDS, type SubagentKind } from "../subagents/kinds.js";
import type { Caps } from "../subagents/limits.js";
import { MAX_SUBAGENT_TASKS } from "../subagents/settings.js";
import { SUBAGENT_SESSION_KEEP } from "../subagents/sessions.js";
import { ToolError, type AgentTool, type ToolContext, type ToolResult } from "./tool.js";

export const AGENT_TOOL_NAME = "agent";

/**
 * Tools a sub-agent never inherits: `agent` is rebuilt for each level (bound to that level, or
 * left out at the depth limit); the plan, memory and the user belong to the top-level agent.
 */
export const SUBAGENT_EXCLUDED_TOOLS = [AGENT_TOOL_NAME, "plan", "memory", "ask_user"] as const;

const KIND_HELP = `which agent runs it: ${SUBAGENT_KINDS.map((kind) => `"${kind}"`).join(", ")} (default "bosun": an agent like you; the others are the user's own CLIs, run headless)`;
const ISOLATION_HELP = '"worktree": its own git worktree on a new branch bosun/<session>/<task>, from the current commit (the default for the user\'s CLIs in a git repository); "none": the working folder itself (the default for bosun)';

const taskSchema = z
  .object({
    prompt: z.string().describe("The task: a complete, self-contained description with all the context the sub-agent needs"),
    agent: z.string().optional().describe(KIND_HELP),
    isolation: z.enum(["worktree", "none"]).optional().describe(ISOLATION_HELP),
    carry_changes: z.boolean().optional().describe("With a worktree: carry the user's uncommitted changes into it (only when the user asked for that)"),
  })
  .strict();

const limitsSchema = z
  .object({
    turns: z.number().int().min(1).optional(),
    tokens: z.number().int().min(1).optional(),
    seconds: z.number().positive().optional(),
    cost_usd: z.number().positive().optional(),
  })
  .strict();

const inputSchema = z
  .object({
    prompt: z.string().optional().describe("One task: a complete, self-contained description with all the context the sub-agent needs (it does not see this conversation)"),
    tasks: z
      .array(z.union([z.string(), taskSchema]))
      .max(MAX_SUBAGENT_TASKS, `at most ${MAX_SUBAGENT_TASKS} tasks per call; group small tasks together or call agent again`)
      .optional()
      .describe(`Several independent, self-contained tasks to run at once (at most ${MAX_SUBAGENT_TASKS}); instead of prompt. Each is a prompt, or {prompt, agent, isolation, carry_changes}`),
    agent: z.string().optional().describe(`For prompt, and the tasks that name none: ${KIND_HELP}`),
    isolation: z.enum(["worktree", "none"]).optional().describe(`For prompt, and the tasks that say nothing: ${ISOLATION_HELP}`),
    carry_changes: z.boolean().optional().describe("With worktrees: carry the user's uncommitted changes into them (only when the user asked for that)"),
    limits: limitsSchema
      .optional()
      .describe("Caps for each sub-agent of this call (turns, tokens, seconds, cost_usd); they can only narrow the caps bosun.json sets. A sub-agent over a cap is stopped and its work kept"),
    session_id: z
      .string()
      .optional()
      .describe("Continue the sub-agent conversation with this sessionID (from an earlier result) instead of starting a new one; only with prompt, and only for bosun's own sub-agents"),
  })
  .strict();

export type AgentToolInput = z.infer<typeof inputSchema>;

/** One task of an `agent` call: its prompt, which agent runs it, and where. */
export interface AgentTask {
  prompt: string;
  /** The kind asked for, as given: checked when the task starts, so a wrong one fails only its task. */
  agent: string;
  /** Null: the kind's default (a worktree for the user's CLIs in a git repository, the working folder for bosun). */
  isolation: "worktree" | "none" | null;
  carryChanges: boolean;
}

/** One `agent` call, checked: the tasks to run, the session to continue (single prompt only), and the call's caps. */
export interface AgentCall {
  tasks: AgentTask[];
  sessionId: string | null;
  /** Caps for each sub-agent of this call, narrowing `subagents.limits`. */
  limits: Caps;
}

/** Runs the sub-agents of one call; bound to the agent that owns the tool. */
export interface AgentToolRunner {
  /** Whether the sub-agents it starts may start sub-agents of their own. */
  nested: boolean;
  run(call: AgentCall, context: ToolContext): Promise<ToolResult>;
}

/**
 * The `agent` tool: hands self-contained tasks to sub-agents (nested agents with a fresh
 * conversation and this agent's tools) and returns their final answers with their session ids.
 */
export function createAgentTool(runner: AgentToolRunner): AgentTool<AgentToolInput> {
  return {
    name: AGENT_TOOL_NAME,
    description:
      "Delegate a self-contained task (research, exploring code, a bulk change) to a sub-agent: a fresh agent with your tools that works in the same folder " +
      "and returns only its final answer, so the work does not fill your context. It does not see this conversation: give it a complete prompt. " +
      `\`tasks\` runs up to ${MAX_SUBAGENT_TASKS} independent tasks at once (in parallel when nobody has to approve tool calls, otherwise one after another); ` +
      "they share the working folder, so they must not change the same files. " +
      "A task can name `agent` to run on one of the user's own agent CLIs instead (the user decides in bosun.json what each may do); in a git repository those work in a git worktree of their own, and the result says which branch holds the work and what changed. " +
      "Each result of bosun's own sub-agents carries a sessionID: pass it as session_id with a new prompt to continue that sub-agent with its context instead of repeating it. " +
      `Sub-agent sessions live only in this bosun process (the ${SUBAGENT_SESSION_KEEP} most recently used) and do not survive a restart. ` +
      (runner.nested ? "Sub-agents started here may delegate further." : "Sub-agents started here cannot delegate further."),
    inputSchema,
    // Delegating changes nothing by itself: every call a sub-agent makes goes through approval.
    access: "read",
    describe: (input) => {
      if (input.tasks && input.tasks.length > 0) {
        const kinds = [...new Set(input.tasks.map((task) => (typeof task === "string" ? undefined : task.agent) ?? input.agent ?? DEFAULT_KIND))];
        const who = kinds.length === 1 && kinds[0] === DEFAULT_KIND ? "" : ` (${kinds.join(", ")})`;
        return `agent: ${input.tasks.length} task${input.tasks.length === 1 ? "" : "s"}${who}`;
      }
      const prompt = oneLine(input.prompt ?? "", 100);
      const who = input.agent && input.agent !== DEFAULT_KIND ? `${input.agent}: ` : "";
      return input.session_id ? `agent: continue ${input.session_id}: ${prompt}` : `agent: ${who}${prompt}`;
    },
    async execute(input, context) {
      return runner.run(planAgentCall(input), context);
    },
  };
}

/**
 * Checks an `agent` call beyond its schema: exactly one of prompt and tasks, no empty task, and
 * session_id only with a single prompt for bosun. Each problem is an error the model can fix.
 * The agent kinds are not checked here: an unknown one fails only its own task.
 */
export function planAgentCall(input: AgentToolInput): AgentCall {
  const prompt = input.prompt?.trim() ?? "";
  const tasks = input.tasks ?? [];
  const sessionId = input.session_id?.trim() || null;
  const limits = callLimits(input.limits);
  const defaults = { agent: input.agent?.trim() || DEFAULT_KIND, isolation: input.isolation ?? null, carryChanges: input.carry_changes ?? false };
  if (prompt !== "" && tasks.length > 0) throw new ToolError("give either prompt (one task) or tasks (several), not both");
  if (sessionId && tasks.length > 0) throw new ToolError("session_id continues one conversation: use it with prompt, not with tasks");
  if (sessionId && defaults.agent !== DEFAULT_KIND) throw new ToolError(`session_id continues bosun's own sub-agents only; a ${defaults.agent} task starts afresh`);
  if (prompt !== "") return { tasks: [{ prompt, ...defaults }], sessionId, limits };
  if (tasks.length === 0) throw new ToolError("say what to do: give a non-empty prompt, or tasks (a list of prompts)");
  const planned = tasks.map((task): AgentTask => {
    if (typeof task === "string") return { prompt: task.trim(), ...defaults };
    return {
      prompt: task.prompt.trim(),
      agent: task.agent?.trim() || defaults.agent,
      isolation: task.isolation ?? defaults.isolation,
      carryChanges: task.carry_changes ?? defaults.carryChanges,
    };
  });
  const empty = planned.findIndex((task) => task.prompt === "");
  if (empty >= 0) throw new ToolError(`task ${empty + 1} of ${tasks.length} is empty; every task needs a complete prompt`);
  return { tasks: planned, sessionId: null, limits };
}

const DEFAULT_KIND: SubagentKind = "bosun";

function callLimits(limits: AgentToolInput["limits"]): Caps {
  if (!limits) return {};
  const { cost_usd: costUsd, ...rest } = limits;
  return { ...rest, ...(costUsd === undefined ? {} : { costUsd }) };
}
