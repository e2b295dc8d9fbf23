import { z } from "zod";
import { planAgentCall, type AgentToolInput } from "../../agent/tools/agent.js";
import { ToolError } from "../../agent/tools/tool.js";
import { MAX_SUBAGENT_TASKS } from "../../agent/subagents/settings.js";
import { formatTokens } from "../../llm/token-count.js";
import { refusalNote } from "./delegate-refusals.js";
import type { DelegateOutcome } from "./delegate-run.js";
import { ToolInputError } from "./errors.js";
import type { ServerTool } from "./tool.js";

const input = z
  .object({
    prompt: z.string().optional().describe("One task: a complete, self-contained description with all the context bosun's agent needs (it does not see your conversation)"),
    tasks: z
      .array(z.string())
      .min(1, "give at least one task")
      .max(MAX_SUBAGENT_TASKS, `at most ${MAX_SUBAGENT_TASKS} tasks per call`)
      .optional()
      .describe(`Several independent, self-contained tasks to run at once, each on its own sub-agent (at most ${MAX_SUBAGENT_TASKS}); instead of prompt`),
    session_id: z.string().optional().describe("Continue a task's sub-agent with its sessionId (from an earlier delegate result of this server) instead of starting afresh; only with prompt"),
    model: z.string().trim().min(1).optional().describe("The model, as provider/model (see catalog_search); bosun's default model when absent"),
    concurrency: z.number().int().min(1).max(MAX_SUBAGENT_TASKS).optional().describe("How many of the tasks run at once (default: bosun.json subagents.concurrency, 4)"),
    max_turns: z.number().int().min(1).max(10_000).optional().describe("Stop each sub-agent after this many model calls (default 50)"),
  })
  .strict();

/**
 * `delegate`: runs tasks on bosun's own agent, each on a sub-agent with bosun's tools, in the
 * folder the server was started in, under the approval mode the server was started with
 * (`bosun mcp serve --mode`/`--yes`, else bosun.json `permissions.mode`, else ask) and
 * bosun.json's `permissions`. Nobody can approve through MCP: a call that would have to ask is
 * refused, and the result says which and how the user can allow them. Progress goes to the
 * caller when it sent a progressToken; cancelling the request cancels the run.
 */
export const delegateTool: ServerTool<z.infer<typeof input>> = {
  name: "delegate",
  title: "Delegate to bosun's agent",
  description:
    "Run a task (prompt) or several independent tasks at once (tasks) on bosun's own coding agent: each runs on a sub-agent with bosun's tools (read, edit, bash, …) " +
    "in the folder this server was started in, on the model you name or bosun's default, and returns its final answer with its status, turns and tokens. " +
    "Tool calls follow the approval mode bosun mcp serve was started with and bosun.json's permissions; a call that would need the user's approval is refused " +
    "(nobody can approve here), and the result lists it. Tasks share the folder: they must not change the same files. Long runs report progress; cancelling the request cancels the run.",
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async call(args, serve, call) {
    const agentCall = checkedCall(args);
    const { runDelegate } = await import("./delegate-run.js");
    const outcome = await runDelegate(
      serve,
      {
        call: agentCall.input,
        prompts: agentCall.prompts,
        ...(args.model ? { modelSpec: args.model } : {}),
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        ...(args.max_turns ? { maxTurns: args.max_turns } : {}),
      },
      call,
    );
    const note = refusalNote(outcome.refused, serve.mode);
    const answer = answerOf(outcome);
    return {
      data: { answer, ...outcome, ...(note ? { note } : {}) },
      text: [answer, "", statsLine(outcome), ...(note ? [note] : [])].join("\n"),
      // As the agent tool says it: the call failed when no task completed.
      isError: outcome.status === "failed" || outcome.status === "cancelled",
    };
  },
};

/** The `agent` tool's input for a delegate call, and its prompts, checked as that tool checks them. */
function checkedCall(args: z.infer<typeof input>): { input: AgentToolInput; prompts: string[] } {
  try {
    const plan = planAgentCall({ ...(args.prompt === undefined ? {} : { prompt: args.prompt }), ...(args.tasks ? { tasks: args.tasks } : {}), ...(args.session_id === undefined ? {} : { session_id: args.session_id }) });
    const single = args.tasks === undefined;
    const prompts = plan.tasks.map((task) => task.prompt);
    const input: AgentToolInput = single ? { prompt: prompts[0]!, ...(plan.sessionId ? { session_id: plan.sessionId } : {}) } : { tasks: prompts };
    return { input, prompts };
  } catch (error) {
    if (error instanceof ToolError) throw new ToolInputError(`delegate: ${error.message}`);
    throw error;
  }
}

/** The final answer: one task's answer (or why there is none), or each task's under its own heading. */
function answerOf(outcome: DelegateOutcome): string {
  const text = (task: DelegateOutcome["tasks"][number]) => task.answer ?? `(${task.status}: ${task.error ?? "no answer"})`;
  if (outcome.tasks.length === 1) return text(outcome.tasks[0]!);
  return outcome.tasks.map((task) => `## Task ${task.task} of ${outcome.tasks.length}: ${task.status}\n\n${text(task)}`).join("\n\n");
}

/** `completed: 2 tasks · 5 turns · 1.2K tokens in / 80 out · 3.4 s · session …` */
function statsLine(outcome: DelegateOutcome): string {
  const { totals } = outcome;
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  return [
    `${outcome.status}: ${count(outcome.tasks.length, "task")}`,
    count(totals.turns, "turn"),
    `${formatTokens(totals.tokens.input)} tokens in / ${formatTokens(totals.tokens.output)} out`,
    `${(totals.ms / 1000).toFixed(1)} s`,
    `${outcome.model}, ${outcome.mode} mode`,
    `session ${outcome.session}`,
  ].join(" · ");
}
