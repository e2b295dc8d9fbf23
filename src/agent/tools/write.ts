import { z } from "zod";
import { localFileOperations, type FileOperations } from "./file-operations.js";
import { isInsideWorkdir, isScratchPath, resolveToolPath, showPath } from "./paths.js";
import { appliesRules, mayWrite, type Sandbox } from "../sandbox/sandbox.js";
import { ToolError, type AgentTool, type SandboxNeeds } from "./tool.js";

/** The most one write may put in a file. */
export const MAX_WRITE_BYTES = 4 * 1024 * 1024;

const inputSchema = z
  .object({
    path: z.string().min(1).describe("File to write: relative to the working directory, or absolute"),
    content: z.string().describe("The complete new content of the file"),
  })
  .strict();

export type WriteInput = z.infer<typeof inputSchema>;

export function createWriteTool(files: FileOperations = localFileOperations): AgentTool<WriteInput> {
  return {
    name: "write",
    description:
      "Create a file or replace its whole content (missing folders are created). To change part of an existing file, use edit instead.",
    inputSchema,
    access: "edit",
    describe: (input, workdir) => `write ${showPath(workdir, resolveToolPath(workdir, input.path))} (${lineCount(input.content)} lines)`,
    danger: (input, workdir, sandbox) => outsideWorkdirDanger(workdir, resolveToolPath(workdir, input.path), sandbox),
    sandboxNeeds: (input, workdir, sandbox) => writeNeeds(resolveToolPath(workdir, input.path), sandbox),
    preview: (input) => previewLines(input.content.split("\n").map((line) => `+ ${line}`)),
    async execute(input, context) {
      const path = resolveToolPath(context.workdir, input.path);
      const shown = showPath(context.workdir, path);
      const bytes = Buffer.byteLength(input.content);
      if (bytes > MAX_WRITE_BYTES) throw new ToolError(`content is ${bytes} bytes; write takes at most ${MAX_WRITE_BYTES}`);
      const before = await files.stat(path);
      if (before && before.kind !== "file") throw new ToolError(`${shown} exists and is not a regular file`);
      await files.writeFile(path, input.content);
      const verb = before ? "replaced" : "created";
      return { output: `${verb} ${shown}: ${lineCount(input.content)} lines, ${bytes} bytes`, summary: `${verb}, ${lineCount(input.content)} lines` };
    },
  };
}

/**
 * Without a sandbox's rules, editing a file outside the workdir (other than scratch space) is
 * dangerous: it always asks. With them, it is a sandbox need instead (`writeNeeds`).
 */
export function outsideWorkdirDanger(workdir: string, path: string, sandbox?: Sandbox): string | null {
  if (appliesRules(sandbox) || isInsideWorkdir(workdir, path) || isScratchPath(path)) return null;
  return `writes outside the working directory (${path})`;
}

/** Under a sandbox's rules, a file the tools may not write is the user's to allow, for this call. */
export function writeNeeds(path: string, sandbox: Sandbox | undefined): SandboxNeeds | null {
  return appliesRules(sandbox) && !mayWrite(sandbox, path) ? { write: [path] } : null;
}

const PREVIEW_LINES = 20;
const PREVIEW_LINE_CHARS = 160;

/** At most 20 lines of at most 160 characters, saying how many more there are. */
export function previewLines(lines: string[]): string {
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line));
  if (lines.length > PREVIEW_LINES) shown.push(`… ${lines.length - PREVIEW_LINES} more lines`);
  return shown.join("\n");
}

export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
