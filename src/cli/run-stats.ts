import type { TokenUsage } from "../agent/session/format.js";
import type { ModelPrice } from "../llm/model-target.js";
import { callCost } from "../llm/call-cost.js";
import { formatTokens } from "../llm/token-count.js";

/** What a run did, for the closing line and `--json` `stats`. */
export interface RunStats {
  /** The top-level agent's model calls and tool calls (sub-agents have their own). */
  turns: number;
  toolCalls: number;
  /** Sub-agent runs, at any depth. */
  subagents: number;
  /** What the sub-agents used together (present when there were any): their own tokens, cost (null when one's is unknown), and the sum of their run times. */
  subagentTotals?: { tokens: { input: number; output: number }; costUsd: number | null; ms: number };
  /** Every model call of the run, sub-agents' included. */
  tokens: { input: number; output: number };
  /** USD for those tokens; null when the catalog has no price or a call reported no usage. */
  costUsd: number | null;
  wallMs: number;
  /** Tool calls refused because they needed approval and nobody could give it. */
  unapproved: number;
}

/** Adds up the usage of model calls as they end, and prices them. */
export class UsageTally {
  readonly tokens = { input: 0, output: 0 };
  private readonly calls: TokenUsage[] = [];
  /** USD already priced elsewhere (the user's agent CLIs'); null once one of them could not be priced. */
  private priced: number | null = 0;

  /** A call of the run's model: counted and priced with the run's prices. */
  add(usage: TokenUsage): void {
    this.addUnpriced(usage);
    this.calls.push(usage);
  }

  /** A call of another model (an external agent's): its tokens count; its cost comes through `addCost`. */
  addUnpriced(usage: TokenUsage): void {
    this.tokens.input += usage.inputTokens ?? 0;
    this.tokens.output += usage.outputTokens ?? 0;
  }

  /** A cost known apart from the run's prices (null: unknown, so the run's total is too). */
  addCost(usd: number | null): void {
    this.priced = usd === null || this.priced === null ? null : this.priced + usd;
  }

  cost(prices: ModelPrice[] | null): number | null {
    if (this.priced === null) return null;
    if (this.calls.length === 0) return Number(this.priced.toFixed(10));
    if (!prices || prices.length === 0) return null;
    let total = this.priced;
    for (const call of this.calls) {
      if (call.inputTokens === undefined || call.outputTokens === undefined) return null;
      total += callCost(prices, call.inputTokens, call.outputTokens);
    }
    // Sums of binary fractions drift (0.006500000000000001): no price is finer than 1e-10 dollars a token.
    return Number(total.toFixed(10));
  }
}

/** `4 turns · 3 tool calls · 1.75K tokens in / 72 out · $0.0042 · 12.4 s` (token counts as everywhere: `formatTokens`) */
export function statsLine(stats: RunStats): string {
  const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  const parts = [count(stats.turns, "turn", "turns"), count(stats.toolCalls, "tool call", "tool calls")];
  if (stats.subagents > 0) parts.push(count(stats.subagents, "sub-agent", "sub-agents"));
  parts.push(`${formatTokens(stats.tokens.input)} tokens in / ${formatTokens(stats.tokens.output)} out`);
  if (stats.costUsd !== null) parts.push(formatUsd(stats.costUsd));
  parts.push(formatDuration(stats.wallMs));
  return parts.join(" · ");
}

/** Dollars with enough digits to be worth reading: `$0.0042`, `$1.37`. */
export function formatUsd(amount: number): string {
  return `$${amount >= 1 || amount === 0 ? amount.toFixed(2) : amount.toFixed(4)}`;
}

/** `0.8 s`, `12.4 s`, `3 min 5 s` */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
