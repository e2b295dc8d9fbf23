import { createAskUserTool } from "./ask-user.js";
import { createBashTool, localProcessOperations, type ProcessOperations } from "./bash.js";
import { createEditTool } from "./edit.js";
import { localFileOperations, type FileOperations } from "./file-operations.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { createPlanTool } from "./plan.js";
import { createReadTool } from "./read.js";
import type { AgentTool } from "./tool.js";
import { createWriteTool } from "./write.js";

export const BUILTIN_TOOL_NAMES = ["read", "write", "edit", "glob", "grep", "bash", "ask_user", "plan"] as const;

/** bosun's built-in tools, working on the given file system and process runner (local by default). */
export function builtinTools(operations: { files?: FileOperations; processes?: ProcessOperations } = {}): AgentTool[] {
  const files = operations.files ?? localFileOperations;
  return [
    createReadTool(files),
    createWriteTool(files),
    createEditTool(files),
    createGlobTool(files),
    createGrepTool(files),
    createBashTool(operations.processes ?? localProcessOperations),
    createAskUserTool(),
    createPlanTool(),
  ];
}
