import { styleText } from "node:util";

/** Standard input as a command may read it (a secret piped in, or typed at a hidden prompt). */
export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/**
 * How much a command says on stderr besides its errors, warnings and questions, which always
 * show: `quiet` (`--quiet`) drops progress and notes, `verbose` (`--verbose`) adds what bosun read
 * and every line it logs.
 */
export type Verbosity = "quiet" | "normal" | "verbose";

/** Where a command writes: data on stdout, progress and problems on stderr. */
export interface Output {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Where questions and secrets are read; `process.stdin` when not given (looked up only when asking). */
  stdin?: InputStream;
  /** `normal` when not given; set from `--quiet`/`--verbose` before a command runs. */
  verbosity?: Verbosity;
}

export function processOutput(): Output {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

export function writeLine(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(text + "\n");
}

/** A line of progress or a note on stderr: what `--quiet` leaves out. */
export function notify(output: Output, line: string): void {
  if (output.verbosity !== "quiet") writeLine(output.stderr, line);
}

/** A line only `--verbose` shows on stderr (dimmed): what bosun read, decided and logged. */
export function detail(output: Output, line: string): void {
  if (output.verbosity === "verbose") writeLine(output.stderr, styler(output, "stderr")("dim", line));
}

export function writeJson(output: Output, value: unknown): void {
  writeLine(output.stdout, JSON.stringify(value, null, 2));
}

type Style = "bold" | "dim" | "green" | "yellow" | "red" | "cyan";

/**
 * Whether text for `stream` gets colour, by Node's own rules (tty.getColorDepth): FORCE_COLOR
 * decides when it is set (`1`, `2`, `3`, `true` or empty: colour, even in a pipe; any other
 * value, such as `0`: none, even on a terminal), and then wins over NO_COLOR as in Node;
 * otherwise a terminal gets colour unless NO_COLOR is set (and not empty) or TERM is `dumb`.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: Output["env"]): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ["", "1", "2", "3", "true"].includes(force);
  return Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
}

/** Styles text for one of the output's streams, coloured or plain as `colorEnabled` decides. */
export function styler(output: Output, stream: "stdout" | "stderr" = "stdout"): (style: Style, text: string) => string {
  const color = colorEnabled(output[stream], output.env);
  // validateStream: false, because Node would check process.stdout itself, whichever stream this is.
  return (style, text) => (color ? styleText(style, text, { validateStream: false }) : text);
}

/** Rows as aligned columns (the last column is not padded). */
export function columns(rows: string[][], indent = "  ", gap = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visibleLength(cell))))
        .join(gap)
        .trimEnd(),
  );
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "").length;
}
