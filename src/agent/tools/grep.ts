import { basename, dirname } from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import { appliesRules, isMasked } from "../sandbox/sandbox.js";
import { localFileOperations, looksBinary, type FileOperations } from "./file-operations.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool } from "./tool.js";
import { SKIPPED_DIRS, walkFiles } from "./walk.js";

/** Files larger than this are skipped (logs, bundles, data). */
export const MAX_GREP_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_GREP_MATCHES = 200;
export const MAX_GREP_CHARS = 40_000;
const MAX_MATCH_LINE_CHARS = 500;

const inputSchema = z
  .object({
    pattern: z.string().min(1).describe("JavaScript regular expression to search for"),
    path: z.string().optional().describe("File or folder to search; default the working directory"),
    glob: z.string().optional().describe('Only search files whose path matches this glob, e.g. "**/*.ts"'),
    ignore_case: z.boolean().optional().describe("Match without regard to case"),
    context: z.number().int().min(0).max(10).optional().describe("Lines of context to show around each match"),
    files_only: z.boolean().optional().describe("List matching files instead of matching lines"),
  })
  .strict();

export type GrepInput = z.infer<typeof inputSchema>;

export function createGrepTool(files: FileOperations = localFileOperations): AgentTool<GrepInput> {
  return {
    name: "grep",
    description:
      `Search file contents with a regular expression. Prints path:line:text for each matching line (at most ${MAX_GREP_MATCHES}), ` +
      `or only the file names with files_only. Binary files, files over ${MAX_GREP_FILE_BYTES / 1024 / 1024} MiB and ${SKIPPED_DIRS.join("/")} folders are skipped.`,
    inputSchema,
    access: "read",
    describe: (input, workdir) => `grep ${JSON.stringify(input.pattern)}${input.path ? ` in ${showPath(workdir, resolveToolPath(workdir, input.path))}` : ""}`,
    async execute(input, context) {
      let regex: RegExp;
      try {
        regex = new RegExp(input.pattern, input.ignore_case ? "i" : "");
      } catch (error) {
        throw new ToolError(`invalid regular expression: ${(error as Error).message}`);
      }
      const target = resolveToolPath(context.workdir, input.path ?? ".");
      const shownTarget = showPath(context.workdir, target);
      const info = await files.stat(target);
      if (!info) throw new ToolError(`${shownTarget} does not exist`);
      let root: string;
      let candidates: string[];
      let truncatedWalk = false;
      if (info.kind === "file") {
        root = dirname(target);
        candidates = [basename(target)];
      } else {
        root = target;
        const walk = await walkFiles(files, root, { signal: context.signal });
        truncatedWalk = walk.truncated;
        candidates = walk.files;
      }
      if (input.glob) {
        const isMatch = picomatch(input.glob.replace(/^\.\//, ""), { dot: true, basename: !input.glob.includes("/") });
        candidates = candidates.filter((file) => isMatch(file));
      }
      const prefix = (file: string) => showPath(context.workdir, `${root}/${file}`);
      const out: string[] = [];
      let chars = 0;
      let matches = 0;
      let matchedFiles = 0;
      let full = false;
      const push = (line: string) => {
        if (chars + line.length > MAX_GREP_CHARS) return (full = true), false;
        out.push(line);
        chars += line.length + 1;
        return true;
      };
      // Credential files are passed over under the sandbox's rules (read asks for them one by one).
      const masked = appliesRules(context.sandbox) ? candidates.filter((file) => isMasked(context.sandbox!, `${root}/${file}`)) : [];
      if (masked.length > 0) candidates = candidates.filter((file) => !masked.includes(file));
      for (const file of candidates) {
        if (context.signal.aborted || full) break;
        const stat = await files.stat(`${root}/${file}`);
        if (!stat || stat.kind !== "file" || stat.size > MAX_GREP_FILE_BYTES) continue;
        const buffer = await files.readFile(`${root}/${file}`, MAX_GREP_FILE_BYTES);
        if (looksBinary(buffer)) continue;
        const lines = buffer.toString("utf8").split("\n");
        const hits: number[] = [];
        for (let i = 0; i < lines.length; i++) if (regex.test(lines[i]!)) hits.push(i);
        if (hits.length === 0) continue;
        matchedFiles++;
        if (input.files_only) {
          if (!push(prefix(file))) break;
          continue;
        }
        const contextLines = input.context ?? 0;
        let shownUntil = -1;
        for (const hit of hits) {
          if (matches >= MAX_GREP_MATCHES) {
            full = true;
            break;
          }
          matches++;
          const from = Math.max(hit - contextLines, shownUntil + 1);
          const to = Math.min(lines.length - 1, hit + contextLines);
          if (contextLines > 0 && from > shownUntil + 1 && shownUntil >= 0) push("--");
          for (let i = from; i <= to; i++) {
            const text = lines[i]!.length > MAX_MATCH_LINE_CHARS ? `${lines[i]!.slice(0, MAX_MATCH_LINE_CHARS)}…` : lines[i]!;
            if (!push(`${prefix(file)}${i === hit ? ":" : "-"}${i + 1}${i === hit ? ":" : "-"}${text}`)) break;
          }
          shownUntil = to;
        }
      }
      const skipped = masked.length > 0 ? `skipped ${masked.length} credential file${masked.length === 1 ? "" : "s"} (${masked.slice(0, 3).map(prefix).join(", ")}${masked.length > 3 ? ", …" : ""}); read asks the user for one` : null;
      if (out.length === 0) return { output: `no matches for ${JSON.stringify(input.pattern)} in ${shownTarget}${skipped ? ` (${skipped})` : ""}`, summary: "no matches" };
      const notes: string[] = skipped ? [skipped] : [];
      if (full) notes.push("stopped at the output limit; narrow the pattern, path or glob");
      if (truncatedWalk) notes.push("the file walk stopped early; narrow the path");
      const summary = input.files_only ? `${matchedFiles} file${matchedFiles === 1 ? "" : "s"}` : `${matches} match${matches === 1 ? "" : "es"}`;
      return { output: out.join("\n") + (notes.length > 0 ? `\n(${notes.join("; ")})` : ""), summary };
    },
  };
}
