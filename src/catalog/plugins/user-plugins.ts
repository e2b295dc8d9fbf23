import { realpathSync } from "node:fs";
import { sep } from "node:path";
import { importExtensionModule, type ModuleImporter } from "../../extensions/load.js";
import type { BosunPlugin, PluginContext } from "./api.js";
import type { LazyPlugin } from "./host.js";
import type { InstalledPlugin } from "./installed.js";

/**
 * The plugins on disk that have code to run: enabled, without a manifest problem, and naming a
 * `main` module. Each loads only when the host activates it.
 */
export function userPlugins(installed: InstalledPlugin[], importModule: ModuleImporter = importExtensionModule): LazyPlugin[] {
  return installed
    .filter((plugin) => plugin.enabled && !plugin.problem && plugin.main !== null)
    .map((plugin) => ({ name: plugin.name, load: () => loadUserPlugin(plugin, importModule) }));
}

async function loadUserPlugin(plugin: InstalledPlugin, importModule: ModuleImporter): Promise<BosunPlugin> {
  const main = plugin.main!;
  let file: string;
  try {
    file = realpathSync(main);
  } catch {
    throw new Error(`its main module ${main} does not exist`);
  }
  // `main` was checked to stay inside the folder; a symlink must not lead out of it either.
  const root = realpathSync(plugin.dir);
  if (!file.startsWith(root + sep)) throw new Error(`its main module ${main} leads outside the plugin's folder`);
  const module = await importModule(file);
  const activate = findActivate(module);
  if (!activate) throw new Error(`its main module ${main} does not export an activate(ctx) function`);
  return { name: plugin.name, activate };
}

type Activate = (ctx: PluginContext) => void | Promise<void>;

function findActivate(module: Record<string, unknown>): Activate | undefined {
  if (typeof module.activate === "function") return module.activate as Activate;
  // `export default { activate }`, and CommonJS `module.exports = { activate }` (which arrives as default).
  const fallback = module.default as { activate?: unknown; default?: { activate?: unknown } } | undefined;
  if (typeof fallback?.activate === "function") return fallback.activate as Activate;
  if (typeof fallback?.default?.activate === "function") return fallback.default.activate as Activate;
  return undefined;
}
