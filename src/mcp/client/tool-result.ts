/** A tool's result as the model reads it: text, and whether the tool said it failed. */
export interface McpToolOutput {
  text: string;
  isError: boolean;
  /** Characters of the result left out by the output cap (0 when none were). */
  cut: number;
}

/** A result that is not a `CallToolResult`: the server's bug, reported as the call's failure. */
export class InvalidToolResultError extends Error {
  override name = "InvalidToolResultError";
}

/**
 * A tool result (`CallToolResult`) as text for the model: its text parts joined, each other part
 * described in one bracketed line (an image's type and size, an embedded text resource with its
 * text, a binary one by its size, a link by its address), so nothing is dropped without the model
 * knowing; structured content, when the result has nothing else, as JSON. `isError: true` makes
 * it a failed call. The text is cut at `maxOutput` characters with a note saying how much is
 * missing. Anything that is not a result throws `InvalidToolResultError`, naming what is wrong.
 */
export function toolResultText(result: unknown, maxOutput: number): McpToolOutput {
  if (!isObject(result)) throw new InvalidToolResultError("the result is not an object");
  const content = result.content ?? [];
  if (!Array.isArray(content)) throw new InvalidToolResultError("its content is not a list of parts");
  if (result.isError !== undefined && typeof result.isError !== "boolean") throw new InvalidToolResultError("its isError is not true or false");
  const parts = content.map((part, index) => partText(part, index));
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const whole = parts.join("\n");
  const text = whole === "" ? "(the tool returned nothing)" : whole;
  return { ...capped(text, maxOutput), isError: result.isError === true };
}

/** The text of one content part. */
function partText(part: unknown, index: number): string {
  const bad = (what: string) => new InvalidToolResultError(`part ${index + 1} of its content ${what}`);
  if (!isObject(part) || typeof part.type !== "string") throw bad("has no type");
  switch (part.type) {
    case "text":
      if (typeof part.text !== "string") throw bad("is text without a text");
      return part.text;
    case "image":
    case "audio":
      return `[${part.type} (${mime(part)}, ${size(base64Bytes(part.data))}) not shown: bosun gives the model a tool's text only]`;
    case "resource": {
      const resource = part.resource;
      if (!isObject(resource) || typeof resource.uri !== "string") throw bad("is a resource without a uri");
      if (typeof resource.text === "string") return `[resource ${resource.uri} (${mime(resource)})]\n${resource.text}`;
      return `[resource ${resource.uri} (${mime(resource)}, ${size(base64Bytes(resource.blob))}) not shown: it is binary]`;
    }
    case "resource_link": {
      if (typeof part.uri !== "string") throw bad("is a resource link without a uri");
      const about = typeof part.description === "string" && part.description !== "" ? `: ${part.description}` : "";
      return `[resource link ${typeof part.name === "string" ? `${part.name} ` : ""}${part.uri} (${mime(part)})${about}]`;
    }
    default:
      return `[a part of type ${JSON.stringify(part.type).slice(0, 60)} not shown: bosun does not know it]`;
  }
}

/** At most `max` characters, with a note saying how many more there were. */
function capped(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const cut = text.length - max;
  return { text: `${text.slice(0, max)}\n… [bosun cut this result at ${max.toLocaleString("en-US")} characters (the server's maxOutput): ${cut.toLocaleString("en-US")} more of its ${text.length.toLocaleString("en-US")} were not shown]`, cut };
}

function mime(part: Record<string, unknown>): string {
  return typeof part.mimeType === "string" && part.mimeType !== "" ? part.mimeType.slice(0, 100) : "no type given";
}

/** The size of base64 data, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
