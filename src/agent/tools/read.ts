import { basename, dirname } from "node:path";
import { z } from "zod";
import { editDistance } from "../../kernel/suggest.js";
import { localFileOperations, looksBinary, type FileOperations } from "./file-operations.js";
import { resolveToolPath, showPath } from "./paths.js";
import { appliesRules, isMasked } from "../sandbox/sandbox.js";
import { ToolError, type AgentTool } from "./tool.js";

/** Lines shown when the model gives no limit. */
export const DEFAULT_READ_LINES = 2000;
/** Longer lines are cut (minified files would otherwise fill the context). */
export const MAX_LINE_CHARS = 2000;
/** The most text one read returns; the rest needs `offset`. */
export const MAX_READ_CHARS = 60_000;
/** Only this much of a file is read; larger files need grep or bash (head, tail, sed). */
export const MAX_READ_BYTES = 8 * 1024 * 1024;

const inputSchema = z
  .object({
    path: z.string().min(1).describe("File to read: relative to the working directory, or absolute"),
    offset: z.number().int().min(1).optional().describe("First line to show (1-based); default 1"),
    limit: z.number().int().min(1).optional().describe(`How many lines to show; default ${DEFAULT_READ_LINES}`),
  })
  .strict();

export type ReadInput = z.infer<typeof inputSchema>;

export function createReadTool(files: FileOperations = localFileOperations): AgentTool<ReadInput> {
  return {
    name: "read",
    description:
      `Read a text file. Lines come numbered (number, tab, text). Shows up to ${DEFAULT_READ_LINES} lines from offset; ` +
      "use offset and limit to page through long files. Also reads the files where long command output was saved.",
    inputSchema,
    access: "read",
    describe: (input, workdir) => `read ${showPath(workdir, resolveToolPath(workdir, input.path))}${input.offset ? `:${input.offset}` : ""}`,
    // Another agent's (or bosun's own) credentials reach the model only if the user says so.
    sandboxNeeds(input, workdir, sandbox) {
      const path = resolveToolPath(workdir, input.path);
      return appliesRules(sandbox) && isMasked(sandbox, path) ? { read: [path] } : null;
    },
    async execute(input, context) {
      const path = resolveToolPath(context.workdir, input.path);
      const shown = showPath(context.workdir, path);
      const info = await files.stat(path);
      if (!info) throw new ToolError(`${shown} does not exist${await suggestSiblings(files, path)}`);
      if (info.kind === "directory") throw new ToolError(`${shown} is a directory; use glob to list its files`);
      if (info.kind !== "file") throw new ToolError(`${shown} is not a regular file`);
      const buffer = await files.readFile(path, MAX_READ_BYTES);
      if (looksBinary(buffer)) throw new ToolError(`${shown} is a binary file (${info.size} bytes); read shows text only`);
      const partial = info.size > buffer.length;
      const text = buffer.toString("utf8");
      if (text.length === 0) return { output: `${shown} is empty`, summary: "empty file" };
      const lines = text.split("\n");
      if (lines[lines.length - 1] === "" ) lines.pop();
      const offset = input.offset ?? 1;
      if (offset > lines.length) throw new ToolError(`${shown} has ${lines.length} lines; offset ${offset} is past the end`);
      const limit = input.limit ?? DEFAULT_READ_LINES;
      const out: string[] = [];
      let chars = 0;
      let last = offset - 1;
      for (let i = offset - 1; i < Math.min(lines.length, offset - 1 + limit); i++) {
        let line = lines[i]!.replace(/\r$/, "");
        if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`;
        const numbered = `${String(i + 1).padStart(6)}\t${line}`;
        if (chars + numbered.length > MAX_READ_CHARS && out.length > 0) break;
        out.push(numbered);
        chars += numbered.length + 1;
        last = i + 1;
      }
      const total = partial ? `at least ${lines.length}` : String(lines.length);
      const notes: string[] = [];
      if (last < lines.length || partial) notes.push(`showing lines ${offset}-${last} of ${total}; continue with offset=${last + 1}`);
      if (partial) notes.push(`only the first ${MAX_READ_BYTES} bytes of this ${info.size}-byte file can be read; use grep or bash (sed -n, tail) for the rest`);
      const footer = notes.length > 0 ? `\n(${notes.join("; ")})` : "";
      return { output: out.join("\n") + footer, summary: `lines ${offset}-${last} of ${total}` };
    },
  };
}

/** "; did you mean …" with up to three similar names in the same folder, or nothing. */
async function suggestSiblings(files: FileOperations, path: string): Promise<string> {
  const wanted = basename(path).toLowerCase();
  const stem = wanted.replace(/\.[^.]*$/, "");
  let entries: { name: string }[];
  try {
    entries = await files.readdir(dirname(path));
  } catch {
    return "";
  }
  const similar = entries
    .map((entry) => entry.name)
    .filter((name) => {
      const lower = name.toLowerCase();
      return lower === wanted || (stem.length >= 2 && (lower.startsWith(stem) || lower.replace(/\.[^.]*$/, "") === stem)) || editDistance(lower, wanted) <= 2;
    })
    .slice(0, 3);
  return similar.length > 0 ? `; did you mean ${similar.map((name) => JSON.stringify(name)).join(", ")}?` : "";
}
