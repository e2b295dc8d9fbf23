import { UserError } from "../../kernel/errors.js";

/** A tool's arguments that do not fit its schema: one line naming the tool, the argument and what it takes. */
export class ToolInputError extends UserError {
  override name = "ToolInputError";
}

/** A call of a tool the server does not have. */
export class UnknownToolError extends UserError {
  override name = "UnknownToolError";
  constructor(
    readonly given: string,
    readonly available: readonly string[],
  ) {
    super(`bosun has no MCP tool ${JSON.stringify(given.slice(0, 60))}; its tools are ${available.join(", ")}`);
  }
}

/** `delegate` when `subagents.maxDepth` is 0: bosun's sub-agents are switched off. */
export class SubagentsOffError extends UserError {
  override name = "SubagentsOffError";
  constructor() {
    super("delegate runs tasks on bosun's sub-agents, and subagents.maxDepth is 0 in bosun.json (switched off); set it to 1 or more to delegate");
  }
}
