import { lstatSync, readFileSync, statSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../../kernel/config/config-error.js";
import { describeSchemaIssue, type SchemaIssue } from "../../kernel/config/config.js";
import { parseJsonc, type JsoncDocument } from "../../kernel/jsonc.js";
import { requireLazily } from "../../kernel/fs/require.js";
import { getInstallRuntime } from "../../runtimes/registry.js";
import type { HookEvent } from "../../runtimes/kit/install-types.js";
import { installedStatKey, packStatKey } from "../plan/classify.js";
import { scanText, type PathVarUse } from "../plan/path-vars.js";
import { isKnownTemplateName } from "../plan/template-vars.js";
import { lineOfKey, parseFrontmatter } from "./frontmatter.js";
import { checkExtraKeys, isSchemaKey, type FrontmatterKind } from "./frontmatter-keys.js";
import type { LoadCache } from "./load-cache.js";
import { PackError } from "./pack-error.js";
import {
  agentFrontmatterSchema,
  commandFrontmatterSchema,
  hookSchema,
  packJsonSchema,
  packMigrationSchema,
  skillFrontmatterSchema,
  type PackMigrationJson,
} from "./pack-schema.js";
import { checkPackSettings, type PackSettings } from "./settings-schema.js";
import { checkSize, decodeText, DEFAULT_MAX_PACK_FILE_BYTES, listedNames, listFiles, notePathVars, readText, type LoadContext, type PackFile } from "./pack-walk.js";
import { compileTemplate, type Template } from "./template.js";
import { mcpServerSchema, serverSecretProblem, type McpServer } from "../../mcp/server-schema.js";
import { placeholderProblem, placeholderUses } from "./mcp-placeholders.js";

export type { PackFile } from "./pack-walk.js";

export interface SkillArtifact {
  name: string;
  description: string;
  files: PackFile[];
  /** SKILL.md's frontmatter keys, in file order (a runtime that does not take one gets the file without it). */
  keys: string[];
}

export interface MarkdownArtifact {
  name: string;
  file: string;
  frontmatter: Record<string, unknown>;
  body: string;
  bodyTemplate: Template | null;
  /** The file's stat key (the rendered output depends only on it and the template values). */
  statKey: string;
  /** The whole file as in the pack (written as it is where every key passes, in bosun's canonical runtime). */
  source: string;
  /** Frontmatter keys beyond the canonical ones that some runtime knows (frontmatter-keys.ts), with their values. */
  extras: Record<string, unknown>;
  /** Every frontmatter key of the file, in file order (known or not). */
  keys: string[];
  pathVars: PathVarUse | null;
}

/** `mcp/<name>.json`: an MCP server the pack adds to every agent with MCP. */
export interface McpArtifact {
  name: string;
  file: string;
  server: McpServer;
}

export interface HookArtifact {
  name: string;
  file: string;
  event: HookEvent;
  command: string;
  timeout: number;
  matcher?: string;
  description?: string;
  /** Files shipped in `hooks/<name>/`, installed next to the hook's registration. */
  files: PackFile[];
}

/** A pack migration as shipped: its JSON record (all data) and the file it came from. */
export interface PackMigration {
  file: string;
  record: PackMigrationJson;
}

export interface LoadedPack {
  dir: string;
  name: string;
  version: string;
  description: string;
  skills: SkillArtifact[];
  commands: MarkdownArtifact[];
  agents: MarkdownArtifact[];
  hooks: HookArtifact[];
  /** MCP servers (`artifacts.mcp`, each `mcp/<name>.json`). */
  mcp: McpArtifact[];
  /** `pack.json` `settings`: the runtime settings the pack adds (empty: none). */
  settings: PackSettings;
  /** The support files (`files/`), relative to it, installed in the runtime's support folder for the pack. */
  files: PackFile[];
  migrations: PackMigration[];
  /** One line each, naming the file: frontmatter keys no runtime knows (left out). */
  warnings: string[];
  /**
   * Every path of the pack this load looked at (relative to the pack, `/`-separated) with its
   * `size:ctime:mtime:inode` taken before it was read or listed (null: absent). Unchanged keys
   * mean the same pack: a settled reinstall checks them instead of loading the pack.
   */
  watch: [string, string | null][];
}

/** Hook command placeholders: bosun's hook helper, the hook's own files, the pack's support folder, the runtime's folder. */
export const HOOK_PLACEHOLDERS = ["{bosun-hook}", "{hook-dir}", "{pack-dir}", "{config-dir}"] as const;
const DEFAULT_HOOK_TIMEOUT = 10;

export interface LoadPackOptions {
  /** The largest pack file accepted (`bosun.json` `install.max_pack_file_bytes`; default 64 MiB). */
  maxFileBytes?: number;
  /** What earlier loads parsed: files whose bytes are unchanged are not parsed again (load-cache.ts). */
  cache?: LoadCache;
}

/**
 * Reads and checks a pack folder: `pack.json`, every listed artifact, its frontmatter, its
 * templates and the pack's migrations. Anything wrong is one `PackError` naming the file (and
 * line and field when known), thrown before anything is installed.
 */
export function loadPack(dir: string, options: LoadPackOptions = {}): LoadedPack {
  const root = resolve(dir);
  const info = statOrNull(root);
  if (!info?.isDirectory()) throw new PackError(root, "not a pack folder (no such folder)");
  const packFile = join(root, "pack.json");
  const doc = readJsonDocument(packFile, "not a pack folder: pack.json is missing", options.maxFileBytes);
  const parsed = packJsonSchema.safeParse(doc.value);
  if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
  const json = parsed.data;
  const isTemplate = templateMatcher(json.templates ?? []);
  const ctx: LoadContext = { root, isTemplate, maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_PACK_FILE_BYTES, count: { files: 0 }, watch: new Map([["pack.json", doc.key]]), packDirUser: null, cache: options.cache ?? null, kept: { bytes: 0 } };
  const warnings: string[] = [];

  for (const [kind, names] of Object.entries(json.artifacts)) {
    const seen = new Set<string>();
    for (const name of names ?? []) {
      if (seen.has(name)) throw new PackError(packFile, `${name} is listed twice`, null, `artifacts.${kind}`);
      seen.add(name);
    }
  }
  // Codex installs commands as skills: a command and a skill of one name would be the same folder.
  for (const name of json.artifacts.commands ?? []) {
    if (json.artifacts.skills?.includes(name)) throw new PackError(packFile, `${name} is both a skill and a command; runtimes that install commands as skills would see one folder for both`, null, "artifacts.commands");
  }
  checkUnlisted(ctx, "skills", json.artifacts.skills ?? [], (entry) => entry);
  checkUnlisted(ctx, "commands", json.artifacts.commands ?? [], (entry) => entry.replace(/\.md$/, ""));
  checkUnlisted(ctx, "agents", json.artifacts.agents ?? [], (entry) => entry.replace(/\.md$/, ""));
  checkUnlisted(ctx, "hooks", json.artifacts.hooks ?? [], (entry) => entry.replace(/\.json$/, ""));
  checkUnlisted(ctx, "mcp", json.artifacts.mcp ?? [], (entry) => entry.replace(/\.json$/, ""));

  const skills = (json.artifacts.skills ?? []).map((name) => loadSkill(ctx, name, warnings));
  const commands = (json.artifacts.commands ?? []).map((name) => loadMarkdown(ctx, "commands", name, warnings));
  const agents = (json.artifacts.agents ?? []).map((name) => loadMarkdown(ctx, "agents", name, warnings));
  const files = loadSupportFiles(ctx);
  const hooks = (json.artifacts.hooks ?? []).map((name) => loadHook(ctx, name, files.length > 0));
  const mcp = (json.artifacts.mcp ?? []).map((name) => loadMcpServer(ctx, name, files.length > 0));
  if (ctx.packDirUser && files.length === 0) throw new PackError(ctx.packDirUser.file, "uses {pack-dir} but the pack has no files/ folder (its support files)", ctx.packDirUser.line);
  const migrations = loadMigrations(ctx);
  checkPackSettings(packFile, json.settings, json.artifacts.hooks ?? [], files.length > 0);
  return { dir: root, name: json.name, version: json.version, description: json.description ?? "", skills, commands, agents, hooks, mcp, settings: json.settings ?? {}, files, migrations, warnings, watch: [...ctx.watch] };
}

/** `files/`: every file under it, dot-files too (no listing needed). */
function loadSupportFiles(ctx: LoadContext): PackFile[] {
  const info = look(ctx, "files");
  if (!info) return [];
  if (!info.isDirectory()) throw new PackError(join(ctx.root, "files"), info.isSymbolicLink() ? "is a symlink; a pack holds real folders and files only" : "must be a folder of the pack's support files");
  return listFiles(ctx, "files", true);
}

/** The frontmatter keys outside the pack schema: checked against the key table, then left out of the schema check. */
function splitFrontmatter(kind: FrontmatterKind, data: Record<string, unknown>, file: string, text: string, warnings: string[]) {
  const { extras, warnings: found } = checkExtraKeys(kind, data, file, text);
  warnings.push(...found);
  const base = Object.fromEntries(Object.entries(data).filter(([key]) => isSchemaKey(kind, key)));
  return { base, extras };
}

/** What SKILL.md's bytes parse to (kept in the load cache). */
interface ParsedSkill {
  description: string;
  keys: string[];
  warnings: string[];
}

/** What a command's or agent's bytes parse to (kept in the load cache); its text is read every time (it is installed from it). */
interface ParsedMarkdown {
  template: boolean;
  frontmatter: Record<string, unknown>;
  /** Where the body starts in the text. */
  bodyStart: number;
  bodyTemplate: Template | null;
  extras: Record<string, unknown>;
  keys: string[];
  pathVars: PathVarUse | null;
  warnings: string[];
}

function loadSkill(ctx: LoadContext, name: string, warnings: string[]): SkillArtifact {
  const folder = join(ctx.root, "skills", name);
  const info = look(ctx, `skills/${name}`);
  if (!info?.isDirectory()) throw new PackError(folder, info?.isSymbolicLink() ? "is a symlink; a pack holds real folders and files only" : "is missing (listed in pack.json artifacts.skills)");
  const files = listFiles(ctx, `skills/${name}`);
  const skillFile = files.find((file) => file.rel === "SKILL.md");
  if (!skillFile) throw new PackError(join(folder, "SKILL.md"), "is missing: every skill needs a SKILL.md");
  const rel = `skills/${name}/SKILL.md`;
  const usable = (value: ParsedSkill | undefined): value is ParsedSkill => typeof value?.description === "string" && Array.isArray(value.keys) && Array.isArray(value.warnings);
  // The stat the walk just took of it (the same bytes as its file entry).
  const fileInfo = ctx.cache ? (ctx.cache.digests.statOf(ctx.root, rel) ?? lstatSync(skillFile.path)) : null;
  let parsed = fileInfo ? ctx.cache?.byStat<ParsedSkill>(ctx.root, "skill", rel, fileInfo) : undefined;
  if (!usable(parsed)) {
    const bytes = skillFile.loaded?.bytes ?? readFileSync(skillFile.path);
    const cached = fileInfo ? ctx.cache?.byBytes<ParsedSkill>(ctx.root, "skill", rel, fileInfo, bytes) : undefined;
    parsed = usable(cached?.value) ? cached.value : parseSkill(name, skillFile.path, decodeText(skillFile.path, bytes));
    if (cached && cached.value !== parsed) ctx.cache?.put(ctx.root, "skill", rel, cached.hash, parsed);
  }
  warnings.push(...parsed.warnings);
  return { name, description: parsed.description, files, keys: parsed.keys };
}

function parseSkill(name: string, file: string, text: string): ParsedSkill {
  const warnings: string[] = [];
  const { data } = parseFrontmatter(text, file);
  const { base } = splitFrontmatter("skill", data, file, text, warnings);
  const checked = skillFrontmatterSchema.safeParse(base);
  if (!checked.success) throw frontmatterError(file, text, checked.error.issues[0]);
  if (checked.data.name !== name) throw new PackError(file, `must equal the folder name "${name}"`, lineOfKey(text, "name"), "name");
  return { description: checked.data.description, keys: Object.keys(data), warnings };
}

function loadMarkdown(ctx: LoadContext, kind: "commands" | "agents", name: string, warnings: string[]): MarkdownArtifact {
  const rel = `${kind}/${name}.md`;
  const file = join(ctx.root, rel);
  const info = regularFile(ctx, rel, `listed in pack.json artifacts.${kind}`);
  const bytes = readFileSync(file);
  const text = decodeText(file, bytes);
  const template = ctx.isTemplate(rel);
  const cached = ctx.cache?.byBytes<ParsedMarkdown>(ctx.root, "markdown", rel, info, bytes);
  const usable = (value: ParsedMarkdown | undefined): value is ParsedMarkdown => value?.template === template && typeof value.bodyStart === "number" && Array.isArray(value.warnings) && Array.isArray(value.keys);
  const parsed = usable(cached?.value) ? cached.value : parseMarkdown(kind, name, file, text, template);
  if (cached && cached.value !== parsed) ctx.cache?.put(ctx.root, "markdown", rel, cached.hash, parsed);
  warnings.push(...parsed.warnings);
  const pathVars = notePathVars(ctx, file, parsed.pathVars);
  return { name, file, frontmatter: parsed.frontmatter, body: text.slice(parsed.bodyStart), bodyTemplate: parsed.bodyTemplate, statKey: packStatKey(info), source: text, extras: parsed.extras, keys: parsed.keys, pathVars };
}

function parseMarkdown(kind: "commands" | "agents", name: string, file: string, text: string, template: boolean): ParsedMarkdown {
  const warnings: string[] = [];
  const { data, body, bodyLine } = parseFrontmatter(text, file);
  const schema = kind === "commands" ? commandFrontmatterSchema : agentFrontmatterSchema;
  const { base, extras } = splitFrontmatter(kind === "commands" ? "command" : "agent", data, file, text, warnings);
  const checked = schema.safeParse(base);
  if (!checked.success) throw frontmatterError(file, text, checked.error.issues[0]);
  // A variant `<base>.<variant>.md` (gsd's `gsd-planner.compact.md`) may name itself as its base agent.
  const variantOf = name.includes(".") ? name.slice(0, name.indexOf(".")) : null;
  if (kind === "agents" && "name" in checked.data && checked.data.name !== undefined && checked.data.name !== name && checked.data.name !== variantOf) {
    throw new PackError(file, `must equal the file name "${name}"${variantOf ? ` (or "${variantOf}", for a variant of that agent)` : ""}`, lineOfKey(text, "name"), "name");
  }
  if (body.trim() === "") throw new PackError(file, `the ${kind === "commands" ? "command's prompt" : "agent's instructions"} (after the frontmatter) is empty`);
  const bodyTemplate = template ? compileTemplate(body, file, isKnownTemplateName, bodyLine) : null;
  return { template, frontmatter: checked.data, bodyStart: text.length - body.length, bodyTemplate, extras, keys: Object.keys(data), pathVars: scanText(text, file), warnings };
}

function loadHook(ctx: LoadContext, name: string, hasSupportFiles: boolean): HookArtifact {
  const file = join(ctx.root, "hooks", `${name}.json`);
  const doc = readJsonDocument(file, "is missing (listed in pack.json artifacts.hooks)", ctx.maxFileBytes);
  ctx.watch.set(`hooks/${name}.json`, doc.key);
  const parsed = hookSchema.safeParse(doc.value);
  if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
  const hook = parsed.data;
  // Every {lower-case-name} in a command is a placeholder; a shell's own ${name} is not one.
  for (const match of hook.command.matchAll(/(?<!\$)\{[a-z][a-z0-9-]*\}/g)) {
    if (!(HOOK_PLACEHOLDERS as readonly string[]).includes(match[0])) throw new PackError(file, `unknown placeholder ${match[0]} (use ${HOOK_PLACEHOLDERS.join(", ")})`, null, "command");
  }
  if (hook.command.includes("{pack-dir}") && !hasSupportFiles) throw new PackError(file, "uses {pack-dir} but the pack has no files/ folder (its support files)", null, "command");
  const folder = join(ctx.root, "hooks", name);
  const folderInfo = look(ctx, `hooks/${name}`);
  if (folderInfo && !folderInfo.isDirectory()) throw new PackError(folder, "must be a folder holding the hook's files");
  const files = folderInfo ? listFiles(ctx, `hooks/${name}`) : [];
  if (hook.command.includes("{hook-dir}") && files.length === 0) throw new PackError(file, `uses {hook-dir} but the pack has no hooks/${name}/ folder`, null, "command");
  return {
    name,
    file,
    event: hook.event as HookEvent,
    command: hook.command,
    timeout: hook.timeout ?? DEFAULT_HOOK_TIMEOUT,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    ...(hook.description === undefined ? {} : { description: hook.description }),
    files,
  };
}

function loadMcpServer(ctx: LoadContext, name: string, hasSupportFiles: boolean): McpArtifact {
  const file = join(ctx.root, "mcp", `${name}.json`);
  const doc = readJsonDocument(file, "is missing (listed in pack.json artifacts.mcp)", ctx.maxFileBytes);
  ctx.watch.set(`mcp/${name}.json`, doc.key);
  const parsed = mcpServerSchema.safeParse(doc.value);
  if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
  const server = parsed.data;
  const secret = serverSecretProblem(server);
  if (secret) {
    const [field, ...problem] = secret.split(": ");
    throw new PackError(file, `${problem.join(": ")} (a pack must not carry a secret)`, null, field);
  }
  for (const use of placeholderUses(server)) {
    const problem = placeholderProblem(server, use);
    if (problem) throw new PackError(file, problem, null, use.field);
    if (use.token === "{pack-dir}" && !hasSupportFiles) throw new PackError(file, "uses {pack-dir} but the pack has no files/ folder (its support files)", null, use.field);
  }
  return { name, file, server };
}

function loadMigrations(ctx: LoadContext): PackMigration[] {
  const folder = join(ctx.root, "migrations");
  const info = look(ctx, "migrations");
  if (!info) return [];
  if (!info.isDirectory()) throw new PackError(folder, "must be a folder of migration .json files");
  const ids = new Map<string, string>();
  return listedNames(ctx, "migrations")
    .filter((entry) => entry.endsWith(".json"))
    .map((entry) => {
      const file = join(folder, entry);
      const doc = readJsonDocument(file, "cannot be read", ctx.maxFileBytes);
      ctx.watch.set(`migrations/${entry}`, doc.key);
      const parsed = packMigrationSchema.safeParse(doc.value);
      if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
      const record = parsed.data;
      const earlier = ids.get(record.id);
      if (earlier) throw new PackError(file, `id ${record.id} is already used by ${earlier}`, null, "id");
      ids.set(record.id, file);
      for (const runtime of record.runtimes ?? []) {
        try {
          getInstallRuntime(runtime);
        } catch (error) {
          throw new PackError(file, (error as Error).message, null, "runtimes");
        }
      }
      const removes = record.steps.some((step) => step.type.startsWith("retire-") || step.type === "remove-empty-dir");
      if (removes && !record.destructive) throw new PackError(file, "its steps remove files, so it must say destructive: true", null, "destructive");
      return { file, record };
    });
}

function checkUnlisted(ctx: LoadContext, kind: string, listed: string[], nameOf: (entry: string) => string): void {
  const folder = join(ctx.root, kind);
  if (!look(ctx, kind)?.isDirectory()) return;
  for (const entry of listedNames(ctx, kind)) {
    if (entry.startsWith(".")) continue;
    const name = nameOf(entry);
    // A hook's own files live in hooks/<name>/ next to hooks/<name>.json.
    if (kind === "hooks" && listed.includes(name)) continue;
    if (!listed.includes(name)) throw new PackError(join(folder, entry), `is not listed in pack.json artifacts.${kind}`);
  }
}

function templateMatcher(globs: string[]): (rel: string) => boolean {
  if (globs.length === 0) return () => false;
  const picomatch = requireLazily("picomatch") as typeof import("picomatch");
  const matchers = globs.map((glob) => picomatch(glob, { dot: false }));
  return (rel) => matchers.some((match) => match(rel));
}

/** A JSON file of the pack, and its stat key (taken before it was read). */
function readJsonDocument(file: string, missing: string, maxFileBytes = DEFAULT_MAX_PACK_FILE_BYTES): JsoncDocument & { key: string } {
  const info = lstatOrNull(file);
  if (!info) throw new PackError(file, missing);
  if (!info.isFile()) throw new PackError(file, "is not a regular file");
  checkSize({ maxFileBytes }, file, info);
  try {
    const doc = parseJsonc(file, readText(file));
    if (typeof doc.value !== "object" || doc.value === null || Array.isArray(doc.value)) throw new PackError(file, "must hold a JSON object", 1);
    return { ...doc, key: installedStatKey(info) };
  } catch (error) {
    if (error instanceof ConfigError) throw new PackError(file, error.problem, error.line, error.field);
    throw error;
  }
}

function schemaError(doc: JsoncDocument, issue: SchemaIssue | undefined): PackError {
  const error = describeSchemaIssue(doc, issue);
  return new PackError(doc.file, error.problem, error.line, error.field);
}

function frontmatterError(file: string, text: string, issue: SchemaIssue | undefined): PackError {
  if (!issue) return new PackError(file, "frontmatter is not valid");
  if (issue.code === "unrecognized_keys" && issue.keys?.length) return new PackError(file, "unknown frontmatter key", lineOfKey(text, issue.keys[0]!), issue.keys[0]!);
  const key = String(issue.path[0] ?? "");
  const message = issue.message.replace(/^Invalid input: /, "");
  return new PackError(file, key && issue.code === "invalid_type" && /undefined/.test(message) ? "is required in the frontmatter" : message, key ? lineOfKey(text, key) : 1, key || null);
}

function regularFile(ctx: LoadContext, rel: string, why: string): Stats {
  const file = join(ctx.root, rel);
  const info = look(ctx, rel);
  if (!info) throw new PackError(file, `is missing (${why})`);
  if (!info.isFile()) throw new PackError(file, info.isSymbolicLink() ? "is a symlink; a pack holds real files only" : "is not a regular file");
  checkSize(ctx, file, info);
  return info;
}


/** lstat of a path of the pack, recorded in the load's watch list. */
function look(ctx: LoadContext, rel: string): Stats | null {
  const info = lstatOrNull(join(ctx.root, rel));
  ctx.watch.set(rel, info ? installedStatKey(info) : null);
  if (info?.isDirectory()) ctx.cache?.digests.noteFolder(ctx.root, rel, info);
  return info;
}

function lstatOrNull(path: string): Stats | null {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}

function statOrNull(path: string) {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}
