import { createInterface } from "node:readline/promises";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../agent/approval/approval.js";
import { QuestionTurns } from "../agent/question-turns.js";

export interface TerminalPrompter {
  /**
   * The turns every question on this terminal takes: the approval gate asks `approver` in them
   * (pass them to it as its `questions`), `askUser` takes them itself.
   */
  turns: QuestionTurns;
  approver: Approver;
  askUser(question: string, options: string[], signal: AbortSignal): Promise<string>;
}

/**
 * Questions to the user at the terminal: approvals (allow once / always for this session / deny)
 * and the model's `ask_user` questions. Prompts go to stderr, answers come from stdin, one whole
 * question at a time (`turns`): a question asked while another is open is shown (header and all)
 * only when that one is answered. Ctrl-C while a question waits cancels the run (`onInterrupt`);
 * an aborted signal gives up the open question and every waiting one at once.
 */
export function createTerminalPrompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): TerminalPrompter {
  const turns = new QuestionTurns();
  const readAnswer = async (prompt: string, signal: AbortSignal): Promise<string> => {
    const rl = createInterface({ input, output, terminal: true });
    rl.on("SIGINT", () => {
      rl.close();
      onInterrupt();
    });
    try {
      return await rl.question(prompt, { signal });
    } finally {
      rl.close();
    }
  };

  return {
    turns,
    // Called by the approval gate in its turn (the gate decides the call again when it comes).
    approver: async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> => {
      const who = request.agent ? `${request.agent}: ` : "";
      const reasons = [request.escape ? `it ${request.escape}` : null, request.danger ? `it ${request.danger}` : null].filter(Boolean).join("; and ");
      const head = request.escape
        ? `bosun: ${who}${request.tool} asks for more than the sandbox allows: ${reasons}`
        : request.danger
          ? `bosun: ${who}${request.tool} wants to run something dangerous: ${reasons}`
          : `bosun: ${who}${request.tool} needs your approval`;
      const waiting = request.waiting ? ` (${request.waiting} more question${request.waiting === 1 ? "" : "s"} waiting)` : "";
      output.write(`\n${head}${waiting}\n    ${request.description}\n`);
      if (request.preview) output.write(request.preview.split("\n").map((line) => `      ${line}\n`).join(""));
      for (;;) {
        const answer = (await readAnswer("  allow [o]nce, [a]lways for this session, or [d]eny? ", signal)).trim().toLowerCase();
        if (["o", "once", "y", "yes"].includes(answer)) return "once";
        if (["a", "always"].includes(answer)) return "session";
        if (["d", "deny", "n", "no", ""].includes(answer)) return "deny";
        output.write("  please answer o, a or d\n");
      }
    },
    askUser: (question, options, signal) =>
      turns.take(signal, async () => {
        output.write(`\nbosun: the agent asks: ${question}\n`);
        options.forEach((option, i) => output.write(`  ${i + 1}. ${option}\n`));
        const answer = (await readAnswer(options.length > 0 ? "  your answer (a number or your own words): " : "  your answer: ", signal)).trim();
        const picked = /^\d+$/.test(answer) ? options[Number(answer) - 1] : undefined;
        return picked ?? answer;
      }),
  };
}
