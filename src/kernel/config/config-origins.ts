import type { ConfigLayer, ConfigScope, LoadedConfig } from "./config.js";
import { fieldName } from "./config-check.js";
import { lineOfPath } from "../jsonc.js";

/** One value of the merged config and the file (and line) it came from. */
export interface ConfigEntry {
  /** Its full path: `plugins.demo.enabled`. */
  key: string;
  value: unknown;
  scope: ConfigScope;
  file: string;
  line: number;
}

/**
 * Every leaf of the merged config, by key (a value that is not an object with keys: arrays are replaced
 * whole by the merge, so each has one origin) with where it came from: the last file, in merge
 * order, that sets it. That is the file the merge took it from, since a later file either
 * replaces a value or, for objects, merges into it key by key.
 */
export function configEntries(config: LoadedConfig): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  const visit = (value: unknown, path: string[]): void => {
    if (isObjectWithKeys(value)) {
      for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key]);
      return;
    }
    const layer = config.layers.findLast((candidate) => valueAt(candidate, path) !== undefined);
    if (!layer) return;
    entries.push({ key: fieldName(path), value, scope: layer.scope, file: layer.file, line: lineOfPath(layer.document, path) });
  };
  if (isObjectWithKeys(config.value)) visit(config.value, []);
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function valueAt(layer: ConfigLayer, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (typeof node === "object" && node !== null && !Array.isArray(node) && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined), layer.value);
}

function isObjectWithKeys(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}
