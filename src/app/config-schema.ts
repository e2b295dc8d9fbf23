import { z } from "zod";
import { defaultModelSchema, disabledProvidersSchema, policyConfigSchema, providersConfigSchema } from "../catalog/config-schema.js";
import { agentsConfigSchema } from "../runtimes/agents-config-schema.js";
import { permissionsSchema, secretsSchema } from "../agent/approval/permissions-schema.js";
import { sandboxConfigSchema } from "../agent/sandbox/sandbox-config-schema.js";
import { subagentsConfigSchema } from "../agent/subagents/config-schema.js";
import { installConfigSchema } from "../install/install-config-schema.js";

/** Plugin names are folder names: lower-case letters, digits, `.`, `_` and `-`. */
export const pluginNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "use lower-case letters, digits, '.', '_' or '-'");

const pluginSettingsSchema = z
  .object({
    /** `false` turns the plugin off: its extensions and catalog effects are gone. */
    enabled: z.boolean().optional(),
  })
  .strict();

/**
 * `bosun.json`, global (config folder) and per project. Its objects are strict so that a key it
 * does not know (a typo, a setting of another version) is reported instead of silently ignored:
 * `checkConfigDocument` turns those reports into warnings with a line and a "did you mean", and
 * leaves the key out; only a wrong value of a known key is an error. Each subsystem adds its own
 * section here.
 */
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    plugins: z.record(pluginNameSchema, pluginSettingsSchema).optional(),
    /** Headless defaults per coding agent (`bosun agents`). */
    agents: agentsConfigSchema.optional(),
    /** Providers added to the catalog or merged over models.dev's (see the catalog section of the README). */
    providers: providersConfigSchema.optional(),
    /** The default model, `provider/model`. */
    model: defaultModelSchema.optional(),
    /** Providers listed but switched off. */
    disabled_providers: disabledProvidersSchema.optional(),
    /** Allow/deny statements; the user's own file outranks a project's. */
    policy: policyConfigSchema.optional(),
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
  })
  .strict();

export type BosunConfig = z.infer<typeof configSchema>;
