import { isSkip, type InstallLayout, type RootKey, type SettingKeyPlacement, type Skip } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import type { LoadedPack } from "../pack/load-pack.js";
import { ENV_REFERENCE, PERMISSION_LISTS } from "../pack/settings-names.js";

/**
 * One edit a pack's `settings` makes in a runtime's settings file: which runtime key (`key`, and
 * its `path` in the file), the exact value, and whether it is one entry of a list or the whole
 * value. The pack audit lists these (a `permissions.allow` entry widens what the agent may do).
 */
export interface DesiredSetting {
  /** The root whose file it edits (an MCP file may sit beside the runtime's folder). */
  root: RootKey;
  file: string;
  contract: string;
  pack: string;
  /** Where it comes from: `settings.statusLine`, `settings.permissions.allow`, `settings.env.NAME` (pack.json), or `mcp/<name>.json`. */
  field: string;
  /** The runtime's key: `statusLine`, `permissions.allow`, `env.NAME`, `mcpServers.NAME`. */
  key: string;
  path: readonly string[];
  mode: "entry" | "value";
  value: unknown;
  /** The runtime cannot take this value as the pack gives it: the install is blocked with this line. */
  refused?: string;
  /** The runtime ignores a settings file with comments: the plan warns with this. */
  plainJsonOnly?: string;
}

export interface SettingsSkip {
  kind: "setting";
  name: string;
  reason: string;
}

/**
 * The template variables a status line command may use, already resolved for this runtime and
 * scope (`{hook-dir}` of the hook it names). The seam for `{pack-dir}` and `{config-dir}`: they
 * are resolved where the hook commands are, and passed here the same way.
 */
export interface SettingVariables {
  /** `{hook-dir}` of a hook of the pack, by name (null: the hook is skipped here; absent: the runtime has no hook folder). */
  hookDir?: (hook: string) => string | null;
  /** Other `{name}` values, keyed with their braces. */
  values?: Readonly<Record<string, string>>;
}

/**
 * What a pack's `settings` become in one runtime and scope: one edit per status line, per
 * permission rule and per environment variable, where the runtime's contract has a place for
 * them; the rest skipped with the reason. Pure.
 */
export function buildDesiredSettings(pack: LoadedPack, runtime: InstallRuntime, layout: InstallLayout, variables: SettingVariables): { settings: DesiredSetting[]; skipped: SettingsSkip[] } {
  const wanted = pack.settings;
  const keys = [wanted.statusLine ? "statusLine" : null, wanted.permissions ? "permissions" : null, wanted.env ? "env" : null].filter((key): key is string => key !== null);
  if (keys.length === 0) return { settings: [], skipped: [] };
  const placement = layout.settings ?? { skip: `${runtime.title} has no settings file bosun edits for a pack` };
  if (isSkip(placement)) return { settings: [], skipped: keys.map((name) => ({ kind: "setting", name, reason: placement.skip })) };
  const settings: DesiredSetting[] = [];
  const skipped: SettingsSkip[] = [];
  const base = { root: "main" as const, file: placement.file, contract: placement.contract, pack: pack.name, ...(placement.plainJsonOnly ? { plainJsonOnly: placement.plainJsonOnly } : {}) };
  const place = (name: string, at: SettingKeyPlacement | Skip): SettingKeyPlacement | null => {
    if (!isSkip(at)) return at;
    skipped.push({ kind: "setting", name, reason: at.skip });
    return null;
  };

  const line = wanted.statusLine;
  const linePlace = line ? place("statusLine", placement.statusLine) : null;
  if (line && linePlace) {
    const resolved = resolveCommand(line.command, line.hook, variables, runtime);
    const value = { type: "command", command: resolved.command, ...(line.padding === undefined ? {} : { padding: line.padding }) };
    settings.push({ ...base, field: "settings.statusLine", key: linePlace.path.join("."), path: linePlace.path, mode: "value", value, ...(resolved.refused ? { refused: resolved.refused } : {}) });
  }

  const rules = wanted.permissions;
  const rulesPlace = rules ? place("permissions", placement.permissions) : null;
  if (rules && rulesPlace) {
    for (const list of PERMISSION_LISTS) {
      for (const rule of rules[list] ?? []) {
        const path = [...rulesPlace.path, list];
        settings.push({ ...base, field: `settings.permissions.${list}`, key: path.join("."), path, mode: "entry", value: rule });
      }
    }
  }

  const env = wanted.env;
  const envPlace = env ? place("env", placement.env) : null;
  if (env && envPlace && !isSkip(placement.env)) {
    for (const [name, value] of Object.entries(env)) {
      const path = [...envPlace.path, name];
      const reference = ENV_REFERENCE.exec(value);
      const refused = reference && placement.env.references === null ? `${runtime.title} does not expand {env:…} references in its settings, so ${name} would be the text "${value}"; set ${reference[1]} in your shell instead, or leave ${name} out of the pack` : undefined;
      settings.push({ ...base, field: `settings.env.${name}`, key: path.join("."), path, mode: "value", value, ...(refused ? { refused } : {}) });
    }
  }
  return { settings, skipped };
}

/** The status line command with its variables resolved; `refused` when one cannot be here. */
function resolveCommand(command: string, hook: string | undefined, variables: SettingVariables, runtime: InstallRuntime): { command: string; refused?: string } {
  let text = command;
  for (const [name, value] of Object.entries(variables.values ?? {})) text = text.replaceAll(name, value);
  if (!text.includes("{hook-dir}")) return { command: text };
  if (hook === undefined || !variables.hookDir) return { command: text, refused: `${runtime.title} has no hook folder, so {hook-dir} in settings.statusLine.command has nothing to name` };
  const dir = variables.hookDir(hook);
  if (dir === null) return { command: text, refused: `hook ${hook} is skipped in ${runtime.title}, so its folder, which {hook-dir} in settings.statusLine.command names, is not installed` };
  return { command: text.replaceAll("{hook-dir}", dir) };
}
