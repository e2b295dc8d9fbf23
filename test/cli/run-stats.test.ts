import { describe, expect, it } from "vitest";
import { priceFor } from "../../src/llm/call-cost.js";
import { formatDuration, formatUsd, statsLine, UsageTally } from "../../src/cli/run-stats.js";

const tiered = [{ input: 3, output: 15 }, { input: 6, output: 22.5, aboveTokens: 200_000 }, { input: 5, output: 20, aboveTokens: 128_000 }];

describe("run stats", () => {
  it("prices each call at the tier its input reaches", () => {
    expect(priceFor(tiered, 1_000)).toBe(tiered[0]);
    expect(priceFor(tiered, 128_000)).toBe(tiered[0]);
    expect(priceFor(tiered, 150_000)).toBe(tiered[2]);
    expect(priceFor(tiered, 250_000)).toBe(tiered[1]);
    const tally = new UsageTally();
    tally.add({ inputTokens: 100_000, outputTokens: 1_000 });
    tally.add({ inputTokens: 250_000, outputTokens: 2_000 });
    expect(tally.cost(tiered)).toBe((100_000 * 3 + 1_000 * 15 + 250_000 * 6 + 2_000 * 22.5) / 1_000_000);
    expect(tally.tokens).toEqual({ input: 350_000, output: 3_000 });
  });

  it("has no cost without prices, or when a call reported no usage", () => {
    const tally = new UsageTally();
    tally.add({ inputTokens: 10, outputTokens: 1 });
    expect(tally.cost(null)).toBeNull();
    tally.add({});
    expect(tally.cost(tiered)).toBeNull();
    expect(new UsageTally().cost(tiered)).toBe(0);
  });

  it("reads as one line", () => {
    expect(statsLine({ turns: 4, toolCalls: 1, subagents: 2, tokens: { input: 12_345, output: 678 }, costUsd: 0.04213, wallMs: 83_600, unapproved: 0 })).toBe(
      "4 turns · 1 tool call · 2 sub-agents · 12.3K tokens in / 678 out · $0.0421 · 1 min 24 s",
    );
    expect(formatUsd(1.375)).toBe("$1.38");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatDuration(800)).toBe("0.8 s");
  });
});
