import { z } from "zod";
import { localFileOperations, looksBinary, type FileOperations } from "./file-operations.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool } from "./tool.js";
import { MAX_WRITE_BYTES, outsideWorkdirDanger, previewLines, writeNeeds } from "./write.js";

const inputSchema = z
  .object({
    path: z.string().min(1).describe("File to change: relative to the working directory, or absolute"),
    old_string: z.string().describe("The exact text to replace, including whitespace and indentation; it must occur once unless replace_all is set"),
    new_string: z.string().describe("The text to put in its place"),
    replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one"),
  })
  .strict();

export type EditInput = z.infer<typeof inputSchema>;

export function createEditTool(files: FileOperations = localFileOperations): AgentTool<EditInput> {
  return {
    name: "edit",
    description:
      "Replace an exact piece of text in a file. old_string must match the file exactly (copy it from read output without the line-number prefix) " +
      "and occur exactly once; include a few surrounding lines to make it unique, or set replace_all.",
    inputSchema,
    access: "edit",
    describe: (input, workdir) => `edit ${showPath(workdir, resolveToolPath(workdir, input.path))}`,
    danger: (input, workdir, sandbox) => outsideWorkdirDanger(workdir, resolveToolPath(workdir, input.path), sandbox),
    sandboxNeeds: (input, workdir, sandbox) => writeNeeds(resolveToolPath(workdir, input.path), sandbox),
    preview: (input) => previewLines([...input.old_string.split("\n").map((line) => `- ${line}`), ...input.new_string.split("\n").map((line) => `+ ${line}`)]),
    async execute(input, context) {
      const path = resolveToolPath(context.workdir, input.path);
      const shown = showPath(context.workdir, path);
      if (input.old_string.length === 0) throw new ToolError("old_string is empty; to create or overwrite a whole file use write");
      if (input.old_string === input.new_string) throw new ToolError("old_string and new_string are the same; nothing would change");
      const info = await files.stat(path);
      if (!info) throw new ToolError(`${shown} does not exist; use write to create it`);
      if (info.kind !== "file") throw new ToolError(`${shown} is not a regular file`);
      if (info.size > MAX_WRITE_BYTES) throw new ToolError(`${shown} is ${info.size} bytes; edit handles files up to ${MAX_WRITE_BYTES}`);
      const buffer = await files.readFile(path, MAX_WRITE_BYTES);
      if (looksBinary(buffer)) throw new ToolError(`${shown} is a binary file`);
      const text = buffer.toString("utf8");
      // Models write "\n"; a file with Windows line endings gets its own in both strings.
      const crlf = text.includes("\r\n") && !input.old_string.includes("\r\n");
      const oldString = crlf ? input.old_string.replace(/\n/g, "\r\n") : input.old_string;
      const newString = crlf ? input.new_string.replace(/\n/g, "\r\n") : input.new_string;
      const positions = occurrences(text, oldString);
      if (positions.length === 0) throw new ToolError(`old_string was not found in ${shown}${nearMiss(text, input.old_string)}`);
      if (positions.length > 1 && !input.replace_all) {
        const lines = positions.slice(0, 10).map((at) => lineAt(text, at));
        throw new ToolError(
          `old_string occurs ${positions.length} times in ${shown} (lines ${lines.join(", ")}${positions.length > 10 ? ", …" : ""}); ` +
            "include more surrounding text to pick one, or set replace_all to true",
        );
      }
      const updated = input.replace_all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
      await files.writeFile(path, updated);
      const first = lineAt(text, positions[0]!);
      const count = input.replace_all ? positions.length : 1;
      const excerpt = excerptAround(updated.replace(/\r\n/g, "\n"), first, input.new_string);
      return {
        output: `replaced ${count} occurrence${count === 1 ? "" : "s"} in ${shown} (first at line ${first}):\n${excerpt}`,
        summary: `${count} replacement${count === 1 ? "" : "s"} at line ${first}`,
      };
    },
  };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Points at a passage that matches once whitespace is ignored: the usual cause of a miss. */
function nearMiss(text: string, needle: string): string {
  const squash = (value: string) => value.replace(/\s+/g, " ").trim();
  const wanted = squash(needle);
  if (wanted.length === 0) return "";
  const firstLine = squash(needle.split("\n").find((line) => line.trim() !== "") ?? "");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (firstLine && squash(lines[i]!) === firstLine) {
      return `; line ${i + 1} matches its first line except for whitespace: read the file again and copy the text exactly`;
    }
  }
  return "; read the file again and copy the exact text (whitespace and indentation included)";
}

/** The changed lines with two lines of context, numbered as read shows them. */
function excerptAround(text: string, firstLine: number, inserted: string): string {
  const lines = text.split("\n");
  const from = Math.max(1, firstLine - 2);
  const to = Math.min(lines.length, firstLine + inserted.split("\n").length + 1);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${String(n).padStart(6)}\t${lines[n - 1]}`);
  return out.join("\n");
}
