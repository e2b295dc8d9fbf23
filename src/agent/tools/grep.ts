import { basename, dirname } from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import { appliesRules, isMasked } from "../sandbox/sandbox.js";
import { localFileOperations, looksBinary, type FileOperations } from "./file-operations.js";
import { resolveToolPath, showPath } from "./paths.js";
import { ToolError, type AgentTool, type ToolContext, type ToolResult } from "./tool.js";
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
      const regex = compilePattern(input);
      const target = resolveToolPath(context.workdir, input.path ?? ".");
      const shownTarget = showPath(context.workdir, target);
      const { root, candidates, masked, truncatedWalk } = await searchedFiles(files, target, shownTarget, input.glob, context);
      const prefix = (file: string) => showPath(context.workdir, `${root}/${file}`);
      const out = new GrepOutput();
      for (const file of candidates) {
        if (context.signal.aborted || out.full) break;
        const lines = await searchableLines(files, `${root}/${file}`);
        if (!lines) continue;
        const hits: number[] = [];
        for (let i = 0; i < lines.length; i++) if (regex.test(lines[i]!)) hits.push(i);
        if (hits.length === 0) continue;
        out.matchedFiles++;
        if (input.files_only) {
          if (!out.push(prefix(file))) break;
          continue;
        }
        pushHits(out, prefix(file), lines, hits, input.context ?? 0);
      }
      return grepResult(input, shownTarget, out, masked.map(prefix), truncatedWalk);
    },
  };
}

function compilePattern(input: GrepInput): RegExp {
  try {
    return new RegExp(input.pattern, input.ignore_case ? "i" : "");
  } catch (error) {
    throw new ToolError(`invalid regular expression: ${(error as Error).message}`);
  }
}

/** The files to search, relative to `root`: the target file, or the files under the target folder that match the glob. */
async function searchedFiles(
  files: FileOperations,
  target: string,
  shownTarget: string,
  glob: string | undefined,
  context: ToolContext,
): Promise<{ root: string; candidates: string[]; masked: string[]; truncatedWalk: boolean }> {
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
  if (glob) {
    const isMatch = picomatch(glob.replace(/^\.\//, ""), { dot: true, basename: !glob.includes("/") });
    candidates = candidates.filter((file) => isMatch(file));
  }
  // Credential files are passed over under the sandbox's rules (read asks for them one by one).
  const masked = appliesRules(context.sandbox) ? candidates.filter((file) => isMasked(context.sandbox!, `${root}/${file}`)) : [];
  if (masked.length > 0) candidates = candidates.filter((file) => !masked.includes(file));
  return { root, candidates, masked, truncatedWalk };
}

/** A file's lines, or null for what is not searched: not a regular file, too large, or binary. */
async function searchableLines(files: FileOperations, path: string): Promise<string[] | null> {
  const stat = await files.stat(path);
  if (!stat || stat.kind !== "file" || stat.size > MAX_GREP_FILE_BYTES) return null;
  const buffer = await files.readFile(path, MAX_GREP_FILE_BYTES);
  if (looksBinary(buffer)) return null;
  return buffer.toString("utf8").split("\n");
}

/** The output lines so far, kept under MAX_GREP_CHARS; `full` once a line did not fit or the match limit was reached. */
class GrepOutput {
  readonly lines: string[] = [];
  private chars = 0;
  matches = 0;
  matchedFiles = 0;
  full = false;

  /** Adds a line if it fits; false (and full) when it does not. */
  push(line: string): boolean {
    if (this.chars + line.length > MAX_GREP_CHARS) return (this.full = true), false;
    this.lines.push(line);
    this.chars += line.length + 1;
    return true;
  }
}

/** A file's matching lines as `path:line:text`, with `context` lines around them as `path-line-text` and `--` between groups. */
function pushHits(out: GrepOutput, prefix: string, lines: string[], hits: number[], context: number): void {
  let shownUntil = -1;
  for (const hit of hits) {
    if (out.matches >= MAX_GREP_MATCHES) {
      out.full = true;
      break;
    }
    out.matches++;
    const from = Math.max(hit - context, shownUntil + 1);
    const to = Math.min(lines.length - 1, hit + context);
    if (context > 0 && from > shownUntil + 1 && shownUntil >= 0) out.push("--");
    for (let i = from; i <= to; i++) {
      const text = lines[i]!.length > MAX_MATCH_LINE_CHARS ? `${lines[i]!.slice(0, MAX_MATCH_LINE_CHARS)}…` : lines[i]!;
      if (!out.push(`${prefix}${i === hit ? ":" : "-"}${i + 1}${i === hit ? ":" : "-"}${text}`)) break;
    }
    shownUntil = to;
  }
}

/** The lines found, with notes saying what was left out (credential files, the output limit, a cut walk). */
function grepResult(input: GrepInput, shownTarget: string, out: GrepOutput, masked: string[], truncatedWalk: boolean): ToolResult {
  const skipped = masked.length > 0 ? `skipped ${masked.length} credential file${masked.length === 1 ? "" : "s"} (${masked.slice(0, 3).join(", ")}${masked.length > 3 ? ", …" : ""}); read asks the user for one` : null;
  if (out.lines.length === 0) return { output: `no matches for ${JSON.stringify(input.pattern)} in ${shownTarget}${skipped ? ` (${skipped})` : ""}`, summary: "no matches" };
  const notes: string[] = skipped ? [skipped] : [];
  if (out.full) notes.push("stopped at the output limit; narrow the pattern, path or glob");
  if (truncatedWalk) notes.push("the file walk stopped early; narrow the path");
  const { matches, matchedFiles } = out;
  const summary = input.files_only ? `${matchedFiles} file${matchedFiles === 1 ? "" : "s"}` : `${matches} match${matches === 1 ? "" : "es"}`;
  return { output: out.lines.join("\n") + (notes.length > 0 ? `\n(${notes.join("; ")})` : ""), summary };
}
