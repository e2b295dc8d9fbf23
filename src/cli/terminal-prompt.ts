import { createInterface } from "node:readline/promises";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../agent/approval.js";

export interface TerminalPrompter {
  approver: Approver;
  askUser(question: string, options: string[], signal: AbortSignal): Promise<string>;
}

/**
 * Questions to the user at the terminal: approvals (allow once / always for this session / deny)
 * and the model's `ask_user` questions. Prompts go to stderr, answers come from stdin, one
 * question at a time. Ctrl-C while a question waits cancels the run (`onInterrupt`).
 */
export function createTerminalPrompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): TerminalPrompter {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (question: string, signal: AbortSignal): Promise<string> => {
    const next = queue.then(async () => {
      const rl = createInterface({ input, output, terminal: true });
      rl.on("SIGINT", () => {
        rl.close();
        onInterrupt();
      });
      try {
        return await rl.question(question, { signal });
      } finally {
        rl.close();
      }
    });
    queue = next.catch(() => {});
    return next;
  };

  return {
    async approver(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
      const who = request.agent ? `${request.agent}: ` : "";
      const head = request.danger ? `bosun: ${who}${request.tool} wants to run something dangerous: it ${request.danger}` : `bosun: ${who}${request.tool} needs your approval`;
      output.write(`\n${head}\n    ${request.description}\n`);
      if (request.preview) output.write(request.preview.split("\n").map((line) => `      ${line}\n`).join(""));
      for (;;) {
        const answer = (await ask("  allow [o]nce, [a]lways for this session, or [d]eny? ", signal)).trim().toLowerCase();
        if (["o", "once", "y", "yes"].includes(answer)) return "once";
        if (["a", "always"].includes(answer)) return "session";
        if (["d", "deny", "n", "no", ""].includes(answer)) return "deny";
        output.write("  please answer o, a or d\n");
      }
    },
    async askUser(question, options, signal) {
      output.write(`\nbosun: the agent asks: ${question}\n`);
      options.forEach((option, i) => output.write(`  ${i + 1}. ${option}\n`));
      const answer = (await ask(options.length > 0 ? "  your answer (a number or your own words): " : "  your answer: ", signal)).trim();
      const picked = /^\d+$/.test(answer) ? options[Number(answer) - 1] : undefined;
      return picked ?? answer;
    },
  };
}
