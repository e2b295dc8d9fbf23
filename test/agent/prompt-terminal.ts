import { PassThrough } from "node:stream";
import { Capture } from "../fixtures/cli.js";

/**
 * A terminal as the prompter sees it: stdin a PassThrough marked as a TTY, what was shown kept
 * (escape codes and carriage returns taken out); `prompted(n)` waits for the n-th approval question.
 */
export function promptTerminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new Capture();
  output.isTTY = true;
  const shown = () => output.text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  const prompted = (count: number) => until(() => (shown().match(/allow \[o\]nce/g)?.length ?? 0) >= count);
  return { input, output, shown, prompted };
}

/** Waits (up to 10 s) until `condition` holds. */
export async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise the test settles when it chooses (`open`): what a scripted reply waits for with `after`. */
export function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
