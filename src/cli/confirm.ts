import type { Output } from "./output.js";

/**
 * Asks a yes/no question on the terminal (default no). Answers `undefined` without asking when
 * stdin is not a terminal: the caller then fails naming the flag that answers it. Ctrl-C is a no.
 */
export async function askYesNo(output: Output, question: string): Promise<boolean | undefined> {
  const stdin = output.stdin ?? process.stdin;
  if (!stdin.isTTY) return undefined;
  const { createInterface } = await import("node:readline/promises");
  const prompt = createInterface({ input: stdin, output: output.stderr, terminal: Boolean(output.stderr.isTTY) });
  const interrupted = new AbortController();
  prompt.on("SIGINT", () => interrupted.abort());
  try {
    const answer = await prompt.question(`${question} [y/N] `, { signal: interrupted.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch (error) {
    if (interrupted.signal.aborted) {
      output.stderr.write("\n");
      return false;
    }
    throw error;
  } finally {
    prompt.close();
  }
}
