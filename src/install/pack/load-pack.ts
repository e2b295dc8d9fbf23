import { lstatSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { join, resolve, sep } from "node:path";
import { ConfigError } from "../../boot/config-error.js";
import { describeSchemaIssue, type SchemaIssue } from "../../boot/config.js";
import { parseJsonc, type JsoncDocument } from "../../boot/jsonc.js";
import { requireLazily } from "../../fs/require.js";
import { getInstallRuntime } from "../../runtimes/install-registry.js";
import type { HookEvent } from "../../runtimes/install-types.js";
import { installedStatKey, packStatKey } from "../classify.js";
import { isKnownTemplateName } from "../template-vars.js";
import { lineOfKey, parseFrontmatter } from "./frontmatter.js";
import type { PackCache } from "./pack-cache.js";
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
import { compileTemplate, type Template } from "./template.js";

/** A file of the pack that is copied (or rendered, when it is a template) into a runtime. */
export interface PackFile {
  /** Relative to its artifact's folder (a skill's files) or to the pack. */
  rel: string;
  path: string;
  size: number;
  /** 0o755 when the pack file is executable, else 0o644. */
  mode: number;
  /** `size:mtime:inode`: unchanged means the bytes need not be read again. */
  statKey: string;
  template: Template | null;
}

export interface SkillArtifact {
  name: string;
  description: string;
  files: PackFile[];
}

export interface MarkdownArtifact {
  name: string;
  file: string;
  frontmatter: Record<string, unknown>;
  body: string;
  bodyTemplate: Template | null;
  /** The file's stat key (the rendered output depends only on it and the template values). */
  statKey: string;
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
  migrations: PackMigration[];
  /**
   * Every path of the pack this load looked at (relative to the pack, `/`-separated) with its
   * `size:ctime:mtime:inode` taken before it was read or listed (null: absent). Unchanged keys
   * mean the same pack: a settled reinstall checks them instead of loading the pack.
   */
  watch: [string, string | null][];
}

/** Hook command placeholders: bosun's hook helper, and the folder with the hook's own files. */
export const HOOK_PLACEHOLDERS = ["{bosun-hook}", "{hook-dir}"] as const;
const DEFAULT_HOOK_TIMEOUT = 10;
const MAX_PACK_FILES = 20_000;

/**
 * Reads and checks a pack folder: `pack.json`, every listed artifact, its frontmatter, its
 * templates and the pack's migrations. Anything wrong is one `PackError` naming the file (and
 * line and field when known), thrown before anything is installed. With a `cache` (pack-cache.ts),
 * a file whose stat key is unchanged since the cache saw it is not read or checked again.
 */
export function loadPack(dir: string, options: { cache?: PackCache } = {}): LoadedPack {
  const root = resolve(dir);
  const info = statOrNull(root);
  if (!info?.isDirectory()) throw new PackError(root, "not a pack folder (no such folder)");
  const packFile = join(root, "pack.json");
  const doc = readJsonDocument(packFile, "not a pack folder: pack.json is missing");
  const parsed = packJsonSchema.safeParse(doc.value);
  if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
  const json = parsed.data;
  const isTemplate = templateMatcher(json.templates ?? []);
  const ctx: LoadContext = { root, isTemplate, count: { files: 0 }, watch: new Map([["pack.json", doc.key]]), ...(options.cache ? { cache: options.cache } : {}) };

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

  const skills = (json.artifacts.skills ?? []).map((name) => loadSkill(ctx, name));
  const commands = (json.artifacts.commands ?? []).map((name) => loadMarkdown(ctx, "commands", name));
  const agents = (json.artifacts.agents ?? []).map((name) => loadMarkdown(ctx, "agents", name));
  const hooks = (json.artifacts.hooks ?? []).map((name) => loadHook(ctx, name));
  const migrations = loadMigrations(ctx);
  return { dir: root, name: json.name, version: json.version, description: json.description ?? "", skills, commands, agents, hooks, migrations, watch: [...ctx.watch] };
}

/** One load: the pack folder, its template globs, the file count so far, and what was looked at. */
interface LoadContext {
  root: string;
  isTemplate: (rel: string) => boolean;
  count: { files: number };
  watch: Map<string, string | null>;
  cache?: PackCache;
}

/** `parse()` of a pack file, or its cached result when the file's stat key (taken in `watch`) is unchanged. */
function parsed<T>(ctx: LoadContext, rel: string, kind: string, parse: () => T): T {
  const key = ctx.watch.get(rel);
  return ctx.cache && key ? ctx.cache.get(rel, kind, key, parse) : parse();
}

function loadSkill(ctx: LoadContext, name: string): SkillArtifact {
  const folder = join(ctx.root, "skills", name);
  const info = look(ctx, `skills/${name}`);
  if (!info?.isDirectory()) throw new PackError(folder, info?.isSymbolicLink() ? "is a symlink; a pack holds real folders and files only" : "is missing (listed in pack.json artifacts.skills)");
  const files = listFiles(ctx, `skills/${name}`);
  const skillFile = files.find((file) => file.rel === "SKILL.md");
  if (!skillFile) throw new PackError(join(folder, "SKILL.md"), "is missing: every skill needs a SKILL.md");
  const description = parsed(ctx, `skills/${name}/SKILL.md`, `skill:${name}`, () => {
    const text = readText(skillFile.path);
    const { data } = parseFrontmatter(text, skillFile.path);
    const checked = skillFrontmatterSchema.safeParse(data);
    if (!checked.success) throw frontmatterError(skillFile.path, text, checked.error.issues[0]);
    if (checked.data.name !== name) throw new PackError(skillFile.path, `must equal the folder name "${name}"`, lineOfKey(text, "name"), "name");
    return checked.data.description;
  });
  return { name, description, files };
}

function loadMarkdown(ctx: LoadContext, kind: "commands" | "agents", name: string): MarkdownArtifact {
  const rel = `${kind}/${name}.md`;
  const file = join(ctx.root, rel);
  const info = regularFile(ctx, rel, `listed in pack.json artifacts.${kind}`);
  const template = ctx.isTemplate(rel);
  const artifact = parsed(ctx, rel, `${kind}:${name}:${template ? "template" : "plain"}`, () => parseMarkdown(kind, name, file, template));
  return { name, file, ...artifact, statKey: packStatKey(info) };
}

/** A command's or agent's file read and checked: its frontmatter, body and (when a template) compiled body. */
function parseMarkdown(kind: "commands" | "agents", name: string, file: string, template: boolean): Pick<MarkdownArtifact, "frontmatter" | "body" | "bodyTemplate"> {
  const text = readText(file);
  const { data, body, bodyLine } = parseFrontmatter(text, file);
  const schema = kind === "commands" ? commandFrontmatterSchema : agentFrontmatterSchema;
  const checked = schema.safeParse(data);
  if (!checked.success) throw frontmatterError(file, text, checked.error.issues[0]);
  if (kind === "agents" && "name" in checked.data && checked.data.name !== undefined && checked.data.name !== name) {
    throw new PackError(file, `must equal the file name "${name}"`, lineOfKey(text, "name"), "name");
  }
  if (body.trim() === "") throw new PackError(file, `the ${kind === "commands" ? "command's prompt" : "agent's instructions"} (after the frontmatter) is empty`);
  const bodyTemplate = template ? compileTemplate(body, file, isKnownTemplateName, bodyLine) : null;
  return { frontmatter: checked.data, body, bodyTemplate };
}

function loadHook(ctx: LoadContext, name: string): HookArtifact {
  const file = join(ctx.root, "hooks", `${name}.json`);
  const doc = readJsonDocument(file, "is missing (listed in pack.json artifacts.hooks)");
  ctx.watch.set(`hooks/${name}.json`, doc.key);
  const parsed = hookSchema.safeParse(doc.value);
  if (!parsed.success) throw schemaError(doc, parsed.error.issues[0]);
  const hook = parsed.data;
  for (const match of hook.command.matchAll(/\{(?:bosun|hook)-[a-z-]*\}/g)) {
    if (!(HOOK_PLACEHOLDERS as readonly string[]).includes(match[0])) throw new PackError(file, `unknown placeholder ${match[0]} (use ${HOOK_PLACEHOLDERS.join(" or ")})`, null, "command");
  }
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

function loadMigrations(ctx: LoadContext): PackMigration[] {
  const folder = join(ctx.root, "migrations");
  const info = look(ctx, "migrations");
  if (!info) return [];
  if (!info.isDirectory()) throw new PackError(folder, "must be a folder of migration .json files");
  const ids = new Map<string, string>();
  return readdirSync(folder)
    .filter((entry) => entry.endsWith(".json"))
    .sort()
    .map((entry) => {
      const file = join(folder, entry);
      const doc = readJsonDocument(file, "cannot be read");
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

/** Every file under `<root>/<base>`, skipping dot-files; symlinks and special files are refused. */
function listFiles(ctx: LoadContext, base: string): PackFile[] {
  const { root, isTemplate, count } = ctx;
  const out: PackFile[] = [];
  // A path under the walked folder; names from a directory listing need no normalizing.
  const baseDir = join(root, base);
  const under = (rel: string) => (rel === "" ? baseDir : sep === "/" ? `${baseDir}/${rel}` : join(baseDir, rel));
  const walk = (relDir: string) => {
    // A folder's listing is cached by its stat key too (an entry added, removed or renamed changes it).
    const names = parsed(ctx, relDir ? `${base}/${relDir}` : base, "folder", () => readdirSync(under(relDir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const rel = relDir ? `${relDir}/${name}` : name;
      const path = under(rel);
      // Looked at before it is read or listed: a change after that changes its key.
      const info = lstatSync(path);
      ctx.watch.set(`${base}/${rel}`, installedStatKey(info));
      if (info.isDirectory()) walk(rel);
      else if (info.isFile()) {
        if (++count.files > MAX_PACK_FILES) throw new PackError(root, `has more than ${MAX_PACK_FILES} files`);
        const packRel = `${base}/${rel}`;
        const template = isTemplate(packRel) ? parsed(ctx, packRel, "template", () => compileTemplate(readText(path), path, isKnownTemplateName)) : null;
        out.push({ rel, path, size: info.size, mode: info.mode & 0o111 ? 0o755 : 0o644, statKey: packStatKey(info), template });
      } else throw new PackError(path, info.isSymbolicLink() ? "is a symlink; a pack holds real folders and files only" : "is not a regular file");
    }
  };
  walk("");
  return out;
}

function checkUnlisted(ctx: LoadContext, kind: string, listed: string[], nameOf: (entry: string) => string): void {
  const folder = join(ctx.root, kind);
  if (!look(ctx, kind)?.isDirectory()) return;
  for (const entry of readdirSync(folder)) {
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
function readJsonDocument(file: string, missing: string): JsoncDocument & { key: string } {
  const info = lstatOrNull(file);
  if (!info) throw new PackError(file, missing);
  if (!info.isFile()) throw new PackError(file, "is not a regular file");
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
  return info;
}

function readText(file: string): string {
  const bytes = readFileSync(file);
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) throw new PackError(file, "is not valid UTF-8 text");
  return text;
}


/** lstat of a path of the pack, recorded in the load's watch list. */
function look(ctx: LoadContext, rel: string): Stats | null {
  const info = lstatOrNull(join(ctx.root, rel));
  ctx.watch.set(rel, info ? installedStatKey(info) : null);
  return info;
}

function lstatOrNull(path: string): Stats | null {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}

function statOrNull(path: string) {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}
