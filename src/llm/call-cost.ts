import type { ModelPrice } from "./model-target.js";

/** The entry that applies to a request of `inputTokens`: the highest tier it exceeds, else the base price. */
export function priceFor(prices: ModelPrice[], inputTokens: number): ModelPrice {
  let chosen = prices[0]!;
  for (const price of prices) {
    if (price.aboveTokens !== undefined && inputTokens > price.aboveTokens && price.aboveTokens >= (chosen.aboveTokens ?? -1)) chosen = price;
  }
  return chosen;
}

/** USD of one model call of `input` and `output` tokens. */
export function callCost(prices: ModelPrice[], input: number, output: number): number {
  const price = priceFor(prices, input);
  return (input * price.input + output * price.output) / 1_000_000;
}
