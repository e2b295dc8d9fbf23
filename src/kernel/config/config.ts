import { join } from "node:path";
import { readRegularFile, UnusableFileError } from "../fs/regular-file.js";
import { lstatOrUndefined } from "../fs/stat.js";
import { checkConfigDocument, type ConfigCheck, type ConfigSchema } from "./config-check.js";
import { ConfigError } from "./config-error.js";
import type { ConfigWarning } from "./config-warning.js";
import { parseJsonc, type JsoncDocument } from "../jsonc.js";
import type { BosunPaths } from "../paths.js";
import type { Project } from "../project.js";

export { describeSchemaIssue, type SchemaIssue } from "./config-check.js";

export type ConfigScope = "global" | "project";

/** One `bosun.json` that bosun looks at, found or not. */
export interface ConfigSource {
  scope: ConfigScope;
  file: string;
  exists: boolean;
}

/**
 * A config file's value as the kernel sees it: an object. Each subsystem reads its own slice of it
 * with its own type (`ConfigLayer<CatalogConfig>`); the app assembles the whole (app/config-schema.ts).
 */
export type ConfigValue = Record<string, unknown>;

/** The schema config files are checked against, loaded only once a file exists (zod is heavy). */
export type ConfigSchemaLoader<T> = () => Promise<ConfigSchema<T>>;

/** One config file that was read and validated. */
export interface ConfigLayer<T = ConfigValue> {
  scope: ConfigScope;
  file: string;
  /** The valid part: unknown keys are left out (they are in `LoadedConfig.warnings`). */
  value: T;
  /** The file as parsed, for lines (`bosun config` shows where each value came from). */
  document: JsoncDocument;
}

export interface LoadedConfig<T = ConfigValue> {
  /** Project values over global ones (objects merged key by key, everything else replaced). */
  value: T;
  /** The files in merge order (global first); subsystems whose rules differ read these. */
  layers: ConfigLayer<T>[];
  sources: ConfigSource[];
  /** Unknown keys, one per key and file, in file order. */
  warnings: ConfigWarning[];
}

export const MAX_CONFIG_BYTES = 1024 * 1024;

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
 * Reads, validates and merges the config files; the first error stops here, unknown keys are
 * warnings. Validation needs zod, which is loaded only when at least one file exists, so a bare
 * start stays fast.
 */
export async function loadConfig<T extends object>(sources: ConfigSource[], loadSchema: ConfigSchemaLoader<T>): Promise<LoadedConfig<T>> {
  const layers: ConfigLayer<T>[] = [];
  const warnings: ConfigWarning[] = [];
  for (const { source, document, check } of await checkFiles(sources, loadSchema)) {
    if (check.value === null) throw check.errors[0];
    warnings.push(...check.warnings);
    layers.push({ scope: source.scope, file: source.file, value: check.value, document });
  }
  const value = layers.reduce<T>((merged, layer) => mergeConfig(merged, layer.value), {} as T);
  return { value, layers, sources, warnings: uniqueWarnings(warnings) };
}

/**
 * Every wrong value and unknown key of every config file, without stopping at the first; a file
 * bosun cannot parse at all still throws.
 */
export async function checkConfigFiles<T>(sources: ConfigSource[], loadSchema: ConfigSchemaLoader<T>): Promise<{ errors: ConfigError[]; warnings: ConfigWarning[] }> {
  const files = await checkFiles(sources, loadSchema);
  return { errors: files.flatMap((file) => file.check.errors), warnings: uniqueWarnings(files.flatMap((file) => file.check.warnings)) };
}

interface CheckedFile<T> {
  source: ConfigSource;
  document: JsoncDocument;
  check: ConfigCheck<T>;
}

/** Reads and checks each file that exists; a file that cannot be read or parsed throws. */
async function checkFiles<T>(sources: ConfigSource[], loadSchema: ConfigSchemaLoader<T>): Promise<CheckedFile<T>[]> {
  const present = sources.filter((s) => s.exists);
  if (present.length === 0) return [];
  const configSchema = await loadSchema();
  return present.map((source) => {
    const document = readConfigDocument(source.file);
    return { source, document, check: checkConfigDocument(document, configSchema) };
  });
}

/** One warning per key and file: the same file can be read as global and project config. */
function uniqueWarnings(warnings: ConfigWarning[]): ConfigWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const id = JSON.stringify([warning.kind, warning.file, warning.key]);
    return !seen.has(id) && Boolean(seen.add(id));
  });
}

/** Reads and parses one config file without validating it (see `readPluginToggles`). */
export function readConfigDocument(file: string): JsoncDocument {
  let text: string;
  try {
    // Followed through a symlink (dotfile setups link their config), but never a FIFO or device.
    text = readRegularFile(file, MAX_CONFIG_BYTES).toString("utf8");
  } catch (error) {
    if (error instanceof UnusableFileError) {
      throw new ConfigError(file, null, null, error.reason === "too-large" ? `is larger than ${MAX_CONFIG_BYTES} bytes` : "is not a regular file");
    }
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

function source(scope: ConfigScope, file: string): ConfigSource {
  return { scope, file, exists: lstatOrUndefined(file) !== undefined };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
