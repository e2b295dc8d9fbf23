import { isPlainObject, readConfigDocument, type ConfigSource } from "../../kernel/config/config.js";

/**
 * Which plugins the config turns on or off, read before the full config is validated: startup
 * migrations (which plugins may contribute) run before config loading, and may be the very thing
 * that brings an old config up to date. A syntax error still stops here with its line; a wrong
 * shape is left for the full validation to report.
 */
export function readPluginToggles(sources: ConfigSource[]): Record<string, boolean> {
  const toggles: Record<string, boolean> = {};
  for (const source of sources) {
    if (!source.exists) continue;
    const plugins = (readConfigDocument(source.file).value as Record<string, unknown>).plugins;
    if (!isPlainObject(plugins)) continue;
    for (const [name, settings] of Object.entries(plugins)) {
      const enabled = isPlainObject(settings) ? settings.enabled : undefined;
      if (typeof enabled === "boolean") toggles[name] = enabled;
    }
  }
  return toggles;
}
