import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Redactor } from "../../kernel/redact/secrets.js";
import type { ToolAnswer } from "./tool.js";

/**
 * A tool's answer as MCP carries it: the short text first, then the same data as JSON text (for
 * callers that read only text content, as the MCP spec asks of tools with structured content),
 * and the data as structured content. Everything goes through the redactor on its way out: the
 * answers hold no secret by construction, and a value the redactor knows is never sent anyway.
 */
export function answerResult(answer: ToolAnswer, redactor: Redactor): CallToolResult {
  const data = redactor.deep(answer.data);
  return {
    content: [
      { type: "text", text: redactor.text(answer.text) },
      { type: "text", text: JSON.stringify(data, null, 2) },
    ],
    structuredContent: data,
    ...(answer.isError ? { isError: true } : {}),
  };
}

/** A failed call: one line, as bosun prints an error at the CLI edge. */
export function errorResult(line: string, redactor: Redactor): CallToolResult {
  return { content: [{ type: "text", text: redactor.text(line) }], isError: true };
}
