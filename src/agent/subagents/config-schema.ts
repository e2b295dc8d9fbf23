import { z } from "zod";
import { SUBAGENT_BACKENDS } from "./runner.js";
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

/** A store's address: written out, or the environment variable that holds it (`{"env": "BOSUN_REDIS_URL"}`), so a password stays out of the file. */
const storeUrlSchema = z.union([
  z.string().regex(/^(redis|rediss|postgres|postgresql):\/\/\S+$/, "use a redis://, rediss://, postgres:// or postgresql:// address"),
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "use the name of an environment variable") }).strict(),
]);

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
    /** Where the top-level agent's tasks run: here ("local", the default), or on `bosun worker`s through a queue in Redis or PostgreSQL. */
    backend: z.enum(SUBAGENT_BACKENDS as [string, ...string[]]).optional(),
    /** The store of the queue (with `backend` "redis" or "postgres"). */
    url: storeUrlSchema.optional(),
    /** The queue's name (default "bosun"): workers started with `--queue NAME` take only its tasks. */
    queue: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "use up to 40 lowercase letters, digits, - and _").optional(),
    /** "local": run the tasks here when the store cannot be reached (the default is to stop with the reason). */
    fallback: z.literal("local").optional(),
  })
  .strict()
  .superRefine((value, context) => {
    const store = value.backend === "redis" || value.backend === "postgres";
    if (store && value.url === undefined) context.addIssue({ code: "custom", path: ["url"], message: `backend "${value.backend}" needs the store's address: "url": "${value.backend === "redis" ? "redis://127.0.0.1:6379" : "postgres://user@127.0.0.1:5432/bosun"}" or {"env": "NAME"}` });
    if (store && typeof value.url === "string") {
      const redis = /^rediss?:/.test(value.url);
      if (redis !== (value.backend === "redis")) context.addIssue({ code: "custom", path: ["url"], message: `backend "${value.backend}" needs a ${value.backend === "redis" ? "redis:// (or rediss://)" : "postgres://"} address` });
    }
    if (!store && (value.url !== undefined || value.fallback !== undefined)) context.addIssue({ code: "custom", path: [value.url !== undefined ? "url" : "fallback"], message: 'is used only with "backend": "redis" or "postgres"' });
  });

export type SubagentsConfig = z.infer<typeof subagentsConfigSchema>;
