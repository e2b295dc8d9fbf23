import { randomBytes } from "node:crypto";
import type { ModelMessage } from "ai";
import { AgentHooks, type AgentInfo } from "../../agent/hooks.js";
import type { AgentOptions, AgentRunResult } from "../../agent/loop.js";
import { AGENT_TOOL_NAME, type AgentToolInput } from "../../agent/tools/agent.js";
import { runToolCall } from "../../agent/tools/tool-runner.js";
import { SubagentsOffError } from "./errors.js";

/**
 * How a delegate run drives bosun's agent (`AgentRunIo.drive`): the top-level agent's one turn is
 * given, not asked of a model: it calls the `agent` tool with the caller's tasks. The call goes
 * through the tool runner as any model's call would (extensions' tool hooks, approval, output
 * cap, redaction), so the sub-agents get the run's tools, approval gate, sandbox and signal. The
 * session records the run as that conversation (the prompt, the call, its result), so `bosun
 * sessions show` draws the tree and `bosun run --session` can continue from the results.
 */
export function delegateDrive(call: AgentToolInput): (prompt: string, options: AgentOptions) => Promise<AgentRunResult> {
  return async (prompt, options) => {
    const { session, signal, redactor } = options;
    if (!options.tools.get(AGENT_TOOL_NAME)) throw new SubagentsOffError();
    const instructions = options.instructions?.files ?? [];
    const usage = { inputTokens: 0, outputTokens: 0 };
    session.append({ type: "run", phase: "start", prompt, mode: options.approval.mode, model: `${options.modelRef.providerID}/${options.modelRef.modelID}`, ...(instructions.length > 0 ? { instructions } : {}) });
    session.append({ type: "message", message: { role: "user", content: prompt } });
    const toolCall = { toolCallId: `delegate-${randomBytes(6).toString("hex")}`, toolName: AGENT_TOOL_NAME, input: call };
    session.append({ type: "message", message: { role: "assistant", content: [{ type: "tool-call", ...toolCall }] } satisfies ModelMessage });
    const agent: AgentInfo = { sessionId: session.id, workdir: options.workdir, model: options.modelRef, mode: options.approval.mode, depth: 0, tools: options.tools };
    const hooks = new AgentHooks(options.extensions ?? null, (message) => options.ui.onEvent({ type: "notice", message: redactor.text(message) }));
    const outcome = await runToolCall(toolCall, {
      registry: options.tools,
      approval: options.approval,
      hooks,
      agent,
      redactor,
      session,
      ui: options.ui,
      workdir: options.workdir,
      env: options.env,
      signal,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
    });
    session.append({ type: "message", message: { role: "tool", content: [outcome.part] } });
    const reason = signal.aborted ? "aborted" : "final";
    session.append({ type: "run", phase: "end", reason, turns: 0, usage });
    session.sync();
    const output = outcome.part.output;
    const text = output.type === "text" || output.type === "error-text" ? output.value : "";
    return { sessionId: session.id, reason, text, turns: 0, usage, instructions };
  };
}
