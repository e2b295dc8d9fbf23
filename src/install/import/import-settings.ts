import { isSkip, type SettingsPlacement } from "../../runtimes/kit/install-types.js";
import type { SettingRecord } from "../records/manifest.js";
import { secretProblem, type PackSettings } from "../pack/settings-schema.js";
import { PERMISSION_LISTS } from "../pack/settings-names.js";
import type { Skipped } from "./import-report.js";

const PERMISSION_RULE = /^[A-Za-z_][A-Za-z0-9_:-]*(\(.*\))?$/s;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export interface SettingsSource {
  /** The settings file, relative to the runtime folder. */
  file: string;
  config: unknown;
  placement: SettingsPlacement;
  /** What bosun set there for installed packs (never imported). */
  bosunSettings: readonly SettingRecord[];
  rewrite: (command: string) => string;
}

export interface ImportedSettings {
  settings: PackSettings;
  skipped: Skipped[];
  /** Variables whose value looked like a secret: written as `{env:NAME}`, their values not copied. */
  secrets: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function at(config: unknown, path: readonly string[]): unknown {
  let value = config;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/**
 * A runtime's settings as a pack's `settings` fragments: its status line command, its
 * permission rules and its `env` variables (a value shaped like a secret becomes `{env:NAME}`,
 * the value itself never copied). What bosun wrote for a pack is left out, and so is each
 * other key of the file, with the reason.
 */
export function importSettings(source: SettingsSource): ImportedSettings {
  const settings: PackSettings = {};
  const skipped: Skipped[] = [];
  const secrets: string[] = [];
  const { placement } = source;
  const fromBosun = (path: readonly string[], value: unknown) => source.bosunSettings.some((record) => record.path.join(".") === path.join(".") && JSON.stringify(record.value) === JSON.stringify(value));
  const skip = (what: string, why: string) => skipped.push({ what: `${source.file}: ${what}`, why });

  if (!isSkip(placement.statusLine)) {
    const line = at(source.config, placement.statusLine.path);
    if (isObject(line) && line.type === "command" && typeof line.command === "string" && line.command.trim() !== "") {
      if (fromBosun(placement.statusLine.path, line)) skip("statusLine", "written by bosun for an installed pack (bosun-manifest.json)");
      else settings.statusLine = { command: source.rewrite(line.command), ...(typeof line.padding === "number" ? { padding: line.padding } : {}) };
    } else if (line !== undefined) skip("statusLine", "not a command status line");
  }
  const permissionsAt = placement.permissions;
  if (!isSkip(permissionsAt)) {
    const block = at(source.config, permissionsAt.path);
    if (isObject(block)) {
      const permissions: NonNullable<PackSettings["permissions"]> = {};
      for (const [key, rules] of Object.entries(block)) {
        const list = (PERMISSION_LISTS as readonly string[]).includes(key) ? (key as (typeof PERMISSION_LISTS)[number]) : null;
        if (!list || !Array.isArray(rules)) {
          skip(`permissions.${key}`, "a pack's permissions are allow, deny and ask rules");
          continue;
        }
        const kept = rules.filter((rule, index) => {
          if (typeof rule !== "string" || !PERMISSION_RULE.test(rule)) return skip(`permissions.${key}[${index}]`, "not a permission rule"), false;
          if (fromBosun([...permissionsAt.path, key], rule)) return skip(`permissions.${key}[${index}]`, "written by bosun for an installed pack (bosun-manifest.json)"), false;
          return true;
        }) as string[];
        if (kept.length > 0) permissions[list] = kept;
      }
      if (Object.keys(permissions).length > 0) settings.permissions = permissions;
    }
  }
  if (!isSkip(placement.env)) {
    const block = at(source.config, placement.env.path);
    if (isObject(block)) {
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(block)) {
        if (!ENV_NAME.test(name) || typeof value !== "string") skip(`env.${name}`, "not a variable with a text value");
        else if (fromBosun([...placement.env.path, name], value)) skip(`env.${name}`, "written by bosun for an installed pack (bosun-manifest.json)");
        else if (secretProblem(name, value)) {
          env[name] = `{env:${name}}`;
          secrets.push(name);
        } else env[name] = value;
      }
      if (Object.keys(env).length > 0) settings.env = env;
    }
  }
  return { settings, skipped, secrets };
}
