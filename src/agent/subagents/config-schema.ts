import { z } from "zod";
import { MAX_SUBAGENT_DEPTH, MAX_SUBAGENT_TASKS } from "./settings.js";

/** The most agents a tree may run at once (`treeConcurrency`). */
export const MAX_TREE_CONCURRENCY = 64;

const wholeNumber = (min: number, max: number) =>
  z
    .number()
    .int("use a whole number")
    .min(min, `use ${min} or more`)
    .max(max, `use at most ${max}`);

const positive = z.number().positive("use a number above 0");

/** Caps on one sub-agent or on a whole tree (see limits.ts). */
export const capsSchema = z
  .object({
    turns: wholeNumber(1, 10_000).optional(),
    tokens: wholeNumber(1, 1_000_000_000).optional(),
    seconds: positive.max(7 * 24 * 3600, "use at most a week (604800 s)").optional(),
    costUsd: positive.max(100_000, "use at most 100000").optional(),
  })
  .strict();

/**
 * `bosun.json` `subagents`: how deep sub-agents may nest and how many run at once (per `agent`
 * call and across the whole tree), caps on each sub-agent and on the tree, and from how many
 * tasks a fan-out asks first. Defaults: maxDepth 1, concurrency 4, treeConcurrency 8,
 * confirmAbove 8, no caps.
 */
export const subagentsConfigSchema = z
  .object({
    maxDepth: wholeNumber(0, MAX_SUBAGENT_DEPTH).optional(),
    concurrency: wholeNumber(1, MAX_SUBAGENT_TASKS).optional(),
    treeConcurrency: wholeNumber(1, MAX_TREE_CONCURRENCY).optional(),
    /** A fan-out of more tasks than this asks the user first (when someone can be asked). */
    confirmAbove: wholeNumber(0, MAX_SUBAGENT_TASKS).optional(),
    /** Caps per sub-agent (`turns`, `tokens`, `seconds`, `costUsd`) and, under `tree`, on all of them together. */
    limits: capsSchema.extend({ tree: capsSchema.optional() }).strict().optional(),
    /** Sub-agents' sandbox, narrower than the top-level agent's: network off, only some writable folders. */
    sandbox: z
      .object({
        network: z.literal("off").optional(),
        writable: z.array(z.string().refine((path) => path.startsWith("/"), "use an absolute path")).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type SubagentsConfig = z.infer<typeof subagentsConfigSchema>;
