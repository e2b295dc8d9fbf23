import { readdirSync } from "node:fs";
import { extname, isAbsolute, join, normalize, sep } from "node:path";
import { describeError } from "../../kernel/errors.js";
import { readRegularFile } from "../../kernel/fs/regular-file.js";
import { isMissingPathError, statOrUndefined } from "../../kernel/fs/stat.js";
import { BUILTIN_PLUGIN_NAMES } from "./builtin/names.js";

/** A plugin folder in bosun's data dir: `plugins/<name>/plugin.json`. */
export interface InstalledPlugin {
  name: string;
  dir: string;
  version: string | null;
  description: string | null;
  /** The module that exports `activate(ctx)` (absolute path inside the plugin folder), if any. */
  main: string | null;
  enabled: boolean;
  /** Why the plugin cannot be used; such a plugin is never loaded. */
  problem: string | null;
}

const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]*$/;
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * Lists the plugins installed under `pluginsDir`, sorted by name. A plugin is enabled unless the
 * config turns it off (`plugins.<name>.enabled: false`); a folder with a missing or broken
 * `plugin.json`, or named like a built-in plugin, is listed with its problem and treated as
 * disabled (neither its code nor its extensions run), so it cannot stop or replace anything.
 */
export function listInstalledPlugins(pluginsDir: string, toggles: Record<string, boolean>): InstalledPlugin[] {
  let names: string[];
  try {
    names = readdirSync(pluginsDir, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith(".") && statOrUndefined(join(pluginsDir, entry.name))?.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (isMissingPathError(error)) return [];
    throw error;
  }
  return names.map((name) => readPlugin(join(pluginsDir, name), name, toggles[name] ?? true));
}

function readPlugin(dir: string, name: string, enabled: boolean): InstalledPlugin {
  const plugin: InstalledPlugin = { name, dir, version: null, description: null, main: null, enabled, problem: null };
  const broken = (problem: string): InstalledPlugin => ({ ...plugin, enabled: false, problem });
  if (!PLUGIN_NAME.test(name)) return broken("folder name must use lower-case letters, digits, '.', '_' or '-'");
  if (BUILTIN_PLUGIN_NAMES.includes(name)) return broken("its name is taken by a built-in plugin; rename its folder");
  const manifestFile = join(dir, "plugin.json");
  const info = statOrUndefined(manifestFile);
  if (!info) return broken("has no plugin.json");
  if (!info.isFile() || info.size > MAX_MANIFEST_BYTES) return broken("plugin.json is not a small regular file");
  let manifest: unknown;
  try {
    manifest = JSON.parse(readRegularFile(manifestFile, MAX_MANIFEST_BYTES).toString("utf8"));
  } catch (error) {
    return broken(`plugin.json is not valid JSON (${describeError(error)})`);
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    return broken("plugin.json must hold a JSON object");
  }
  const { name: declared, version, description, main } = manifest as Record<string, unknown>;
  if (declared !== undefined && declared !== name) {
    return broken(`plugin.json names it ${JSON.stringify(declared)} but its folder is ${JSON.stringify(name)}`);
  }
  if (version !== undefined && typeof version !== "string") return broken("plugin.json: version must be a string");
  if (description !== undefined && typeof description !== "string") return broken("plugin.json: description must be a string");
  let mainFile: string | null = null;
  if (main !== undefined) {
    const problem = checkMain(main);
    if (problem) return broken(`plugin.json: main ${problem}`);
    mainFile = join(dir, normalize(main as string));
  }
  return { ...plugin, version: version ?? null, description: description ?? null, main: mainFile };
}

const MAIN_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".ts", ".mts"]);

/** `main` is a relative path to a module inside the plugin's folder. */
function checkMain(main: unknown): string | null {
  if (typeof main !== "string" || main.trim() === "") return "must be a relative path to a module, e.g. \"index.mjs\"";
  const path = normalize(main);
  if (isAbsolute(main) || path === ".." || path.startsWith(`..${sep}`)) return "must stay inside the plugin's folder";
  if (!MAIN_EXTENSIONS.has(extname(path))) return "must be a .js, .mjs, .cjs, .ts or .mts file";
  return null;
}
