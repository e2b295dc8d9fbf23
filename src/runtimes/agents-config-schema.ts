import { z } from "zod";
import type { HeadlessDefaults } from "./kit/types.js";
import { listRuntimes } from "./registry.js";

/** One runtime's `agents.<id>` section: its keys, typed like their defaults; unknown keys are errors. */
function headlessSchema(headless: HeadlessDefaults) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, fallback] of Object.entries(headless.values)) {
    const choices = headless.choices?.[key];
    const check = headless.check?.[key];
    let schema: z.ZodType;
    if (typeof fallback === "boolean") schema = z.boolean();
    else if (choices) schema = z.enum(choices as [string, ...string[]]);
    else if (check)
      schema = z.string().superRefine((value, ctx) => {
        const problem = check(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      });
    else schema = z.string();
    shape[key] = schema.optional();
  }
  return z.object(shape).strict();
}

/**
 * `bosun.json` `agents`: headless defaults per agent (`agents.codex.model`, `agents.claude.permission_mode`…),
 * read by whoever drives the agents. Detection itself reads only `binary` and `agents.a0.host`.
 */
export const agentsConfigSchema = z.object(Object.fromEntries(listRuntimes().map((runtime) => [runtime.id, headlessSchema(runtime.headless).optional()]))).strict();
