import { CLAUDE_HOOK_EVENTS, type HookEventNames } from "./hook-events.js";
import type { ContractRow, HookPlacement, InstallScope } from "./install-types.js";

export { CLAUDE_HOOK_EVENTS } from "./hook-events.js";

/** Hooks registered Claude-style in a JSON settings file (`hooks.<Event>[].hooks[]`). */
export function settingsHooks(files: readonly string[], contract: string, events: HookEventNames = CLAUDE_HOOK_EVENTS, timeoutUnit: "s" | "ms" = "s", helperOutput?: HookPlacement["helperOutput"]): HookPlacement {
  return { events, filesDir: "hooks", register: { kind: "config", files, format: "nested", timeoutUnit, contract }, ...(helperOutput ? { helperOutput } : {}) };
}

/** What `{bosun-hook}` becomes in a runtime's hook commands: the helper, told how to print for that runtime. */
export function helperCommandFor(helperCommand: string, helperOutput: HookPlacement["helperOutput"]): string {
  return helperOutput ? `${helperCommand} --format ${helperOutput}` : helperCommand;
}

/** Claude Code's convention, shared by its clones: `settings.json` user-wide, `settings.local.json` (not committed) in a project. */
export function settingsFileFor(scope: InstallScope): string {
  return scope === "global" ? "settings.json" : "settings.local.json";
}

/** What bosun writes into a skills, commands or agents folder: the files it lists in its manifest. */
export const OWNS_LISTED_FILES = "bosun owns only the files it lists in bosun-manifest.json; anything else in the folder is yours and is never removed";
/** A config file bosun edits: it adds and removes only its own entries. */
export const OWNS_OWN_ENTRIES = "yours; bosun adds and removes only the entries it recorded in bosun-manifest.json (matched by their exact command), leaving comments, order, formatting and line endings as they were";
export const WHEN_FILES = "install and upgrade write it; uninstall removes pristine files and backs up edited ones; pack migrations may move or retire it";
export const WHEN_HOOKS = "install adds bosun's entries; upgrade replaces changed ones; uninstall and retiring migrations remove them";
export const ANCHOR_LAYOUT = "the anchor installer's layout for this runtime (gsd-core 1.10, reference §20); not probed here";

interface RowSpec {
  surface: string;
  what: string;
  global: string;
  local: string;
  when?: string;
  owner?: string;
  why: string;
  versions?: string;
  checkedAgainst: string;
}

export const EVERY_VERSION = "every version";

/** Contract rows with the usual "when" and "owner" filled in. */
export function contractRows(runtime: string, rows: Record<string, RowSpec>): ContractRow[] {
  return Object.entries(rows).map(([key, row]) => ({
    id: `${runtime}.${key}`,
    surface: row.surface,
    what: row.what,
    where: { global: row.global, local: row.local },
    when: row.when ?? WHEN_FILES,
    owner: row.owner ?? OWNS_LISTED_FILES,
    why: row.why,
    versions: row.versions ?? EVERY_VERSION,
    checkedAgainst: row.checkedAgainst,
  }));
}

interface ClaudeLikeSpec {
  /** The global root as shown (`~/.augment`). */
  root: string;
  local: string;
  settings: { global: string; local: string };
  /** How commands are written, when not Claude's markdown. */
  commands?: string;
  checkedAgainst: string;
  /** Where the runtime's hook event names come from (the hooks row's "checked against"). */
  eventsSource: string;
}

/** The rows of a runtime laid out like Claude Code (skills, commands, agents, settings hooks, hook files). */
export function claudeLikeRows(runtime: string, spec: ClaudeLikeSpec): ContractRow[] {
  const files = (what: string, folder: string, why: string): RowSpec => ({
    surface: what,
    what: `each ${folder === "skills" ? "skill folder of the pack, as is" : folder === "commands" ? "command" : "agent definition, markdown with `name` and `description` frontmatter"}`,
    global: `${spec.root}/${folder}`,
    local: `${spec.local}/${folder}`,
    why,
    checkedAgainst: spec.checkedAgainst,
  });
  return contractRows(runtime, {
    skills: files("skills/<name>/SKILL.md (+ its files)", "skills", "it loads skills from skills/<name>/SKILL.md as Claude Code does"),
    commands: { ...files(spec.commands ?? "commands/<name>.md (markdown with `description` frontmatter)", "commands", "it offers each command file as a slash command"), what: `each command: ${spec.commands ?? "markdown with `description` / `argument-hint` frontmatter"}` },
    agents: files("agents/<name>.md", "agents", "it reads sub-agent definitions from agents/ as Claude Code does"),
    hooks: {
      surface: `${spec.settings.global} / ${spec.settings.local}: hooks`,
      what: "one `{type: command, command, timeout}` group per pack hook under `hooks.<Event>` (Claude Code's event names)",
      global: `${spec.root}/${spec.settings.global}`,
      local: `${spec.local}/${spec.settings.local}`,
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "its settings take Claude Code's hooks block",
      checkedAgainst: `${spec.checkedAgainst}; events: ${spec.eventsSource}`,
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: `${spec.root}/hooks`,
      local: `${spec.local}/hooks`,
      why: "only the hook command reads them",
      checkedAgainst: spec.checkedAgainst,
    },
  });
}
