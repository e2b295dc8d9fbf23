import { z } from "zod";
import { ToolInputError } from "./errors.js";
import type { ServerTool } from "./tool.js";

/**
 * A tool's arguments checked against its schema, or a ToolInputError in one line: the tool, the
 * first argument that is wrong and what it takes (`catalog_search: limit: expected a whole
 * number from 1 to 200`), and how many more problems there are. A caller (often a model) fixes
 * one thing at a time; a list of zod issues on several lines helps neither.
 */
export function checkToolInput<I>(tool: ServerTool<I>, args: unknown): I {
  const parsed = tool.input.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const [first, ...more] = parsed.error.issues;
  const where = first && first.path.length > 0 ? `${first.path.map(String).join(".")}: ` : "";
  const what = (first?.message ?? "invalid arguments").replace(/^Invalid (input|option): /, "").replace(/\s+/g, " ");
  const rest = more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? "" : "s"})` : "";
  throw new ToolInputError(`${tool.name}: ${where}${what}${rest}`);
}

/** The JSON Schema a caller is shown for a tool's input (what the tool checks, as zod converts it). */
export function inputJsonSchema(tool: ServerTool): { type: "object"; [key: string]: unknown } {
  const schema = z.toJSONSchema(tool.input, { io: "input", target: "draft-7" }) as Record<string, unknown>;
  return { ...schema, type: "object" };
}
