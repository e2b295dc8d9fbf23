import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lstatOrUndefined } from "../fs/stat.js";
import type { BosunConfig } from "./config-schema.js";
import { ConfigError } from "./config-error.js";
import { lineOfPath, parseJsonc, type JsoncDocument } from "./jsonc.js";
import type { BosunPaths } from "./paths.js";
import type { Project } from "./project.js";

export type ConfigScope = "global" | "project";

/** One `bosun.json` that bosun looks at, found or not. */
export interface ConfigSource {
  scope: ConfigScope;
  file: string;
  exists: boolean;
}

/** One config file that was read and validated. */
export interface ConfigLayer {
  scope: ConfigScope;
  file: string;
  value: BosunConfig;
}

export interface LoadedConfig {
  /** Project values over global ones (objects merged key by key, everything else replaced). */
  value: BosunConfig;
  /** The files in merge order (global first); subsystems whose rules differ read these. */
  layers: ConfigLayer[];
  sources: ConfigSource[];
}

const MAX_CONFIG_BYTES = 1024 * 1024;

/** The config files bosun reads, global first. Two project files at once is an error. */
export function configSources(paths: BosunPaths, project: Project | null): ConfigSource[] {
  const sources: ConfigSource[] = [source("global", join(paths.config, "bosun.json"))];
  if (project) {
    const top = source("project", join(project.root, "bosun.json"));
    const nested = source("project", join(project.dotDir, "bosun.json"));
    if (top.exists && nested.exists) {
      throw new ConfigError(nested.file, null, null, `a second project config next to ${top.file}; keep one of the two`);
    }
    sources.push(nested.exists ? nested : top);
  }
  return sources;
}

/**
 * Reads, validates and merges the config files. Validation needs zod, which is loaded only when
 * at least one file exists, so a bare start stays fast.
 */
export async function loadConfig(sources: ConfigSource[]): Promise<LoadedConfig> {
  const present = sources.filter((s) => s.exists);
  if (present.length === 0) return { value: {}, layers: [], sources };
  const { configSchema } = await import("./config-schema.js");
  const layers = present.map((s): ConfigLayer => {
    const doc = readConfigDocument(s.file);
    const result = configSchema.safeParse(doc.value);
    if (!result.success) throw describeSchemaIssue(doc, result.error.issues[0]);
    return { scope: s.scope, file: s.file, value: result.data };
  });
  const value = layers.reduce<BosunConfig>((merged, layer) => mergeConfig(merged, layer.value), {});
  return { value, layers, sources };
}

/** Reads and parses one config file without validating it (see `readPluginToggles`). */
export function readConfigDocument(file: string): JsoncDocument {
  const info = lstatOrUndefined(file);
  if (info && !info.isFile() && !info.isSymbolicLink()) throw new ConfigError(file, null, null, "is not a regular file");
  if (info && info.size > MAX_CONFIG_BYTES) throw new ConfigError(file, null, null, `is larger than ${MAX_CONFIG_BYTES} bytes`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, null, null, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const doc = parseJsonc(file, text);
  if (!isPlainObject(doc.value)) throw new ConfigError(file, 1, null, "must hold a JSON object ({ ... })");
  return doc;
}

/** Objects merge key by key; arrays and scalars from `over` replace those in `base`. */
export function mergeConfig<T>(base: T, over: T): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    merged[key] = key in merged ? mergeConfig(merged[key], value) : value;
  }
  return merged as T;
}

export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  issues?: { message: string }[];
}

export function describeSchemaIssue(doc: JsoncDocument, issue: SchemaIssue | undefined): ConfigError {
  if (!issue) return new ConfigError(doc.file, 1, null, "is not valid");
  const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  if (issue.code === "unrecognized_keys" && issue.keys?.length) {
    const key = issue.keys[0]!;
    return new ConfigError(doc.file, lineOfPath(doc, path, key), fieldName([...path, key]), "unknown key");
  }
  if (issue.code === "invalid_key" && path.length > 0) {
    const key = String(path[path.length - 1]);
    const parent = path.slice(0, -1);
    return new ConfigError(doc.file, lineOfPath(doc, parent, key), fieldName(path), `invalid name: ${plainMessage(issue.issues?.[0]?.message ?? issue.message)}`);
  }
  return new ConfigError(doc.file, lineOfPath(doc, path), fieldName(path) || null, plainMessage(issue.message));
}

function fieldName(path: (string | number)[]): string {
  return path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${part}` : part), "");
}

function plainMessage(message: string): string {
  const text = message.replace(/^Invalid input: /, "");
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function source(scope: ConfigScope, file: string): ConfigSource {
  return { scope, file, exists: lstatOrUndefined(file) !== undefined };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
