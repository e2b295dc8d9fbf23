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

/**
 * `bosun.json` `subagents`: how deep sub-agents may nest and how many run at once (per `agent`
 * call and across the whole tree). Defaults: maxDepth 1, concurrency 4, treeConcurrency 8.
 */
export const subagentsConfigSchema = z
  .object({
    maxDepth: wholeNumber(0, MAX_SUBAGENT_DEPTH).optional(),
    concurrency: wholeNumber(1, MAX_SUBAGENT_TASKS).optional(),
    treeConcurrency: wholeNumber(1, MAX_TREE_CONCURRENCY).optional(),
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
