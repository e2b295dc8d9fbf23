import type { AgentLanguageModel } from "../../llm/agent-language-model.js";
import {
  COMPACTION_TARGET,
  COMPACTION_THRESHOLD,
  contextTokens,
  estimateTextTokens,
  planSummaryCut,
  planToolOutputStubs,
  splitTranscript,
  SUMMARY_SYSTEM_PROMPT,
  transcriptForSummary,
} from "./compaction.js";
import type { AgentUi } from "../events.js";
import type { RetryBudget } from "../model/retry.js";
import { streamModelStep } from "../model/step.js";
import type { Session } from "./store.js";

export interface CompactorOptions {
  model: AgentLanguageModel;
  /** The model's context window and output limit, in tokens. */
  limits: { context: number; output: number };
  /** Tokens every request carries besides the messages: system prompt and tool definitions. */
  fixedTokens: () => number;
  retries: RetryBudget;
  ui: AgentUi;
  idleTimeoutMs?: number;
}

/** The most a summary may be, in tokens. */
const SUMMARY_TOKENS = 2_000;

/**
 * Keeps a session's context under the model's limit. At 80% of the window: first the outputs
 * of older tool calls become stubs; if the context is still over, the oldest turns are summarized
 * by the same model. Both steps are events in the session file, so a resumed session sees the
 * compacted conversation, and stubbed outputs stay readable from their spill files.
 */
export class Compactor {
  constructor(private readonly options: CompactorOptions) {}

  get thresholdTokens(): number {
    return Math.floor(this.options.limits.context * COMPACTION_THRESHOLD);
  }

  /** Compacts when the context is over the threshold (or always, with `force`, after an overflow error). */
  async compactIfNeeded(session: Session, signal: AbortSignal, force = false): Promise<boolean> {
    const { limits, fixedTokens, ui } = this.options;
    if (limits.context <= 0) return false;
    const threshold = this.thresholdTokens;
    const before = contextTokens(session.state, fixedTokens());
    if (before < threshold && !force) return false;
    // After an overflow error the estimate was evidently too low: aim at half of it, and let
    // even the newest tool outputs go to files (they may be what broke the limit).
    const target = Math.min(Math.floor(limits.context * COMPACTION_TARGET), force ? Math.floor(before / 2) : Infinity);

    const stubs = planToolOutputStubs(session.messages, before, target, session.spill, { includeNewest: force });
    if (Object.keys(stubs).length > 0) {
      session.append({ type: "compaction", step: "stub", stubs, tokensBefore: before, tokensAfter: 0 });
      const after = contextTokens(session.state, fixedTokens());
      ui.onEvent({ type: "compaction", step: "stub", tokensBefore: before, tokensAfter: after });
      if (force || after < threshold) return true;
    }

    const current = contextTokens(session.state, fixedTokens());
    const summaryTokens = Math.min(SUMMARY_TOKENS, Math.max(256, limits.output));
    const cut = planSummaryCut(session.messages, fixedTokens(), target, summaryTokens);
    if (cut > 0) {
      const summary = await this.summarize(session, cut, signal, summaryTokens);
      session.append({ type: "compaction", step: "summarize", replaced: cut, summary, tokensBefore: current, tokensAfter: 0 });
      const after = contextTokens(session.state, fixedTokens());
      ui.onEvent({ type: "compaction", step: "summarize", tokensBefore: current, tokensAfter: after });
      if (after < threshold) return true;
    }
    // Still over: the newest exchange alone is too big. Its tool outputs go to spill files too.
    const last = contextTokens(session.state, fixedTokens());
    const newest = planToolOutputStubs(session.messages, last, target, session.spill, { includeNewest: true });
    if (Object.keys(newest).length > 0) {
      session.append({ type: "compaction", step: "stub", stubs: newest, tokensBefore: last, tokensAfter: 0 });
      ui.onEvent({ type: "compaction", step: "stub", tokensBefore: last, tokensAfter: contextTokens(session.state, fixedTokens()) });
    }
    return true;
  }

  /** A summary of the first `count` messages; long transcripts are summarized piece by piece. */
  private async summarize(session: Session, count: number, signal: AbortSignal, maxOutputTokens: number): Promise<string> {
    const { model, limits, retries, ui } = this.options;
    const transcript = transcriptForSummary(session.messages.slice(0, count));
    // Each summary request holds the summary so far, a piece of transcript and the instructions.
    const pieceChars = Math.max(2_000, (Math.floor(limits.context * 0.5) - estimateTextTokens(SUMMARY_SYSTEM_PROMPT) - maxOutputTokens) * 4);
    let summary = "";
    for (const piece of splitTranscript(transcript, pieceChars)) {
      const prompt = summary
        ? `Summary of the conversation so far:\n\n${summary}\n\nThe conversation continues below. Write one updated summary covering both.\n\n${piece}`
        : `Summarize this conversation:\n\n${piece}`;
      const step = await retries.run(
        () =>
          streamModelStep({
            model,
            system: SUMMARY_SYSTEM_PROMPT,
            messages: [{ role: "user", content: prompt }],
            maxOutputTokens,
            signal,
            ...(this.options.idleTimeoutMs ? { idleTimeoutMs: this.options.idleTimeoutMs } : {}),
          }),
        signal,
        (attempt, delayMs, info, hadPartialReply) => ui.onEvent({ type: "retry", attempt, delayMs, reason: info.message, hadPartialReply }),
      );
      ui.onEvent({ type: "summary-end", usage: step.usage });
      summary = step.text.trim() || summary;
    }
    return summary || "(the earlier conversation could not be summarized)";
  }
}
