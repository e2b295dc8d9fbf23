import { runtimeConfig, type AgentsConfig } from "../collect-status.js";
import { listRuntimes } from "../registry.js";
import type { RuntimeConfig } from "./types.js";

export type HeadlessValue = string | boolean;

/**
 * The `bosun.json` `agents.<id>` keys of one runtime with their defaults (the same keys and
 * defaults as Agent Zero's orchestrator config, so skills written for it read them unchanged).
 * The type of each default is the type the key takes; `choices` and `check` narrow string keys.
 */
export interface HeadlessDefaults {
  values: Readonly<Record<string, HeadlessValue>>;
  choices?: Readonly<Record<string, readonly string[]>>;
  /** Returns what is wrong with a value, or null when it is fine. */
  check?: Readonly<Record<string, (value: string) => string | null>>;
}

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
