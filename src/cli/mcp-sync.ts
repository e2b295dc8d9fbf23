import { UserError } from "../kernel/errors.js";
import type { McpSyncFlags } from "./mcp.js";
import type { Output } from "./output.js";

// In progress (issue 17).
export async function mcpSyncAction(_flags: McpSyncFlags, _output: Output): Promise<void> {
  throw new UserError("bosun mcp sync is not built yet");
}
