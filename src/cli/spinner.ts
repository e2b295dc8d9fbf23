import type { Output } from "./output.js";

/**
 * Runs `work` with a spinner on stderr when stderr is a terminal (ora, loaded only then); in a
 * pipe or a log it stays silent, so output that is read by programs has no animation in it.
 */
export async function withSpinner<T>(output: Output, text: string, work: () => Promise<T>): Promise<T> {
  if (!output.stderr.isTTY || output.env.TERM === "dumb" || output.env.CI) return work();
  const { default: ora } = await import("ora");
  const spinner = ora({ text, stream: output.stderr as NodeJS.WriteStream, discardStdin: false }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
