import { displayPath } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import type { PlannedAction } from "../install/plan/plan-types.js";
import type { InstallRoot } from "../install/records/root.js";
import type { Output } from "./output.js";

/** What answering "remove" does, in words, for each kind of question. */
function removeLabel(action: PlannedAction): string {
  if (action.onRemove === "backup-and-replace") return "[r]eplace: back yours up and install the pack's";
  if (action.onRemove === "move-managed") return `[r]emove: move it to ${action.toRel}`;
  return "[r]emove: back it up and remove it";
}

/**
 * Asks about each file bosun does not own but would change, on the terminal (stderr), one at a
 * time: keep (the default, also on Enter) or remove/replace (always after a backup). Capital K or
 * R answers this and every question after it. Ctrl-C stops the install before anything is written.
 */
export async function askInstallQuestions(output: Output, home: string, questions: { root: InstallRoot; action: PlannedAction }[]): Promise<void> {
  const stdin = output.stdin ?? process.stdin;
  const { createInterface } = await import("node:readline/promises");
  const prompt = createInterface({ input: stdin, output: output.stderr, terminal: Boolean(output.stderr.isTTY) });
  const interrupted = new AbortController();
  prompt.on("SIGINT", () => interrupted.abort());
  let forAll: "keep" | "remove" | undefined;
  try {
    output.stderr.write(`\nbosun: ${questions.length} file${questions.length === 1 ? "" : "s"} bosun does not own would change. Nothing is removed without a backup.\n`);
    for (const { root, action } of questions) {
      if (forAll) {
        action.resolution = forAll;
        continue;
      }
      output.stderr.write(`\n  ${displayPath(root.dir, home)}/${action.rel}\n  ${action.prompt ?? action.reason}\n`);
      for (;;) {
        let answer: string;
        try {
          answer = (await prompt.question(`  [k]eep (default), ${removeLabel(action)}; K or R for all the rest? `, { signal: interrupted.signal })).trim();
        } catch (error) {
          if (interrupted.signal.aborted) throw new UserError("cancelled; nothing was changed");
          throw error;
        }
        if (answer === "K" || answer === "R") {
          forAll = answer === "K" ? "keep" : "remove";
          action.resolution = forAll;
          break;
        }
        const lower = answer.toLowerCase();
        if (["", "k", "keep"].includes(lower)) action.resolution = "keep";
        else if (["r", "remove", "replace", "b", "backup", "m", "move"].includes(lower)) action.resolution = "remove";
        else {
          output.stderr.write("  please answer k or r (K or R for all the rest)\n");
          continue;
        }
        break;
      }
    }
  } finally {
    prompt.close();
  }
}
