import type { ModelMessage } from "ai";
import { stubToolOutputs, summaryMessage, type SessionState } from "./format.js";
import type { SpillStore } from "../tools/tool.js";

/** Compaction starts when the context reaches this share of the model's context window. */
export const COMPACTION_THRESHOLD = 0.8;
/** …and aims to bring it down to this share, so it does not run again on the next turn. */
export const COMPACTION_TARGET = 0.6;
/** Tool outputs shorter than this are left alone: a stub would save next to nothing. */
export const MIN_STUB_CHARS = 400;

const tokenCache = new WeakMap<object, number>();

/** A rough token count for text: about four characters a token for English and code. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Tokens of one message, estimated once per message object. */
export function estimateMessageTokens(message: ModelMessage): number {
  let tokens = tokenCache.get(message);
  if (tokens === undefined) {
    tokens = estimateTextTokens(JSON.stringify(message.content)) + 4;
    tokenCache.set(message, tokens);
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * How many tokens the next request will hold. The provider's usage for the last reply counts
 * everything up to that reply exactly (system prompt and tool definitions included); only what
 * came after it (tool results) is estimated. Without usage, everything is estimated.
 */
export function contextTokens(state: SessionState, fixedTokens: number): number {
  const last = state.lastUsage;
  if (last && last.messageCount <= state.messages.length) {
    const counted = (last.usage.inputTokens ?? 0) + (last.usage.outputTokens ?? 0);
    return counted + estimateMessagesTokens(state.messages.slice(last.messageCount));
  }
  return fixedTokens + estimateMessagesTokens(state.messages);
}

/**
 * Step one: the outputs of older tool calls become one-line stubs, oldest first, until the
 * estimate is under `targetTokens`. The newest tool results (which the model has not read yet)
 * are kept unless `includeNewest`. A stubbed output is saved to a spill file first, and its stub
 * says where, so the model can still read it.
 */
export function planToolOutputStubs(
  messages: readonly ModelMessage[],
  currentTokens: number,
  targetTokens: number,
  spill: SpillStore,
  options: { includeNewest?: boolean } = {},
): Record<string, string> {
  const stubs: Record<string, string> = {};
  const lastTool = options.includeNewest ? messages.length : lastIndexOfRole(messages, "tool");
  let tokens = currentTokens;
  for (let i = 0; i < lastTool && tokens > targetTokens; i++) {
    const message = messages[i]!;
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (tokens <= targetTokens) break;
      if (part.type !== "tool-result") continue;
      const text = outputText(part.output);
      if (text === null || text.length < MIN_STUB_CHARS || text.startsWith("[output of ")) continue;
      const existing = /the whole output is in (\S+?): read it/.exec(text)?.[1];
      const file = existing ?? spill.write(`${part.toolName}-${part.toolCallId}.txt`, text);
      const call = describeCall(messages, i, part.toolCallId);
      const stub = `[output of ${call} removed to save context (${text.length} characters); the whole output is in ${file}: read it with the read tool if you need it again]`;
      stubs[part.toolCallId] = stub;
      tokens -= estimateTextTokens(text) - estimateTextTokens(stub);
    }
  }
  return stubs;
}

/**
 * Step two: how many of the oldest messages to replace by a summary so that the rest fits
 * `targetTokens` (leaving room for the summary itself). A cut never separates tool results from
 * the call that asked for them, and the newest exchange is always kept. 0 when no cut helps.
 */
export function planSummaryCut(messages: readonly ModelMessage[], fixedTokens: number, targetTokens: number, summaryTokens: number): number {
  const lastAssistant = lastIndexOfRole(messages, "assistant");
  const keepFrom = messages[messages.length - 1]?.role === "tool" && lastAssistant >= 0 ? lastAssistant : messages.length - 1;
  let best = 0;
  let remaining = fixedTokens + summaryTokens + estimateMessagesTokens(messages);
  for (let cut = 1; cut <= keepFrom; cut++) {
    remaining -= estimateMessageTokens(messages[cut - 1]!);
    if (messages[cut]?.role === "tool") continue;
    best = cut;
    if (remaining <= targetTokens) break;
  }
  return best;
}

/** The messages as a plain transcript for the summarizer (tool outputs shortened). */
export function transcriptForSummary(messages: readonly ModelMessage[], maxToolChars = 2_000): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "system") lines.push(`SYSTEM: ${message.content}`);
    else if (message.role === "user") lines.push(`USER: ${typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n")}`);
    else if (message.role === "assistant") {
      if (typeof message.content === "string") lines.push(`ASSISTANT: ${message.content}`);
      else {
        for (const part of message.content) {
          if (part.type === "text" && part.text.trim()) lines.push(`ASSISTANT: ${part.text}`);
          if (part.type === "tool-call") lines.push(`ASSISTANT CALLS ${part.toolName} ${JSON.stringify(part.input)}`);
        }
      }
    } else {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const text = outputText(part.output) ?? JSON.stringify(part.output);
        lines.push(`RESULT OF ${part.toolName}: ${text.length > maxToolChars ? `${text.slice(0, maxToolChars)}… [${text.length - maxToolChars} more characters]` : text}`);
      }
    }
  }
  return lines.join("\n\n");
}

/** Splits a transcript into pieces of at most `maxChars`, at paragraph breaks where possible. */
export function splitTranscript(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    let cut = rest.lastIndexOf("\n\n", maxChars);
    if (cut < maxChars / 2) cut = maxChars;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n+/, "");
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

export const SUMMARY_SYSTEM_PROMPT =
  "You summarize the earlier part of a coding session so that the work can continue with less context. " +
  "Write a compact summary that keeps: the user's goal and every instruction or preference they gave; decisions made and why; " +
  "files read, created or changed (exact paths) and what changed; commands run and their results; errors met and how they were solved; " +
  "what is still open and the next steps. Keep names, paths, identifiers and error messages exact. Do not invent anything. " +
  "Write the summary only, with no preamble.";

export { stubToolOutputs, summaryMessage };

function outputText(output: unknown): string | null {
  const value = output as { type?: string; value?: unknown };
  if ((value.type === "text" || value.type === "error-text") && typeof value.value === "string") return value.value;
  return null;
}

function describeCall(messages: readonly ModelMessage[], toolIndex: number, callId: string): string {
  for (let i = toolIndex - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-call" && part.toolCallId === callId) {
        const input = JSON.stringify(part.input);
        return `${part.toolName} ${input.length > 120 ? `${input.slice(0, 120)}…` : input}`;
      }
    }
  }
  return "a tool call";
}

function lastIndexOfRole(messages: readonly ModelMessage[], role: ModelMessage["role"]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === role) return i;
  return -1;
}
