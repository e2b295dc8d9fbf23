import { styler, type Output } from "./output.js";

/** A line of progress on stderr with a spinner; does nothing where no spinner is drawn. */
export interface Spinner {
  /** Whether this one draws anything (see `createSpinner`). */
  readonly drawn: boolean;
  /** Starts the spinner with this text, or changes its text. */
  show(text: string): void;
  stop(): void;
}

/**
 * A spinner on stderr when it is a terminal that reports its width (ora, loaded only then); in a
 * pipe, a log, CI or a dumb terminal nothing is drawn, so output that programs read has no
 * animation in it. A terminal without a width (a bare pty) would make ora clear lines forever.
 * The frames are coloured by bosun's own rule (`styler`), not ora's, so FORCE_COLOR and NO_COLOR
 * mean the same for the spinner as for every other line. `--quiet` draws none.
 */
export async function createSpinner(output: Output): Promise<Spinner> {
  const width = (output.stderr as { columns?: number }).columns ?? 0;
  const drawn = output.stderr.isTTY === true && width > 0 && output.env.TERM !== "dumb" && !output.env.CI && output.verbosity !== "quiet";
  if (!drawn) return { drawn, show() {}, stop() {} };
  const { default: ora } = await import("ora");
  // Drawn or not was decided above (from the command's env); ora would look at process.env again.
  const spinner = ora({ stream: output.stderr as NodeJS.WriteStream, discardStdin: false, isEnabled: true, color: false });
  const style = styler(output, "stderr");
  spinner.spinner = { interval: spinner.spinner.interval, frames: spinner.spinner.frames.map((frame) => style("cyan", frame)) };
  return {
    drawn,
    show(text) {
      spinner.text = text;
      if (!spinner.isSpinning) spinner.start();
    },
    stop: () => void spinner.stop(),
  };
}

/** Runs `work` with a spinner showing `text` (see `createSpinner`) until it settles. */
export async function withSpinner<T>(output: Output, text: string, work: () => Promise<T>): Promise<T> {
  const spinner = await createSpinner(output);
  spinner.show(text);
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
  /** Clears the spinner's line, if it shows; nothing is left on the terminal. */
  stop(): void;
}

/** A wait spinner on stderr (see `createSpinner`: where none is drawn, it draws nothing and keeps no timer). */
export async function createWaitSpinner(output: Output): Promise<WaitSpinner> {
  const spinner = await createSpinner(output);
  if (!spinner.drawn) return { start() {}, stop() {} };
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    // Called for every line and text delta: only a showing spinner has a line to clear.
    if (!timer) return;
    clearInterval(timer);
    timer = undefined;
    spinner.stop();
  };
  return {
    start(label, since = Date.now()) {
      stop();
      const show = () => spinner.show(`${label} · ${Math.floor((Date.now() - since) / 1000)} s`);
      show();
      timer = setInterval(show, 250);
      timer.unref();
    },
    stop,
  };
}
