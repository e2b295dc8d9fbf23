import { z } from "zod";
import { ToolError, type AgentTool, type PlanItem } from "./tool.js";

const itemSchema = z
  .object({
    step: z.string().min(1).describe("What this step does, in a few words"),
    status: z.enum(["pending", "in_progress", "done"]).describe("pending, in_progress (at most one step) or done"),
  })
  .strict();

const inputSchema = z
  .object({
    items: z.array(itemSchema).min(1).max(50).describe("The whole plan, in order; each call replaces the previous plan"),
  })
  .strict();

export type PlanInput = z.infer<typeof inputSchema>;

const MARK: Record<PlanItem["status"], string> = { done: "[x]", in_progress: "[>]", pending: "[ ]" };

export function createPlanTool(): AgentTool<PlanInput> {
  return {
    name: "plan",
    description:
      "Keep a short plan (a todo list) for a task with several steps; the user sees it. Send the whole list each time, " +
      "marking the step you work on in_progress and finished ones done. Skip it for simple one-step tasks.",
    inputSchema,
    access: "interact",
    describe: (input) => `plan: ${input.items.filter((item) => item.status === "done").length}/${input.items.length} done`,
    async execute(input, context) {
      const active = input.items.filter((item) => item.status === "in_progress").length;
      if (active > 1) throw new ToolError(`${active} steps are in_progress; mark only the step you are working on now`);
      context.ui.showPlan?.(input.items);
      const done = input.items.filter((item) => item.status === "done").length;
      return { output: `Plan updated (${done} of ${input.items.length} done):\n${renderPlan(input.items)}`, summary: `${done}/${input.items.length} done` };
    },
  };
}

export function renderPlan(items: PlanItem[]): string {
  return items.map((item) => `${MARK[item.status]} ${item.step}`).join("\n");
}
