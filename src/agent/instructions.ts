/** Whose file it is: the user's own (`<config>/AGENTS.md`, every project) or one of the project's. */
export type InstructionScope = "user" | "project";

/** One instruction file as it was read: its text (only the start, when it is long) and its size. */
export interface InstructionSource {
  file: string;
  scope: InstructionScope;
  text: string;
  /** The file's size in bytes. */
  bytes: number;
  /** False when only the start of the file was read. */
  complete: boolean;
}

/** What a run says about each file it read: in `--json`, the session file and `bosun sessions show`. */
export interface InstructionRecord {
  file: string;
  scope: InstructionScope;
  /** The file's size in bytes. */
  bytes: number;
  /** How many bytes of its text are in the system prompt. */
  keptBytes: number;
  /** True when the prompt holds less than the whole file (cut, or left out for want of room). */
  truncated: boolean;
}

/** The project instructions of a run: the system prompt section and the files it came from. */
export interface ProjectInstructions {
  /** The section added to the system prompt; "" when no file had any text. */
  prompt: string;
  files: InstructionRecord[];
}

export interface InstructionLimits {
  /** At most this many bytes of any one file. */
  fileBytes: number;
  /** At most this many bytes of all files together. */
  totalBytes: number;
}

const INSTRUCTION_FILE_MAX_BYTES = 32 * 1024;
const INSTRUCTIONS_MAX_BYTES = 64 * 1024;

/**
 * The caps for a model: 32 KiB a file, and 64 KiB in all or, for a model with a small context
 * window, a quarter of that window (at 4 bytes a token: as many bytes as it has tokens), so that
 * instructions never crowd out the conversation.
 */
export function instructionLimits(contextTokens: number): InstructionLimits {
  const total = Math.max(0, Math.min(INSTRUCTIONS_MAX_BYTES, Math.floor(contextTokens)));
  return { fileBytes: Math.min(INSTRUCTION_FILE_MAX_BYTES, total), totalBytes: total };
}

/**
 * The project instructions section of the system prompt, from the files in prompt order (the
 * user's file, then the project's from its root down to the working folder). Pure: the files come
 * with their text.
 *
 * The room is handed out nearest first: the working folder's file gets its share before its
 * parents', and the user's file comes last, so a long file at the repository root is cut before
 * the specific instructions next to the code. A cut ends at a line break, and the prompt says
 * where a file was cut or left out and how long it is, so the model can read the rest itself.
 */
export function assembleInstructions(sources: readonly InstructionSource[], limits: InstructionLimits): ProjectInstructions {
  const kept = new Map<InstructionSource, string>();
  let room = limits.totalBytes;
  for (const source of budgetOrder(sources)) {
    const text = cutToBytes(source.text, Math.min(limits.fileBytes, room), source.complete);
    kept.set(source, text);
    room -= Buffer.byteLength(text);
  }

  const files: InstructionRecord[] = [];
  const sections: string[] = [];
  for (const source of sources) {
    const text = kept.get(source) ?? "";
    const keptBytes = Buffer.byteLength(text);
    const truncated = !source.complete || keptBytes < Buffer.byteLength(source.text);
    files.push({ file: source.file, scope: source.scope, bytes: source.bytes, keptBytes, truncated });
    if (source.text.trim() === "") continue;
    const body = text.trimEnd();
    const note = truncated ? cutNote(source, keptBytes, limits) : null;
    sections.push([`<instructions file=${JSON.stringify(source.file)}>`, ...(body ? [body] : []), ...(note ? [note] : []), "</instructions>"].join("\n"));
  }
  if (sections.length === 0) return { prompt: "", files };
  const userFirst = sources.some((source) => source.scope === "user" && source.text.trim() !== "");
  const intro =
    "Instructions the user keeps in AGENTS.md files (CLAUDE.md where a folder has no AGENTS.md): " +
    `${userFirst ? "their own file for every project first, then " : ""}the project's, from its root down to the working folder. ` +
    "Follow them; where two disagree, the later one (nearer the working folder) wins.";
  return { prompt: [intro, ...sections].join("\n\n"), files };
}

/** Project files nearest the working folder first, then the user's file. */
function budgetOrder(sources: readonly InstructionSource[]): InstructionSource[] {
  const project = sources.filter((source) => source.scope === "project").reverse();
  return [...project, ...sources.filter((source) => source.scope === "user")];
}

/**
 * The longest start of `text` within `limit` UTF-8 bytes that ends at a line break: a cut never
 * leaves half a line (nor half a character). A text whose first line alone is over the limit is
 * left out. An incomplete text (the rest of the file was not read) is always cut, as its last
 * line may be cut short.
 */
export function cutToBytes(text: string, limit: number, complete = true): string {
  const encoded = Buffer.from(text, "utf8");
  if (complete && encoded.length <= limit) return text;
  const lineEnd = encoded.subarray(0, Math.max(0, limit)).lastIndexOf(0x0a);
  return lineEnd < 0 ? "" : encoded.subarray(0, lineEnd + 1).toString("utf8");
}

function cutNote(source: InstructionSource, keptBytes: number, limits: InstructionLimits): string {
  const size = `${source.bytes.toLocaleString("en-US")} bytes`;
  const caps = `instructions are limited to ${limits.fileBytes.toLocaleString("en-US")} bytes a file and ${limits.totalBytes.toLocaleString("en-US")} in all`;
  const what = keptBytes === 0 ? `bosun left this file (${size}) out: ${caps}` : `bosun cut this file here: ${keptBytes.toLocaleString("en-US")} of its ${size} are shown (${caps})`;
  return `[${what}. Read ${source.file} for the rest when it matters.]`;
}
