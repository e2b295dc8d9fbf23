import type { JSONSchema7 } from "ai";
import { argumentSchema } from "../../mcp/client/argument-schema.js";
import { McpCallError } from "../../mcp/client/errors.js";
import type { McpToolEntry } from "../../mcp/client/server-pool.js";
import type { McpToolOutput } from "../../mcp/client/tool-result.js";
import { oneLine } from "../session/list.js";
import { ToolError, type AgentTool } from "./tool.js";

/** A result this short and on one line is shown whole as the call's summary; a longer one by its size. */
const SHOWN_RESULT_CHARS = 80;

/**
 * A tool of an MCP server as one of the agent's tools: named as the model knows it
 * (`<server>__<tool>`), with the server's own input schema (sent to the model as it is, and
 * checked before the call), and its approval: `read` when the tool says it only reads, `execute`
 * otherwise, with its rule in `mcp.<server>` of bosun.json. A call goes to the server's
 * connection, which the sub-agents share: a sub-agent's registry holds the same tool.
 */
export function mcpAgentTool(entry: McpToolEntry): AgentTool<Record<string, unknown>> {
  const { connection, tool, modelName, approval } = entry;
  return {
    name: modelName,
    description: tool.description.trim() !== "" ? tool.description : `The tool ${tool.name} of the MCP server ${connection.name}.`,
    inputSchema: argumentSchema(tool.inputSchema),
    // Every model API wants the properties of an object's schema, even none.
    jsonSchema: { ...tool.inputSchema, properties: tool.inputSchema.properties ?? {} } as JSONSchema7,
    access: approval.risk,
    approvalRule: {
      setting: approval.setting,
      ...(approval.policy ? { policy: approval.policy } : {}),
      ...(approval.policySetting ? { policySetting: approval.policySetting } : {}),
    },
    describe: (input) => `${modelName} ${oneLine(JSON.stringify(input), 100)}`,
    async execute(input, context) {
      let output: McpToolOutput;
      try {
        output = await connection.call(tool.name, input, context.signal);
      } catch (error) {
        if (error instanceof McpCallError) throw new ToolError(error.message);
        throw error;
      }
      return { output: output.text, isError: output.isError, summary: resultSummary(output) };
    },
  };
}

/** The line the user sees under the call: a short result itself, or the size of a long one (and of what was cut). */
function resultSummary(output: McpToolOutput): string {
  const line = oneLine(output.text, SHOWN_RESULT_CHARS + 1);
  const shown = !output.text.includes("\n") && line.length <= SHOWN_RESULT_CHARS ? line : `${output.text.length.toLocaleString("en-US")} characters`;
  const cut = output.cut > 0 ? ` (${output.cut.toLocaleString("en-US")} more cut by the server's maxOutput)` : "";
  return output.isError ? `the tool failed: ${shown}` : `${shown}${cut}`;
}
