/**
 * What bosun reads in an agent CLI's event stream, the same for every CLI: each CLI's parser turns
 * its own JSON lines into these, and the runner turns them into bosun's sub-agent events.
 */
export type ExternalEvent =
  /** The CLI's own session id and the model it uses, when it says. */
  | { type: "session"; id: string; model?: string }
  /** A model call starts (the CLI's next turn). */
  | { type: "turn" }
  /** Text the model wrote (a whole piece, not a delta). */
  | { type: "text"; text: string }
  | { type: "tool-start"; id: string; tool: string; description: string }
  | { type: "tool-end"; id: string; tool: string; ok: boolean; summary: string }
  /** Tokens of one model call (or of a step the CLI reports at once); `costUsd` when the CLI prices it itself. */
  | { type: "usage"; input: number; output: number; costUsd?: number }
  /**
   * The run ended as the CLI tells it: its final answer, or the error it ended on. `costUsd` and
   * `turns` are the CLI's own totals when it reports them (they replace what was summed up).
   */
  | { type: "result"; ok: boolean; text: string; costUsd?: number; turns?: number }
  /** An error the CLI reported on the way (the run may still end well). */
  | { type: "error"; message: string };

/** One CLI's event stream, read a parsed JSON line at a time; keeps what it needs between lines. */
export interface StreamParser {
  line(value: Record<string, unknown>): ExternalEvent[];
  /** For CLIs without a result line: the end, once the process exited well without one. */
  finish?(): ExternalEvent[];
}

/**
 * Where a stream that does not mark its model calls has them: a turn starts at the model's first
 * output after the start, or after a tool result went back to it.
 */
export class TurnBoundary {
  constructor(private pending = true) {}

  /** The model wrote something: a turn event first when a new turn starts here (then true). */
  output(events: ExternalEvent[]): boolean {
    if (!this.pending) return false;
    this.pending = false;
    events.push({ type: "turn" });
    return true;
  }

  /** A tool result went back to the model (or the run started over): its next output is a new turn. */
  next(): void {
    this.pending = true;
  }
}

/** Text cut to one line of at most `max` characters, for tool descriptions and summaries. */
export function shortLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A JSON value as an object, or an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
