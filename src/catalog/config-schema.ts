import { z } from "zod";
import { POLICY_ACTIONS } from "./policy.js";
import { hasWildcard } from "./wildcard.js";

/** Provider ids as models.dev spells them: letters, digits, `.`, `_`, `-`. */
const providerIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "use letters, digits, '.', '_' or '-'");
/** Model ids may hold `/` and `:` (e.g. `openai/gpt-5`, `qwen3:8b`), but no spaces or control characters. */
const modelIdSchema = z.string().regex(/^[^\s\u0000-\u001f]+$/, "a model id has no spaces");
const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name uses letters, digits and '_'");

const modelEntrySchema = z
  .object({
    name: z.string().min(1).optional(),
    contextLimit: z.number().int().positive().optional(),
    outputLimit: z.number().int().positive().optional(),
    toolCall: z.boolean().optional(),
    reasoning: z.boolean().optional(),
  })
  .strict();

/**
 * A provider in `bosun.json`: merged over the models.dev provider of the same id, or a provider
 * of its own (a local server needs only `baseURL` and its models).
 */
const providerEntrySchema = z
  .object({
    name: z.string().min(1).optional(),
    /** The AI SDK package that speaks its API, e.g. `@ai-sdk/openai-compatible`. */
    npm: z.string().regex(/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+(\/[a-z0-9._-]+)*$/, "use an npm package name such as @ai-sdk/openai-compatible").optional(),
    baseURL: z
      .url({ protocol: /^https?$/, message: "use an http:// or https:// URL" })
      // A key written into the URL would be shown wherever the URL is (errors, --verbose, logs).
      .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), { message: "put no user or password in the URL; use apiKey, headers, or bosun auth set" })
      .optional(),
    /** A key written into the config file; `bosun auth set` or an environment variable keeps it out of files. */
    apiKey: z.string().min(1).optional(),
    env: z.array(envNameSchema).optional(),
    headers: z.record(z.string().min(1), z.string()).optional(),
    models: z.record(modelIdSchema, modelEntrySchema).optional(),
  })
  .strict();

export const providersConfigSchema = z.record(providerIdSchema, providerEntrySchema);

/** `provider/model`; the model part may itself contain `/`. */
export const defaultModelSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/, "use provider/model, e.g. anthropic/claude-sonnet-4-5");

export const disabledProvidersSchema = z.array(providerIdSchema);

const policyStatementSchema = z
  .object({
    action: z
      .string()
      .min(1)
      .refine((action) => hasWildcard(action) || (POLICY_ACTIONS as readonly string[]).includes(action), {
        message: `unknown action; use ${POLICY_ACTIONS.join(" or ")} (wildcards allowed)`,
      }),
    effect: z.enum(["allow", "deny"]),
    resource: z.string().min(1),
  })
  .strict();

/** Statements in the order written; see `policyFromDocuments` for how files combine. */
export const policyConfigSchema = z.array(policyStatementSchema);

/** Plugin names are folder names: lower-case letters, digits, `.`, `_` and `-`. */
export const pluginNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "use lower-case letters, digits, '.', '_' or '-'");

const pluginSettingsSchema = z
  .object({
    /** `false` turns the plugin off: its extensions and catalog effects are gone. */
    enabled: z.boolean().optional(),
  })
  .strict();

/** The part of `bosun.json` the catalog owns; app/config-schema.ts puts every subsystem's part together. */
export const catalogConfigSchema = z.object({
  plugins: z.record(pluginNameSchema, pluginSettingsSchema).optional(),
  /** Providers added to the catalog or merged over models.dev's (see the catalog section of the README). */
  providers: providersConfigSchema.optional(),
  /** The default model, `provider/model`. */
  model: defaultModelSchema.optional(),
  /** Providers listed but switched off. */
  disabled_providers: disabledProvidersSchema.optional(),
  /** Allow/deny statements; the user's own file outranks a project's. */
  policy: policyConfigSchema.optional(),
});

export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
export type ProvidersConfig = z.infer<typeof providersConfigSchema>;
export type ProviderConfig = z.infer<typeof providerEntrySchema>;
export type ModelConfig = z.infer<typeof modelEntrySchema>;
