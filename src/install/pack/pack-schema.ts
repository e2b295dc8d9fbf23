import { z } from "zod";
import { HOOK_EVENTS } from "../../runtimes/kit/install-types.js";
import { ARTIFACT_NAME, PACK_NAME, SEMVER } from "./pack-names.js";
import { packSettingsSchema } from "./settings-schema.js";
import { MCP_NAME_RULE, MCP_SERVER_NAME } from "../../mcp/server-schema.js";

const artifactName = z.string().regex(ARTIFACT_NAME, "use 1-64 lower-case letters, digits, '-' and single dots between parts, starting with a letter or digit");

export const packJsonSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(PACK_NAME, "use lower-case letters, digits, '.', '_' or '-'"),
    version: z.string().regex(SEMVER, "use a semantic version such as 1.2.0"),
    description: z.string().max(1024).optional(),
    artifacts: z
      .object({
        skills: z.array(artifactName).optional(),
        commands: z.array(artifactName).optional(),
        agents: z.array(artifactName).optional(),
        hooks: z.array(artifactName).optional(),
        /** MCP servers, each `mcp/<name>.json` (src/mcp/server-schema.ts), written into every agent with MCP. */
        mcp: z.array(z.string().regex(MCP_SERVER_NAME, MCP_NAME_RULE)).optional(),
      })
      .strict(),
    /** Pack files (globs, relative to the pack) rendered with `{{…}}` values at install time. */
    templates: z.array(z.string().min(1)).optional(),
    /** Runtime settings the pack adds (settings-schema.ts). */
    settings: packSettingsSchema.optional(),
  })
  .strict();
export type PackJson = z.infer<typeof packJsonSchema>;

const tools = z.union([z.string(), z.array(z.string())]);

/** Frontmatter of `skills/<name>/SKILL.md` (the Agent Skills keys). */
export const skillFrontmatterSchema = z
  .object({
    name: artifactName,
    description: z.string().min(1).max(1024),
    license: z.string().optional(),
    compatibility: z.string().max(500).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    "allowed-tools": tools.optional(),
  })
  .strict();

/** Frontmatter of `commands/<name>.md`. */
export const commandFrontmatterSchema = z
  .object({
    description: z.string().min(1).max(1024),
    "argument-hint": z.string().optional(),
    "allowed-tools": tools.optional(),
    model: z.string().optional(),
  })
  .strict();

/** Frontmatter of `agents/<name>.md`. */
export const agentFrontmatterSchema = z
  .object({
    name: artifactName.optional(),
    description: z.string().min(1).max(1024),
    tools: tools.optional(),
    model: z.string().optional(),
  })
  .strict();

/** `hooks/<name>.json`: a declarative hook (an event and a command). */
export const hookSchema = z
  .object({
    event: z.enum(HOOK_EVENTS as [string, ...string[]]),
    command: z.string().min(1).max(4096),
    /** Seconds. */
    timeout: z.number().int().min(1).max(600).optional(),
    matcher: z.string().optional(),
    description: z.string().optional(),
  })
  .strict();

const migrationSteps = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["rename-command", "rename-skill", "rename-agent"]), from: artifactName, to: artifactName }).strict(),
  z.object({ type: z.enum(["retire-command", "retire-skill", "retire-agent", "retire-hook"]), name: artifactName }).strict(),
  z.object({ type: z.literal("remove-empty-dir"), surface: z.enum(["skills", "commands", "agents", "hooks"]), path: z.string().min(1) }).strict(),
  z
    .object({
      type: z.literal("retire-file"),
      surface: z.enum(["skills", "commands", "agents", "hooks"]),
      path: z.string().min(1),
      sha256: z.array(z.string().regex(/^[0-9a-f]{64}$/)).min(1),
    })
    .strict(),
  /** The pack takes the place of pack `from` in every folder that has it (migrations/succeed-pack.ts). */
  z.object({ type: z.literal("succeed-pack"), from: z.string().regex(PACK_NAME, "name a pack: lower-case letters, digits, '.', '_' or '-'") }).strict(),
]);
export type PackMigrationStep = z.infer<typeof migrationSteps>;

/** `migrations/<file>.json`: a pack migration, all data (its checksum covers every field). */
export const packMigrationSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/),
    title: z.string().min(1),
    description: z.string().min(1),
    introducedIn: z.string().min(1),
    runtimes: z.array(z.string().min(1)).min(1, "list at least one runtime, or leave runtimes out for all").optional(),
    scopes: z.array(z.enum(["global", "local"])).min(1),
    destructive: z.boolean(),
    steps: z.array(migrationSteps).min(1),
  })
  .strict()
  // The succeeded pack's files are moved and retired: the record must say so.
  .refine((record) => record.destructive || !record.steps.some((step) => step.type === "succeed-pack"), { path: ["destructive"], message: "its succeed-pack step moves and removes the old pack's files, so it must say destructive: true" });
export type PackMigrationJson = z.infer<typeof packMigrationSchema>;
