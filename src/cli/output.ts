import { styleText } from "node:util";

/** Standard input as a command may read it (a secret piped in, or typed at a hidden prompt). */
export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/** Where a command writes: data on stdout, progress and problems on stderr. */
export interface Output {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Where questions and secrets are read; `process.stdin` when not given (looked up only when asking). */
  stdin?: InputStream;
}

export function processOutput(): Output {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

export function writeLine(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(text + "\n");
}

export function writeJson(output: Output, value: unknown): void {
  writeLine(output.stdout, JSON.stringify(value, null, 2));
}

type Style = "bold" | "dim" | "green" | "yellow" | "red" | "cyan";

/** Styles text for a terminal; plain when the stream is not a TTY or NO_COLOR is set. */
export function styler(output: Output, stream: "stdout" | "stderr" = "stdout"): (style: Style, text: string) => string {
  const color = Boolean(output[stream].isTTY) && !output.env.NO_COLOR && output.env.TERM !== "dumb";
  return (style, text) => (color ? styleText(style, text) : text);
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
