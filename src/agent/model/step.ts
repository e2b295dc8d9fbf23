import { streamText, type AssistantModelMessage, type ModelMessage, type ToolSet } from "ai";
import type { AgentLanguageModel } from "../../llm/agent-language-model.js";
import { AgentAbortedError, classifyModelError, ModelStalledError, type ModelErrorInfo } from "./errors.js";
import type { TokenUsage } from "../session/format.js";

export interface StepRequest {
  model: AgentLanguageModel;
  system: string;
  messages: ModelMessage[];
  /** Absent when the model cannot call tools (or for a summary request). */
  tools?: ToolSet;
  maxOutputTokens?: number;
  signal: AbortSignal;
  /** Give up (a transient failure) when the model sends nothing for this long; default 5 minutes. */
  idleTimeoutMs?: number;
  /** Each piece of the reply's text as it streams in. */
  onText?: (delta: string) => void;
}

export interface StepToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Why the SDK could not take the call (unknown tool, arguments that are not JSON). */
  invalid?: string;
}

export interface StepResult {
  /** The reply as it goes into the conversation; null when the model said nothing at all. */
  assistant: AssistantModelMessage | null;
  text: string;
  toolCalls: StepToolCall[];
  usage: TokenUsage;
  finishReason: string;
}

/** One model call failed; `partialText` is what had streamed before it did. */
export class ModelStepError extends Error {
  override name = "ModelStepError";
  constructor(
    readonly info: ModelErrorInfo,
    readonly partialText: string,
    options?: { cause?: unknown },
  ) {
    super(info.message, options);
  }
}

/**
 * One streamed model call: text is passed on as it arrives, tool calls are collected (the tools
 * have no `execute`, so the SDK runs nothing), and a failure of any kind (HTTP error, error event,
 * dropped connection) becomes a `ModelStepError` saying whether it is worth retrying. The SDK's
 * own retries are off: the loop owns the retry policy.
 */
export async function streamModelStep(request: StepRequest): Promise<StepResult> {
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let usage: TokenUsage = {};
  let finishReason = "unknown";
  let failure: unknown = undefined;
  const idleMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new AbortController();
  let idleTimer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => idle.abort(), idleMs);
  };
  touch();
  const result = streamText({
    model: request.model,
    system: request.system,
    messages: request.messages,
    ...(request.tools ? { tools: request.tools } : {}),
    maxRetries: 0,
    abortSignal: AbortSignal.any([request.signal, idle.signal]),
    ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
    // Errors arrive as stream parts below; without this the SDK also prints them to the console.
    onError: () => {},
  });
  try {
    for await (const part of result.fullStream) {
      touch();
      switch (part.type) {
        case "text-delta":
          text += part.text;
          request.onText?.(part.text);
          break;
        case "tool-call":
          toolCalls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...(part.invalid ? { invalid: describeInvalidCall(part.error) } : {}),
          });
          break;
        case "finish-step":
          usage = { ...(part.usage.inputTokens === undefined ? {} : { inputTokens: part.usage.inputTokens }), ...(part.usage.outputTokens === undefined ? {} : { outputTokens: part.usage.outputTokens }) };
          finishReason = part.finishReason;
          break;
        case "error":
          failure ??= part.error;
          break;
        case "abort":
          if (idle.signal.aborted && !request.signal.aborted) failure ??= new ModelStalledError(idleMs);
          else throw new AgentAbortedError(text);
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (request.signal.aborted || error instanceof AgentAbortedError) throw new AgentAbortedError(text);
    failure ??= idle.signal.aborted ? new ModelStalledError(idleMs) : error;
  } finally {
    clearTimeout(idleTimer);
  }
  if (request.signal.aborted) throw new AgentAbortedError(text);
  if (failure !== undefined) throw new ModelStepError(classifyModelError(failure), text, { cause: failure });
  const response = await result.response;
  const assistant = response.messages.find((message): message is AssistantModelMessage => message.role === "assistant") ?? null;
  return { assistant, text, toolCalls, usage, finishReason };
}

// Reasoning models can think for minutes before their first token; five minutes of silence is a dead stream.
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

function describeInvalidCall(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "AI_NoSuchToolError") {
    const available = (error as { availableTools?: string[] }).availableTools ?? [];
    return `there is no tool named ${JSON.stringify((error as { toolName?: string }).toolName)}; the tools are ${available.join(", ")}`;
  }
  const cause = (error as { cause?: { name?: string; message?: string } } | null)?.cause;
  if (cause?.name === "AI_JSONParseError") return "the arguments were not valid JSON; send one JSON object that matches the tool's schema";
  return (error as Error | null)?.message ?? "the call could not be read";
}
