import { z } from "zod";
import { catalogConfigSchema } from "../catalog/config-schema.js";
import { agentsConfigSchema } from "../runtimes/agents-config-schema.js";
import { permissionsSchema, secretsSchema } from "../agent/approval/permissions-schema.js";
import { sandboxConfigSchema } from "../agent/sandbox/sandbox-config-schema.js";
import { subagentsConfigSchema } from "../agent/subagents/config-schema.js";
import { installConfigSchema } from "../install/install-config-schema.js";
import { mcpConfigSchema } from "../mcp/config-schema.js";

/**
 * `bosun.json`, global (config folder) and per project. Its objects are strict so that a key it
 * does not know (a typo, a setting of another version) is reported instead of silently ignored:
 * `checkConfigDocument` turns those reports into warnings with a line and a "did you mean", and
 * leaves the key out; only a wrong value of a known key is an error. Each subsystem owns its
 * section (and its schema); they are put together here, in the order `bosun config` documents them.
 */
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    plugins: catalogConfigSchema.shape.plugins,
    /** Headless defaults per coding agent (`bosun agents`). */
    agents: agentsConfigSchema.optional(),
    providers: catalogConfigSchema.shape.providers,
    model: catalogConfigSchema.shape.model,
    disabled_providers: catalogConfigSchema.shape.disabled_providers,
    policy: catalogConfigSchema.shape.policy,
    /** The agent's approval rules (`bosun run`). */
    permissions: permissionsSchema.optional(),
    /** Environment variables whose values are redacted from everything the agent sees or writes. */
    secrets: secretsSchema.optional(),
    /** How the agent's tool processes are contained (bubblewrap), and the limits of their output. */
    sandbox: sandboxConfigSchema.optional(),
    /** Sub-agents of the agent (`agent` tool): depth limit and how many run at once. */
    subagents: subagentsConfigSchema.optional(),
    /** `bosun install`: limits on the packs it reads. */
    install: installConfigSchema.optional(),
    /** MCP servers, by name: synced into every agent with MCP (`bosun mcp sync`) and used by `bosun run`. */
    mcp: mcpConfigSchema.optional(),
  })
  .strict();

export type BosunConfig = z.infer<typeof configSchema>;
