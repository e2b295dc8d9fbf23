import { describeError } from "../../kernel/errors.js";
import type { SpillBudget } from "../sandbox/spill-budget.js";
import { visibleLine } from "../../kernel/terminal-text.js";
import type { SpillStore } from "./tool.js";

/** Output up to this many characters goes to the model whole; beyond it, head + tail + a file. */
export const MAX_BASH_INLINE_CHARS = 30_000;
const HEAD_CHARS = 20_000;
const TAIL_CHARS = 8_000;

/** How much of a call's output may be saved: its own limit, and the run's budget it draws from. */
export interface SpillLimits {
  callBytes: number;
  budget: SpillBudget | null;
}

/**
 * Keeps what the model will see (the start and the end) in memory and, once the output outgrows
 * the inline limit, streams all of it to a spill file, so a command that prints gigabytes costs
 * neither memory nor context. A spill file that cannot be written (a full disk, a FIFO in its
 * place) costs only the middle of the output: the model is told why it was not saved.
 */
export class OutputCollector {
  private head = "";
  private tail = "";
  private total = 0;
  private file: ReturnType<SpillStore["open"]> | null = null;
  private unsaved: string | null = null;
  spillPath: string | null = null;

  private saved = 0;
  private dropped: string | null = null;

  constructor(
    private readonly spill: SpillStore,
    private readonly name: string,
    private readonly limits: SpillLimits,
  ) {}

  add(chunk: string): void {
    this.total += chunk.length;
    if (this.file || this.unsaved) {
      this.save(() => this.write(chunk));
      this.tail = (this.tail + chunk).slice(-TAIL_CHARS);
      return;
    }
    if (this.head.length + chunk.length <= MAX_BASH_INLINE_CHARS) {
      this.head += chunk;
      return;
    }
    const all = this.head + chunk;
    this.save(() => {
      this.file = this.spill.open(this.name);
      this.spillPath = this.file.path;
      this.write(all);
    });
    this.head = all.slice(0, HEAD_CHARS);
    this.tail = all.slice(HEAD_CHARS).slice(-TAIL_CHARS);
  }

  /**
   * The last `count` lines that are not blank, each whole and as a terminal shows it (without
   * control sequences), so that redaction, which runs on what is returned, sees the text the
   * user will: a line cut at its start, or broken up by colour codes, could hold a secret it would
   * not recognize.
   */
  lastLines(count: number): string[] {
    let text = this.head;
    if (this.total > this.head.length) {
      // The output outgrew the head (saved to a file or not): its end is in the tail, whose
      // window starts wherever it fell. Drop that first, partial, line.
      const cut = this.tail.indexOf("\n");
      text = cut < 0 ? "" : this.tail.slice(cut + 1);
    }
    return text
      .split("\n")
      .map(visibleLine)
      .filter((line) => line.trim() !== "")
      .slice(-count);
  }

  /** The output so far as the model will see it (start and end when it outgrew the inline limit). */
  snapshot(): string {
    if (!this.file && !this.unsaved) return this.head;
    const omitted = this.total - this.head.length - this.tail.length;
    return `${this.head}\n… [${omitted} characters omitted${this.spillPath ? `; saved in ${this.spillPath}` : ""}] …\n${this.tail}`;
  }

  /**
   * Makes sure everything from here on is saved to the spill file (opening it now with what came
   * so far, if the output has not outgrown the inline limit yet); its path, or null when it
   * cannot be written.
   */
  keepSaving(): string | null {
    if (!this.file && !this.unsaved) {
      this.save(() => {
        this.file = this.spill.open(this.name);
        this.spillPath = this.file.path;
        this.write(this.head);
      });
      this.tail = this.head.slice(-TAIL_CHARS);
      this.head = "";
    }
    return this.spillPath;
  }

  async finish(): Promise<string> {
    if (!this.file && !this.unsaved) return this.head;
    await this.file?.close().catch((error: unknown) => this.giveUpSaving(error));
    const omitted = this.total - this.head.length - this.tail.length;
    const whole = this.unsaved
      ? `could not be saved: ${this.unsaved}`
      : `is in ${this.spillPath}: read it with the read tool (offset/limit) or grep it${this.dropped ? `; ${this.dropped}` : ""}`;
    return `${this.head}\n… [${omitted} characters omitted; the whole output (${this.total} characters) ${whole}] …\n${this.tail}`;
  }

  /**
   * Writes to the spill file what the limits leave room for; past them the rest of the stream is
   * dropped (the command goes on; the model is told where the saved output ends).
   */
  private write(text: string): void {
    if (!this.file || this.dropped) return;
    const room = Math.min(Buffer.byteLength(text), this.limits.callBytes - this.saved);
    const granted = this.limits.budget ? this.limits.budget.take(Math.max(0, room)) : Math.max(0, room);
    const whole = granted >= Buffer.byteLength(text);
    const part = whole ? text : Buffer.from(text).subarray(0, granted).toString("utf8").replace(/\uFFFD$/, "");
    if (part) this.file.write(part);
    this.saved += Buffer.byteLength(part);
    if (!whole) {
      this.dropped =
        this.saved >= this.limits.callBytes
          ? `it stops after ${this.saved} bytes: a call saves at most ${this.limits.callBytes} (sandbox.max_output_bytes)`
          : `it stops after ${this.saved} bytes: this run's saved output reached its limit of ${this.limits.budget?.limit} bytes (sandbox.max_session_output_bytes)`;
    }
  }

  // Runs in the output stream's data handler: a failure must not escape it.
  private save(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.giveUpSaving(error);
    }
  }

  private giveUpSaving(error: unknown): void {
    this.unsaved ??= describeError(error);
    const file = this.file;
    this.file = null;
    this.spillPath = null;
    void file?.close().catch(() => undefined);
  }
}
