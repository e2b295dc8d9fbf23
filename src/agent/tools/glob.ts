import picomatch from "picomatch";
import { z } from "zod";
import { localFileOperations, type FileOperations } from "./file-operations.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool } from "./tool.js";
import { patternNamesSkippedDir, SKIPPED_DIRS, walkFiles } from "./walk.js";

/** The most paths one glob returns. */
export const MAX_GLOB_RESULTS = 500;

const inputSchema = z
  .object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/test_*.py"'),
    path: z.string().optional().describe("Folder to search in; default the working directory"),
  })
  .strict();

export type GlobInput = z.infer<typeof inputSchema>;

export function createGlobTool(files: FileOperations = localFileOperations): AgentTool<GlobInput> {
  return {
    name: "glob",
    description:
      `Find files by name pattern (** matches any folders). Returns matching file paths relative to the search folder, sorted, at most ${MAX_GLOB_RESULTS}. ` +
      `${SKIPPED_DIRS.join(" and ")} are skipped unless the pattern names them.`,
    inputSchema,
    access: "read",
    describe: (input, workdir) => `glob ${input.pattern}${input.path ? ` in ${showPath(workdir, resolveToolPath(workdir, input.path))}` : ""}`,
    async execute(input, context) {
      const root = resolveToolPath(context.workdir, input.path ?? ".");
      const shownRoot = showPath(context.workdir, root);
      const info = await files.stat(root);
      if (!info) throw new ToolError(`${shownRoot} does not exist`);
      if (info.kind !== "directory") throw new ToolError(`${shownRoot} is not a folder; glob searches folders (use read for a file)`);
      const pattern = input.pattern.replace(/^\.\//, "");
      const isMatch = picomatch(pattern, { dot: true });
      const walk = await walkFiles(files, root, {
        signal: context.signal,
        enterDir: (_dir, name) => !SKIPPED_DIRS.includes(name) || patternNamesSkippedDir(pattern),
      });
      const matches = walk.files.filter((file) => isMatch(file));
      if (matches.length === 0) return { output: `no files match ${input.pattern} in ${shownRoot}${walk.truncated ? " (the search stopped early)" : ""}`, summary: "no matches" };
      const shown = matches.slice(0, MAX_GLOB_RESULTS);
      const notes: string[] = [];
      if (matches.length > shown.length) notes.push(`${matches.length - shown.length} more not shown; narrow the pattern`);
      if (walk.truncated) notes.push("the search stopped early; narrow the path");
      const header = shownRoot === "." ? "" : `(paths relative to ${shownRoot})\n`;
      return {
        output: header + shown.join("\n") + (notes.length > 0 ? `\n(${notes.join("; ")})` : ""),
        summary: `${matches.length} file${matches.length === 1 ? "" : "s"}`,
      };
    },
  };
}
