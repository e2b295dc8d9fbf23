import { runtimeConfig, type AgentsConfig } from "./collect-status.js";
import { listRuntimes } from "./registry.js";
import type { HeadlessDefaults, HeadlessValue, RuntimeConfig } from "./kit/types.js";

/** The defaults with the configured values of known keys over them. */
export function effectiveHeadless(defaults: HeadlessDefaults, config: RuntimeConfig): Record<string, HeadlessValue> {
  const merged: Record<string, HeadlessValue> = { ...defaults.values };
  for (const key of Object.keys(defaults.values)) {
    const value = config[key];
    if (typeof value === "string" || typeof value === "boolean") merged[key] = value;
  }
  return merged;
}

/** Each runtime's headless defaults with `bosun.json` `agents.<id>` over them. */
export function collectHeadlessDefaults(config: AgentsConfig): Record<string, Record<string, HeadlessValue>> {
  return Object.fromEntries(listRuntimes().map((runtime) => [runtime.id, effectiveHeadless(runtime.headless, runtimeConfig(config, runtime.id))]));
}
