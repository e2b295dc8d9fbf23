import { z } from "zod";
import { ToolError, type AgentTool } from "./tool.js";

const inputSchema = z
  .object({
    question: z.string().min(1).describe("The question, complete enough to answer without other context"),
    options: z.array(z.string().min(1)).min(2).max(8).optional().describe("Suggested answers the user can pick by number; they may still type their own"),
  })
  .strict();

export type AskUserInput = z.infer<typeof inputSchema>;

export function createAskUserTool(): AgentTool<AskUserInput> {
  return {
    name: "ask_user",
    description:
      "Ask the user a question and wait for the answer. Only for decisions you cannot make yourself (which of two designs, missing information). " +
      "Works only when the user is at a terminal; otherwise you get an error and must decide yourself.",
    inputSchema,
    access: "interact",
    describe: (input) => `ask: ${input.question}`,
    async execute(input, context) {
      const ask = context.ui.askUser;
      if (!ask) {
        throw new ToolError(
          "no user can answer in this session (bosun is not attached to a terminal); make the most reasonable choice yourself and state the assumption in your answer",
        );
      }
      const answer = (await ask(input.question, input.options ?? [], context.signal)).trim();
      if (answer === "") return { output: "The user gave no answer; make the most reasonable choice yourself and state it.", summary: "no answer" };
      return { output: `The user answered: ${answer}`, summary: "answered" };
    },
  };
}
