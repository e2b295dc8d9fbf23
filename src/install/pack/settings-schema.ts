import { z } from "zod";
import { SECRET_ENV_NAME } from "../../kernel/redact/secrets.js";
import { OPAQUE_RUN } from "../../runtimes/kit/agent-message.js";
import { PackError } from "./pack-error.js";
import { ENV_REFERENCE } from "./settings-names.js";

/** A long opaque run (a key, a token, a JWT part): the shape bosun redacts from agent CLIs' output. */
const KEY_SHAPE = new RegExp(OPAQUE_RUN.source);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Claude Code's permission rules: a tool name, optionally with a specifier in parentheses. */
const PERMISSION_RULE = /^[A-Za-z_][A-Za-z0-9_:-]*(\(.*\))?$/s;

const rules = z.array(z.string().min(1).max(1024).regex(PERMISSION_RULE, "use a permission rule such as Bash(git status:*) or Read(./docs/**)")).max(500);

/**
 * `pack.json` `settings`: runtime settings the pack adds, as structured edits each runtime's
 * config contract merges (a runtime without a place for one skips it with a note).
 */
export const packSettingsSchema = z
  .object({
    /** The status line: a command the runtime runs and shows the first line of. */
    statusLine: z
      .object({
        command: z.string().min(1).max(4096),
        padding: z.number().int().min(0).max(20).optional(),
        /** A hook of the pack whose folder `{hook-dir}` in the command names. */
        hook: z.string().min(1).max(64).optional(),
      })
      .strict()
      .optional(),
    /** Permission rules added to the runtime's lists (entries already there stay the user's). */
    permissions: z.object({ allow: rules.optional(), deny: rules.optional(), ask: rules.optional() }).strict().optional(),
    /** Environment variables the runtime sets for its sessions; `{env:NAME}` refers to one of yours. */
    env: z.record(z.string().regex(ENV_NAME, "use a variable name: letters, digits and '_', not starting with a digit"), z.string().max(4096)).optional(),
  })
  .strict();

export type PackSettings = z.infer<typeof packSettingsSchema>;

/**
 * The variables a status line command may use. `{pack-dir}` and `{config-dir}` join this list
 * where the hook commands get them (their values reach `buildDesiredSettings` as `values`).
 */
export const STATUS_LINE_PLACEHOLDERS: readonly string[] = ["{hook-dir}", "{pack-dir}", "{config-dir}"];

/**
 * A value a pack must not carry in clear: one of a variable named like a credential
 * (`API_KEY`, `*_TOKEN`…), or shaped like a key (a long opaque run). `{env:NAME}` is a reference,
 * never a secret.
 */
export function secretProblem(name: string, value: string): string | null {
  if (ENV_REFERENCE.test(value) || value === "") return null;
  if (SECRET_ENV_NAME.test(name) || KEY_SHAPE.test(value)) return `looks like a secret; a pack must not carry one: write {env:${name}} to use the variable of that name from the user's environment`;
  return null;
}

/**
 * Checks what the schema cannot: no env value that looks like a secret, and a status line's
 * `hook` names a hook of the pack. One `PackError` naming `pack.json` and the field.
 */
export function checkPackSettings(packFile: string, settings: PackSettings | undefined, hooks: readonly string[], hasSupportFiles: boolean): void {
  if (!settings) return;
  for (const [name, value] of Object.entries(settings.env ?? {})) {
    const problem = secretProblem(name, value);
    if (problem) throw new PackError(packFile, problem, null, `settings.env.${name}`);
  }
  const line = settings.statusLine;
  for (const match of line?.command.matchAll(/\{[a-z]+(?:-[a-z]+)+\}/g) ?? []) {
    if (!STATUS_LINE_PLACEHOLDERS.includes(match[0])) throw new PackError(packFile, `unknown placeholder ${match[0]} (use ${STATUS_LINE_PLACEHOLDERS.join(" or ")})`, null, "settings.statusLine.command");
  }
  if (line?.hook !== undefined && !hooks.includes(line.hook)) throw new PackError(packFile, `names hook ${line.hook}, which artifacts.hooks does not list`, null, "settings.statusLine.hook");
  if (line && line.command.includes("{pack-dir}") && !hasSupportFiles) throw new PackError(packFile, "uses {pack-dir} but the pack has no files/ folder (its support files)", null, "settings.statusLine.command");
  if (line && line.command.includes("{hook-dir}") && line.hook === undefined) throw new PackError(packFile, "uses {hook-dir}; name the hook whose folder it means in settings.statusLine.hook", null, "settings.statusLine.command");
}
