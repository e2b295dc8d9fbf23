import { UserError } from "../kernel/errors.js";
import type { Output } from "./output.js";

// In progress (issue 17): replaced by the MCP client's list and test.
export async function mcpListAction(_flags: { json?: boolean }, _output: Output): Promise<void> {
  throw new UserError("bosun mcp list is not built yet");
}
export async function mcpTestAction(_name: string, _flags: { json?: boolean }, _output: Output): Promise<void> {
  throw new UserError("bosun mcp test is not built yet");
}
