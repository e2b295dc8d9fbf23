import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ApprovalMode } from "../../agent/approval/approval-policy.js";
import type { Boot } from "../start.js";

/** What every tool of bosun's MCP server works with, for the life of the server. */
export interface ServeContext {
  boot: Boot;
  /** The folder the server was started in: the project its tools look at, and where delegated tasks work. */
  cwd: string;
  /** The approval mode of delegated tasks: the server's flags, else bosun.json `permissions.mode`, else ask. */
  mode: ApprovalMode;
}

/** What one call of a tool gets from the server besides its input. */
export interface CallContext {
  /** Aborted when the caller cancels the request, or the server stops. */
  signal: AbortSignal;
  /** One line of progress, sent when the caller asked for progress (a progressToken); nothing otherwise. */
  progress(message: string): void;
}

/**
 * What a tool answers: `data` is the structured content (the same JSON the matching CLI command
 * prints), `text` a short summary a person or a model reads first. `isError`: the tool ran and
 * its answer is a failure (every delegated task failed).
 */
export interface ToolAnswer {
  data: Record<string, unknown>;
  text: string;
  isError?: boolean;
}

/** One tool of bosun's MCP server: its name and description as the caller sees them, its input schema, and what it does. */
export interface ServerTool<I = any> {
  name: string;
  title: string;
  description: string;
  /** Checked before `call` (tool-input.ts); also the JSON Schema the caller is shown. */
  input: z.ZodType<I>;
  annotations: ToolAnnotations;
  call(input: I, serve: ServeContext, call: CallContext): Promise<ToolAnswer>;
}
