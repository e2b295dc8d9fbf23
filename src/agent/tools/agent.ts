import { z } from "zod";
import { oneLine } from "../session/list.js";
import { MAX_SUBAGENT_TASKS } from "../subagents/settings.js";
import { SUBAGENT_SESSION_KEEP } from "../subagents/sessions.js";
import { ToolError, type AgentTool, type ToolContext, type ToolResult } from "./tool.js";

export const AGENT_TOOL_NAME = "agent";

/**
 * Tools a sub-agent never inherits: `agent` is rebuilt for each level (bound to that level, or
 * left out at the depth limit); the plan, memory and the user belong to the top-level agent.
 */
export const SUBAGENT_EXCLUDED_TOOLS = [AGENT_TOOL_NAME, "plan", "memory", "ask_user"] as const;

const inputSchema = z
  .object({
    prompt: z.string().optional().describe("One task: a complete, self-contained description with all the context the sub-agent needs (it does not see this conversation)"),
    tasks: z
      .array(z.string())
      .max(MAX_SUBAGENT_TASKS, `at most ${MAX_SUBAGENT_TASKS} tasks per call; group small tasks together or call agent again`)
      .optional()
      .describe(`Several independent, self-contained tasks to run at once (at most ${MAX_SUBAGENT_TASKS}); instead of prompt`),
    session_id: z
      .string()
      .optional()
      .describe("Continue the sub-agent conversation with this sessionID (from an earlier result) instead of starting a new one; only with prompt"),
  })
  .strict();

export type AgentToolInput = z.infer<typeof inputSchema>;

/** One `agent` call, checked: the prompts to run, and the session to continue (single prompt only). */
export interface AgentCall {
  tasks: string[];
  sessionId: string | null;
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
      "Each result carries a sessionID: pass it as session_id with a new prompt to continue that sub-agent with its context instead of repeating it. " +
      `Sub-agent sessions live only in this bosun process (the ${SUBAGENT_SESSION_KEEP} most recently used) and do not survive a restart. ` +
      (runner.nested ? "Sub-agents started here may delegate further." : "Sub-agents started here cannot delegate further."),
    inputSchema,
    // Delegating changes nothing by itself: every call a sub-agent makes goes through approval.
    access: "read",
    describe: (input) => {
      if (input.tasks && input.tasks.length > 0) return `agent: ${input.tasks.length} task${input.tasks.length === 1 ? "" : "s"}`;
      const prompt = oneLine(input.prompt ?? "", 100);
      return input.session_id ? `agent: continue ${input.session_id}: ${prompt}` : `agent: ${prompt}`;
    },
    async execute(input, context) {
      return runner.run(planAgentCall(input), context);
    },
  };
}

/**
 * Checks an `agent` call beyond its schema: exactly one of prompt and tasks, no empty task, and
 * session_id only with a single prompt. Each problem is an error the model can fix.
 */
export function planAgentCall(input: AgentToolInput): AgentCall {
  const prompt = input.prompt?.trim() ?? "";
  const tasks = input.tasks ?? [];
  const sessionId = input.session_id?.trim() || null;
  if (prompt !== "" && tasks.length > 0) throw new ToolError("give either prompt (one task) or tasks (several), not both");
  if (sessionId && tasks.length > 0) throw new ToolError("session_id continues one conversation: use it with prompt, not with tasks");
  if (prompt !== "") return { tasks: [prompt], sessionId };
  if (tasks.length === 0) throw new ToolError("say what to do: give a non-empty prompt, or tasks (a list of prompts)");
  const empty = tasks.findIndex((task) => task.trim() === "");
  if (empty >= 0) throw new ToolError(`task ${empty + 1} of ${tasks.length} is empty; every task needs a complete prompt`);
  return { tasks: tasks.map((task) => task.trim()), sessionId: null };
}
