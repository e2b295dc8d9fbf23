import { UserError } from "../kernel/errors.js";
import type { Output } from "./output.js";

export interface McpSyncFlags {
  runtime?: string[];
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
}

// In progress (issue 17).
export async function mcpSyncAction(_flags: McpSyncFlags, _output: Output): Promise<void> {
  throw new UserError("bosun mcp sync is not built yet");
}
