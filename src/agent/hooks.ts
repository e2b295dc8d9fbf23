import type { ModelMessage } from "ai";
import type { ExtensionHost } from "../extensions/host.js";
import type { StepToolCall } from "./model/step.js";
import type { SubagentStatus, TokenUsage } from "./session/format.js";
import type { ToolRegistry } from "./tools/tool-registry.js";

/** What every agent extension point gets as `agent`: who is running, where, with what. */
export interface AgentInfo {
  sessionId: string;
  workdir: string;
  model: { providerID: string; modelID: string };
  mode: string;
  /** 0 for the top-level agent, 1 for its sub-agents, … */
  depth: number;
  /** The agent's tools; `agent_init` extensions may register or remove tools here. */
  tools: ToolRegistry;
}

/** `tool_before`: an extension may set `veto` (the call is not run; the model reads the reason). */
export interface ToolBeforeCall {
  name: string;
  callId: string;
  input: unknown;
  veto?: string;
}

/** `tool_after`: an extension may rewrite `result.output` (it is redacted again afterwards). */
export interface ToolAfterCall {
  name: string;
  callId: string;
  input: unknown;
  result: { output: string; isError: boolean; status: string };
}

/** A sub-agent run, as `subagent_start` and `subagent_end` extensions see it. */
export interface SubagentCallInfo {
  /** The sub-agent's session id (the `sessionID` the model can continue it by). */
  id: string;
  /** 1 for a new session; a continued one counts on. */
  run: number;
  prompt: string;
  depth: number;
  /** Its task's position in the `agent` call (1-based) and the number of tasks in the call. */
  task: number;
  tasks: number;
  continued: boolean;
}

/** `subagent_start`: an extension may set `veto` (the sub-agent does not run; the model reads the reason). */
export interface SubagentStartCall extends SubagentCallInfo {
  veto?: string;
}

/** `subagent_end` (read-only): how the run ended; `text` is the final answer or why it failed. */
export interface SubagentEndCall extends SubagentCallInfo {
  status: SubagentStatus;
  ms: number;
  turns: number;
  text: string;
}

/** What `after_llm_call` extensions see (read-only). */
export interface LlmResponse {
  turn: number;
  text: string;
  toolCalls: StepToolCall[];
  usage: TokenUsage;
  finishReason: string;
}

declare module "../extensions/points.js" {
  interface ExtensionPointArgs {
    agent_init: { agent: AgentInfo };
    system_prompt: { agent: AgentInfo; prompt: { text: string } };
    before_llm_call: { agent: AgentInfo; request: { turn: number; system: string; messages: ModelMessage[] } };
    after_llm_call: { agent: AgentInfo; response: LlmResponse };
    tool_before: { agent: AgentInfo; tool: ToolBeforeCall };
    tool_after: { agent: AgentInfo; tool: ToolAfterCall };
    subagent_start: { agent: AgentInfo; subagent: SubagentStartCall };
    subagent_end: { agent: AgentInfo; subagent: SubagentEndCall };
  }
}

/** Told about an observer extension that threw (the run goes on): one line naming its file. */
export type ObserverProblem = (message: string) => void;

/**
 * The agent's extension points, called through the foundation's ExtensionHost (or nowhere, for a
 * host-less loop in tests). Each gets `{agent, …}`; the object after the agent holds what the
 * extension may change.
 */
export class AgentHooks {
  constructor(
    private readonly host: ExtensionHost | null,
    private readonly onObserverProblem: ObserverProblem = () => {},
  ) {}

  /** `agent_init` (sync): once, before anything is sent. */
  async init(agent: AgentInfo): Promise<void> {
    if (!this.host) return;
    await this.host.preload(["agent_init"]);
    this.host.callSync("agent_init", { agent });
  }

  /** `system_prompt`: extensions edit `prompt.text`. */
  async systemPrompt(agent: AgentInfo, text: string): Promise<string> {
    if (!this.host) return text;
    const prompt = { text };
    await this.host.callAsync("system_prompt", { agent, prompt });
    return typeof prompt.text === "string" ? prompt.text : text;
  }

  /** `before_llm_call`: extensions may edit `request.system` and `request.messages` for this call only. */
  async beforeLlmCall(agent: AgentInfo, turn: number, system: string, messages: ModelMessage[]): Promise<{ system: string; messages: ModelMessage[] }> {
    if (!this.host) return { system, messages };
    const request = { turn, system, messages: [...messages] };
    await this.host.callAsync("before_llm_call", { agent, request });
    return { system: request.system, messages: request.messages };
  }

  /** `after_llm_call`: extensions see the reply (read-only); one that throws is reported and the run goes on. */
  async afterLlmCall(agent: AgentInfo, response: LlmResponse): Promise<void> {
    if (!this.host) return;
    this.report(await this.host.notify("after_llm_call", { agent, response }));
  }

  async toolBefore(agent: AgentInfo, tool: ToolBeforeCall): Promise<void> {
    if (this.host) await this.host.callAsync("tool_before", { agent, tool });
  }

  async toolAfter(agent: AgentInfo, tool: ToolAfterCall): Promise<void> {
    if (this.host) await this.host.callAsync("tool_after", { agent, tool });
  }

  /** `subagent_start`: `agent` is the agent that starts the sub-agent. */
  async subagentStart(agent: AgentInfo, subagent: SubagentStartCall): Promise<void> {
    if (this.host) await this.host.callAsync("subagent_start", { agent, subagent });
  }

  /** `subagent_end` (read-only): one that throws is reported; the sub-agent's result stands. */
  async subagentEnd(agent: AgentInfo, subagent: SubagentEndCall): Promise<void> {
    if (this.host) this.report(await this.host.notify("subagent_end", { agent, subagent }));
  }

  private report(problems: readonly Error[]): void {
    for (const problem of problems) this.onObserverProblem(`${problem.message} (ignored: the run goes on)`);
  }
}
