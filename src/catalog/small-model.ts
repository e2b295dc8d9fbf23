import type { CatalogModel } from "./projection.js";

const SMALL_WORDS = new Set(["nano", "flash", "lite", "mini", "haiku", "small", "fast"]);
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_AGE_MONTHS = 18;
/** Azure model ids are the user's own deployment names, so no guess can be trusted there. */
const NO_SMALL_MODEL = new Set(["azure", "azure-cognitive-services"]);

/**
 * A provider's cheap helper model (titles, summaries): among its enabled, active text models
 * released in the last 18 months with a known non-zero price, prefer those whose id, family or
 * name has a "small" word (mini, flash, haiku…), then take the lowest score of 80 % relative
 * price and 20 % relative age.
 */
export function pickSmallModel(providerID: string, models: CatalogModel[], now: number): CatalogModel | undefined {
  if (NO_SMALL_MODEL.has(providerID)) return undefined;
  const candidates = models
    .filter((m) => m.enabled && m.status === "active" && hasText(m.capabilities.input) && hasText(m.capabilities.output))
    .map((model) => {
      const base = model.cost[0];
      return { model, cost: base ? base.input + base.output : 999, age: (now - model.time.released) / MONTH_MS };
    })
    .filter((c) => c.cost > 0 && c.age <= MAX_AGE_MONTHS);
  if (candidates.length === 0) return undefined;
  const small = candidates.filter((c) => isSmallName(c.model));
  const pool = small.length > 0 ? small : candidates;
  const maxCost = Math.max(0.01, ...pool.map((c) => c.cost));
  const maxAge = Math.max(0.01, ...pool.map((c) => c.age));
  let best = pool[0]!;
  let bestScore = Infinity;
  for (const c of pool) {
    const score = 0.8 * (c.cost / maxCost) + 0.2 * (c.age / maxAge);
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best.model;
}

function hasText(modalities: string[]): boolean {
  return modalities.some((m) => m.startsWith("text"));
}

function isSmallName(model: CatalogModel): boolean {
  const words = `${model.id} ${model.family ?? ""} ${model.name}`.toLowerCase().split(/[^a-z0-9]+/);
  return words.some((word) => SMALL_WORDS.has(word));
}
