import { record, shortLine, text } from "./external-events.js";

/** The argument that says most about a tool call, in the names the CLIs use. */
const TELLING_KEYS = ["command", "cmd", "file_path", "filePath", "path", "absolute_path", "pattern", "query", "url", "description", "prompt"];

/** A tool call in one line: the tool's most telling argument (its command, its file), else its arguments as JSON. */
export function toolDescription(tool: string, input: unknown): string {
  const args = record(input);
  for (const key of TELLING_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") return shortLine(value);
    if (Array.isArray(value) && value.every((part) => typeof part === "string")) return shortLine(value.join(" "));
  }
  const json = JSON.stringify(input ?? {});
  return json === "{}" ? tool : shortLine(json);
}

/** What a tool call's result says, in one line: its text, or the text parts of a content list. */
export function resultSummary(content: unknown): string {
  if (typeof content === "string") return shortLine(content, 200);
  if (Array.isArray(content)) return shortLine(content.map((part) => text(record(part).text)).join(" "), 200);
  return "";
}
