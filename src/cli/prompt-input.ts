import { createInterface, type Interface } from "node:readline";
import type { InputStream } from "./output.js";
import { HISTORY_SIZE, type PromptHistory } from "./prompt-history.js";

/** Reads the prompts of an interactive run from the terminal. */
export interface PromptInput {
  /** The next prompt the user sends, or null when they leave. */
  read(): Promise<string | null>;
  close(): void;
}

export interface PromptLook {
  /** The prompt of a new message, and of each further line of one. */
  first: string;
  more: string;
  /** Shown after a Ctrl-C at an empty prompt. */
  leaveHint: string;
}

// Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~, which readline reports
// as the keys paste-start and paste-end; a newline between them continues the message.
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

type Reading = { kind: "message"; text: string } | { kind: "cleared" } | { kind: "interrupt" } | { kind: "eof" };

/**
 * Line editing and history (node:readline) on `terminal`, with multi-line messages: pasted text
 * keeps its lines, and a line ending in `\` continues on the next; Enter on a line that does
 * neither sends the message. Ctrl-C clears what is typed; at an empty prompt it asks for a second
 * Ctrl-C, which leaves, as does Ctrl-D at an empty line.
 */
export function createPromptInput(input: InputStream, terminal: NodeJS.WritableStream, history: PromptHistory, look: PromptLook): PromptInput {
  let leaveArmed = false;
  const pasteOff = () => terminal.write(PASTE_OFF);
  const interrupts: Interrupts = { atPrompt: null, between: false };
  const onSignal = () => {
    if (interrupts.atPrompt) interrupts.atPrompt();
    else interrupts.between = true;
  };

  process.on("exit", pasteOff);
  return {
    async read() {
      process.on("SIGINT", onSignal);
      try {
        return await readMessage();
      } finally {
        process.off("SIGINT", onSignal);
        interrupts.between = false;
      }
    },
    close() {
      process.off("exit", pasteOff);
    },
  };

  async function readMessage(): Promise<string | null> {
    for (;;) {
      const reading: Reading = interrupts.between ? { kind: "interrupt" } : await readOnce(input, terminal, history, look, interrupts);
      interrupts.between = false;
      if (reading.kind === "eof") {
        terminal.write("\n");
        return null;
      }
      if (reading.kind === "interrupt") {
        if (leaveArmed) return null;
        leaveArmed = true;
        terminal.write(look.leaveHint + "\n");
        continue;
      }
      leaveArmed = false;
      if (reading.kind === "cleared") continue;
      const text = reading.text.replace(/\s+$/, "");
      if (text.trim() === "") continue;
      history.add(text);
      return text;
    }
  }
}

/**
 * Where a Ctrl-C goes. Between two readline interfaces the terminal is briefly not raw, and a
 * Ctrl-C typed then arrives as SIGINT: it counts as pressed at the prompt (`between`), not lost.
 */
interface Interrupts {
  /** Handles a Ctrl-C at the prompt being read, or null between prompts. */
  atPrompt: (() => void) | null;
  between: boolean;
}

/** One readline interface, open for one message (of one or more lines) or until a Ctrl-C or Ctrl-D ends it. */
function readOnce(input: InputStream, terminal: NodeJS.WritableStream, history: PromptHistory, look: PromptLook, interrupts: Interrupts): Promise<Reading> {
  return new Promise<Reading>((resolve) => {
    const rl = createInterface({
      input,
      output: terminal,
      terminal: true,
      history: [...history.entries],
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      prompt: look.first,
    });
    const lines: string[] = [];
    let pasting = false;
    let settled = false;
    const onKey = (_text: string | undefined, key: { name?: string } | undefined) => {
      if (key?.name === "paste-start") pasting = true;
      else if (key?.name === "paste-end") pasting = false;
    };
    const settle = (reading: Reading) => {
      if (settled) return;
      settled = true;
      interrupts.atPrompt = null;
      input.off("keypress", onKey);
      terminal.write(PASTE_OFF);
      rl.close();
      resolve(reading);
    };
    input.on("keypress", onKey);
    rl.on("line", (line: string) => {
      const continued = pasting || line.endsWith("\\");
      if (!continued) {
        lines.push(line);
        settle({ kind: "message", text: lines.join("\n") });
        return;
      }
      lines.push(pasting ? line : line.slice(0, -1));
      forgetLatest(rl, line);
      rl.setPrompt(look.more);
      rl.prompt();
    });
    interrupts.atPrompt = () => {
      const typed = rl.line !== "" || lines.length > 0;
      terminal.write(typed ? "^C\n" : "\n");
      settle(typed ? { kind: "cleared" } : { kind: "interrupt" });
    };
    rl.on("SIGINT", interrupts.atPrompt);
    rl.on("close", () => settle({ kind: "eof" }));
    terminal.write(PASTE_ON);
    rl.prompt();
  });
}

/** Readline put the line just entered into its history; a line that only continues a message is not one to recall. */
function forgetLatest(rl: Interface, line: string): void {
  const { history } = rl as unknown as { history?: string[] };
  if (history?.[0] === line) history.shift();
}
