import type { Output } from "./output.js";

/** A spinner may be drawn: stderr is a terminal that can draw one, and this is not a CI log. */
function animates(output: Output): boolean {
  return Boolean(output.stderr.isTTY) && output.env.TERM !== "dumb" && !output.env.CI;
}

type Ora = typeof import("ora").default;

function makeOra(ora: Ora, output: Output, text = "") {
  return ora({ text, stream: output.stderr as NodeJS.WriteStream, discardStdin: false, ...(output.env.NO_COLOR ? { color: false as const } : {}) });
}

/**
 * Runs `work` with a spinner on stderr when stderr is a terminal (ora, loaded only then); in a
 * pipe or a log it stays silent, so output that is read by programs has no animation in it.
 */
export async function withSpinner<T>(output: Output, text: string, work: () => Promise<T>): Promise<T> {
  if (!animates(output)) return work();
  const { default: ora } = await import("ora");
  const spinner = makeOra(ora, output, text).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}

/** A spinner that says what bosun waits for and for how long: `⠙ waiting for the model · 4 s`. */
export interface WaitSpinner {
  /** Shows `label`, counting seconds from `since` (default now); replaces what it showed before. */
  start(label: string, since?: number): void;
  /** Clears the spinner's line; nothing is left on the terminal. */
  stop(): void;
}

/** A wait spinner on stderr, or null where `withSpinner` would stay silent. */
export async function createWaitSpinner(output: Output): Promise<WaitSpinner | null> {
  if (!animates(output)) return null;
  const { default: ora } = await import("ora");
  const spinner = makeOra(ora, output);
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    if (spinner.isSpinning) spinner.stop();
  };
  return {
    start(label, since = Date.now()) {
      stop();
      const text = () => `${label} · ${Math.floor((Date.now() - since) / 1000)} s`;
      spinner.start(text());
      timer = setInterval(() => (spinner.text = text()), 250);
      timer.unref();
    },
    stop,
  };
}
