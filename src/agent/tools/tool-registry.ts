import { jsonSchema, tool, zodSchema, type JSONSchema7, type ToolSet } from "ai";
import type { AgentTool } from "./tool.js";

/**
 * The tools one agent may use. Not a global: each loop gets its own, and a sub-agent gets a
 * filtered copy (`without`). The model sees each tool's JSON Schema, computed once per tool; the
 * tools have no `execute`, so the SDK only reports calls and the loop decides whether and how to
 * run them (approval, veto, redaction).
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AgentTool>();
  private modelToolSet: ToolSet | null = null;

  constructor(tools: AgentTool[] = []) {
    for (const entry of tools) this.register(entry);
  }

  register(entry: AgentTool): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(entry.name)) throw new Error(`invalid tool name ${JSON.stringify(entry.name)}`);
    if (this.tools.has(entry.name)) throw new Error(`a tool named ${entry.name} is already registered`);
    this.tools.set(entry.name, entry);
    this.modelToolSet = null;
  }

  remove(name: string): boolean {
    this.modelToolSet = null;
    return this.tools.delete(name);
  }

  get(name: string): AgentTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): AgentTool[] {
    return [...this.tools.values()];
  }

  /** A copy without the named tools (a sub-agent's registry). */
  without(...names: string[]): ToolRegistry {
    return new ToolRegistry(this.list().filter((entry) => !names.includes(entry.name)));
  }

  /** The tool definitions sent to the model. */
  modelTools(): ToolSet {
    if (!this.modelToolSet) {
      const set: ToolSet = {};
      for (const entry of this.tools.values()) set[entry.name] = tool({ description: entry.description, inputSchema: jsonSchema(toolJsonSchema(entry)) });
      this.modelToolSet = set;
    }
    return this.modelToolSet;
  }
}

const jsonSchemas = new WeakMap<AgentTool["inputSchema"], JSONSchema7>();

/**
 * The JSON Schema of a tool's input: its own (an MCP tool's), or its zod schema exactly as the AI
 * SDK converts zod for the providers, converted once per schema: sub-agents' registries are
 * copies holding the same tools.
 */
export function toolJsonSchema(entry: AgentTool): JSONSchema7 {
  if (entry.jsonSchema) return entry.jsonSchema;
  let schema = jsonSchemas.get(entry.inputSchema);
  if (!schema) {
    schema = zodSchema(entry.inputSchema).jsonSchema as JSONSchema7;
    jsonSchemas.set(entry.inputSchema, schema);
  }
  return schema;
}
