import { z } from "zod";
import { MCP_NAME_RULE, MCP_SERVER_NAME, mcpServerSchema, serverSecretProblem } from "./server-schema.js";

/**
 * `bosun.json` `mcp`: your MCP servers by name (global and per project; a project's entry of the
 * same name takes the place of the global one). `bosun mcp sync` writes them into every agent
 * that has MCP; `bosun run` gives their tools to the model. An entry that holds a secret in clear
 * is an error: env values and headers only refer to secrets.
 */
export const mcpConfigSchema = z.record(z.string().regex(MCP_SERVER_NAME, MCP_NAME_RULE), mcpServerSchema.superRefine((server, ctx) => {
  const problem = serverSecretProblem(server);
  if (!problem) return;
  // `env.API_KEY: looks like…`: the issue goes on the value itself, so the error names mcp.<name>.env.API_KEY.
  const [field = "", ...message] = problem.split(": ");
  const dot = field.indexOf(".");
  ctx.addIssue({ code: "custom", message: message.join(": "), path: dot === -1 ? [field] : [field.slice(0, dot), field.slice(dot + 1)] });
}));

export type McpConfig = z.infer<typeof mcpConfigSchema>;
