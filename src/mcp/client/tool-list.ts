import { inputSchemaProblem } from "./input-schema.js";
import type { ToolHints } from "./tool-approval.js";

/** One tool a server offers, as bosun keeps it: checked, with the hints approval reads. */
export interface McpToolDefinition {
  name: string;
  description: string;
  /** A JSON Schema of an object (checked by `inputSchemaProblem`). */
  inputSchema: Record<string, unknown>;
  hints: ToolHints;
}

/** A tool of the server's list that bosun does not offer, and why (shown once per run, and by `bosun mcp list`). */
export interface LeftOutTool {
  name: string;
  reason: string;
}

/** The most tools bosun takes from one server: a list past it is a server's bug, and would fill the model's context. */
export const MAX_TOOLS_PER_SERVER = 1_000;
/** A description longer than this is cut: it goes into every model request. */
export const MAX_DESCRIPTION_CHARS = 8_000;
/** MCP's limit on a tool's name. */
const MAX_NAME_CHARS = 128;

/**
 * The tools of a server's `tools/list` pages (their `tools` entries, in order), checked one by
 * one: a tool without a name, with a name given twice, or with an input schema a model cannot
 * take is left out with the reason; the others are kept. Annotations other than the two booleans
 * approval reads are ignored. Pure.
 */
export function readToolList(entries: readonly unknown[]): { tools: McpToolDefinition[]; leftOut: LeftOutTool[] } {
  const tools: McpToolDefinition[] = [];
  const leftOut: LeftOutTool[] = [];
  const seen = new Set<string>();
  let beyond = 0;
  for (const [index, entry] of entries.entries()) {
    const record = typeof entry === "object" && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
    const name = record && typeof record.name === "string" ? record.name : "";
    if (!record || name === "") {
      leftOut.push({ name: `(tool ${index + 1})`, reason: "it has no name" });
      continue;
    }
    if (name.length > MAX_NAME_CHARS) {
      leftOut.push({ name: `${name.slice(0, 40)}…`, reason: `its name is longer than ${MAX_NAME_CHARS} characters` });
      continue;
    }
    if (seen.has(name)) {
      leftOut.push({ name, reason: "the server lists a tool of that name twice; the first is used" });
      continue;
    }
    seen.add(name);
    if (tools.length >= MAX_TOOLS_PER_SERVER) {
      beyond++;
      continue;
    }
    const problem = inputSchemaProblem(record.inputSchema);
    if (problem) {
      leftOut.push({ name, reason: `its input schema is not valid JSON Schema: ${problem}` });
      continue;
    }
    const description = typeof record.description === "string" ? record.description : "";
    tools.push({
      name,
      description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…` : description,
      inputSchema: record.inputSchema as Record<string, unknown>,
      hints: hintsOf(record.annotations),
    });
  }
  if (beyond > 0) leftOut.push({ name: `${beyond} more`, reason: `the server offers more than ${MAX_TOOLS_PER_SERVER} tools; bosun takes the first ${MAX_TOOLS_PER_SERVER}` });
  return { tools, leftOut };
}

function hintsOf(annotations: unknown): ToolHints {
  if (typeof annotations !== "object" || annotations === null) return {};
  const { readOnlyHint, destructiveHint } = annotations as Record<string, unknown>;
  return { ...(typeof readOnlyHint === "boolean" ? { readOnlyHint } : {}), ...(typeof destructiveHint === "boolean" ? { destructiveHint } : {}) };
}
