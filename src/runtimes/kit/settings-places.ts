import { contractRows, settingsFileFor } from "./install-surfaces.js";
import type { ContractRow, InstallScope, SettingsPlacement, Skip } from "./install-types.js";

/**
 * Claude Code's settings keys, which its clones (CodeBuddy) took as they are: `statusLine`
 * `{type: command, command, padding}`, `permissions.allow|deny|ask` rule lists and `env` (plain
 * values: Claude Code does not expand `${VAR}` in them), in settings.json user-wide and
 * settings.local.json in a project.
 */
export function claudeSettings(scope: InstallScope, contract: string, plainJsonOnly?: string): SettingsPlacement {
  return {
    file: settingsFileFor(scope),
    contract,
    statusLine: { path: ["statusLine"] },
    permissions: { path: ["permissions"] },
    env: { path: ["env"], references: null },
    ...(plainJsonOnly ? { plainJsonOnly } : {}),
  };
}

/** A runtime with no settings a pack can edit. */
export function noSettings(skip: string): Skip {
  return { skip };
}

/** When bosun edits a settings key for a pack. */
export const WHEN_SETTINGS = "install adds the pack's entries and values; upgrade replaces changed ones; uninstall removes them while they are exactly what bosun wrote";
/** Who owns a settings file bosun edits for a pack. */
export const SETTINGS_OWNER = "yours; bosun adds only entries and values that are not there (an identical one of yours stays yours), asks before replacing a value of yours (backed up first), and removes only what it recorded in bosun-manifest.json";

/** The `settings` row of a runtime whose settings file takes a pack's settings keys. */
export function settingsRow(runtime: string, spec: { keys: string; what: string; global: string; local: string; why: string; checkedAgainst: string }): ContractRow[] {
  return contractRows(runtime, {
    settings: { surface: `${spec.keys}`, what: spec.what, global: spec.global, local: spec.local, when: WHEN_SETTINGS, owner: SETTINGS_OWNER, why: spec.why, checkedAgainst: spec.checkedAgainst },
  });
}

/** The row of a Claude Code clone's settings (CodeBuddy, Augment): Claude's keys, in its own root. */
export function claudeSettingsRow(runtime: string, root: string, local: string, checkedAgainst: string): ContractRow[] {
  return settingsRow(runtime, {
    keys: "settings.json / settings.local.json: statusLine, permissions, env",
    what: "a pack's `settings` as for Claude Code: `statusLine`, `permissions.allow`, `deny` and `ask` entries, `env` variables (`{env:NAME}` refused)",
    global: `${root}/settings.json`,
    local: `${local}/settings.local.json`,
    why: "its settings take Claude Code's keys",
    checkedAgainst,
  });
}
