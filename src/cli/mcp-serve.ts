import { UserError } from "../kernel/errors.js";
import type { Output } from "./output.js";

// In progress (issue 17): replaced by bosun's MCP server.
export async function mcpServeAction(_flags: Record<string, never>, _output: Output): Promise<void> {
  throw new UserError("bosun mcp serve is not built yet");
}
