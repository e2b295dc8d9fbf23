import { describe, expect, it } from "vitest";
import { toolJsonSchema, ToolRegistry } from "../../../src/agent/tools/tool-registry.js";
import { createAgentTool } from "../../../src/agent/tools/agent.js";
import { BUILTIN_TOOL_NAMES, builtinTools } from "../../../src/agent/tools/builtin.js";

// The JSON Schemas the model sees are part of bosun's contract with it: any change shows up here.
describe("tool schemas", () => {
  const tools = builtinTools();

  it("has exactly the built-in tools, in order", () => {
    expect(tools.map((tool) => tool.name)).toEqual([...BUILTIN_TOOL_NAMES]);
  });

  for (const tool of tools) {
    it(`${tool.name}: JSON Schema and description`, () => {
      expect({ description: tool.description, access: tool.access, schema: toolJsonSchema(tool) }).toMatchSnapshot();
    });
  }

  // The agent tool is bound to the agent that owns it; its description says whether its sub-agents may delegate again.
  for (const nested of [false, true]) {
    it(`agent (${nested ? "nested" : "at the depth limit"}): JSON Schema and description`, () => {
      const tool = createAgentTool({ nested, run: async () => ({ output: "" }) });
      expect({ description: tool.description, access: tool.access, schema: toolJsonSchema(tool) }).toMatchSnapshot();
    });
  }

  it("sends the same schemas to the model, without execute (the loop runs the tools)", async () => {
    const set = new ToolRegistry(tools).modelTools();
    expect(Object.keys(set)).toEqual([...BUILTIN_TOOL_NAMES]);
    for (const tool of tools) {
      const entry = set[tool.name]!;
      expect(entry.execute).toBeUndefined();
      expect(await (entry.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(toolJsonSchema(tool));
    }
  });

  it("a registry copy can leave tools out (a sub-agent's registry)", () => {
    const registry = new ToolRegistry(tools);
    expect(registry.without("ask_user", "plan").names()).toEqual(["read", "write", "edit", "glob", "grep", "bash"]);
    expect(registry.names()).toHaveLength(8);
    expect(() => registry.register(tools[0]!)).toThrow("a tool named read is already registered");
  });
});
