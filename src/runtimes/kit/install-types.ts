import type { Env } from "../../kernel/paths.js";

/** Where a pack goes: the runtime's user-wide folder, or the project's. */
export type InstallScope = "global" | "local";
export const INSTALL_SCOPES: readonly InstallScope[] = ["global", "local"];


export { HOOK_EVENTS, type HookEvent } from "./hook-events.js";
import type { HookEvent } from "./hook-events.js";

/** What root resolution reads: the environment, the home folder and the working folder. */
export interface RootContext {
  env: Env;
  home: string;
  cwd: string;
}

/**
 * One step of a global root's override chain; the first variable that is set (not blank) wins.
 * `dir`: it names the root; `dirname`: it names a file inside the root; `join`: the root is
 * `<value>/<path>` (XDG_CONFIG_HOME/opencode, GEMINI_CLI_HOME/.gemini).
 */
export type RootOverride = { env: string; use: "dir" } | { env: string; use: "dirname" } | { env: string; use: "join"; path: string };

export interface GlobalRoot {
  /** The default, relative to the home folder (`.claude` for `~/.claude`). */
  home: string;
  overrides: readonly RootOverride[];
  /**
   * Sibling folders tried when no override is set (Antigravity ships under several names): the
   * first that holds a bosun manifest, else the first that exists, else the default.
   */
  probe?: readonly string[];
}

/** A runtime has no place for an artifact kind: it is skipped, and the plan says why. */
export interface Skip {
  skip: string;
}

/**
 * Roots outside the runtime's own folder that a layout may place files in: `agents-home`
 * (~/.agents, Codex's user skills), `config-home` (the folder of a config file the runtime keeps
 * beside its folder: Claude Code's ~/.claude.json), `project` (the project folder itself, for a
 * project file such as .mcp.json).
 */
export type ExtraRootName = "agents-home" | "config-home" | "project";
/** A root of one runtime and scope: its own folder (`main`), or an extra one. */
export type RootKey = "main" | ExtraRootName;

/**
 * An extra root: its folder, and where bosun's own files for it go (relative to it; default the
 * folder itself). Null: the root is the runtime's own folder here (the file goes there).
 */
export type ExtraRootResolver = (ctx: RootContext, mainDir: string) => string | { dir: string; stateDir: string } | null;

export interface SkillPlacement {
  /** Relative to the root; each skill is a folder `<dir>/<name>/`. */
  dir: string;
  root?: ExtraRootName;
  /** Hermes groups skills in a category folder with a DESCRIPTION.md. */
  category?: boolean;
}

/**
 * How a canonical command (markdown + frontmatter) is written: `markdown` as is, `gemini-toml` as
 * Gemini's TOML command, `skill` as a skill folder (Codex no longer reads prompts), `workflow` as
 * a plain markdown workflow (Windsurf, Cline).
 */
export type CommandFormat = "markdown" | "gemini-toml" | "skill" | "workflow";
export interface CommandPlacement {
  dir: string;
  format: CommandFormat;
  root?: ExtraRootName;
  /** What `$ARGUMENTS` in a command becomes (default: kept as is; `{{args}}` for Gemini's TOML). */
  arguments?: string;
}

/**
 * `markdown`: Claude-style frontmatter; `opencode`: with `mode: subagent`; `copilot`: `*.agent.md`;
 * `gemini`: without `tools` (Gemini's agents name its own tools, as a list).
 */
export type AgentFormat = "markdown" | "opencode" | "copilot" | "gemini";
export interface AgentPlacement {
  dir: string;
  format: AgentFormat;
}

/**
 * The shape of a hook registration in a runtime's JSON config:
 * `nested` `{hooks: {Event: [{matcher?, hooks: [{type, command, timeout}]}]}}` (Claude, Codex, Gemini…);
 * `cursor` `{version: 1, hooks: {event: [{command}]}}`; `windsurf` `{hooks: {event: [{command}]}}`.
 */
export type HookConfigFormat = "nested" | "cursor" | "windsurf";

export type HookRegistration =
  | {
      kind: "config";
      /** Candidate file names (relative to the root): the first that exists, else the first. */
      files: readonly string[];
      format: HookConfigFormat;
      timeoutUnit: "s" | "ms";
      /** The config contract row this edit follows. */
      contract: string;
      /**
       * The runtime reads the file as plain JSON and ignores all of it when it has comments or
       * trailing commas (bosun's own editor keeps them): the plan warns with this text (what the
       * runtime does then, and where the hook can go instead).
       */
      plainJsonOnly?: string;
    }
  | { kind: "file"; dir: string; format: "copilot"; contract: string };

/** A bounded, marked block bosun keeps at the top of a TOML config while it has hooks there. */
export interface TomlBlock {
  file: string;
  /** `key = value` lines (dotted keys, so the block sits before any table). */
  lines: readonly string[];
  /** The same setting, already set by the user: then no block is written. */
  satisfiedBy: { path: readonly string[]; value: unknown };
  contract: string;
}

export interface HookPlacement {
  /** The runtime's name for each event it supports; a hook on another event is skipped. */
  events: Partial<Record<HookEvent, string>>;
  /** Where a hook's own files go: `<filesDir>/<hook name>/`. */
  filesDir: string;
  /** The longest timeout (seconds) the runtime allows a hook on these events; a longer one is lowered, with a note. */
  timeoutCaps?: Partial<Record<HookEvent, number>>;
  register: HookRegistration;
  /**
   * The runtime runs hook commands through a shell that has this variable set to the project
   * folder (Gemini's GEMINI_PROJECT_DIR): in a project's (usually committed) config, paths are
   * written as `"$HOME"/…` and `"$<var>"/…`, not as this machine's.
   */
  projectDirVar?: string;
  toml?: TomlBlock;
  /**
   * How bosun's hook helper must print for this runtime to put its line in the model's context:
   * `json` is SessionStart `hookSpecificOutput.additionalContext` (Gemini CLI shows plain stdout
   * to the user only). Absent: the bare line, which Claude Code and Codex add to the context.
   */
  helperOutput?: "json";
  /**
   * A block bosun wrote for older versions of the runtime that this one does not want: taken out
   * of the file (only the text between bosun's markers) wherever it is found.
   */
  retiredToml?: RetiredTomlBlock;
}

export interface RetiredTomlBlock {
  file: string;
  contract: string;
  /** Why the block goes, for the plan. */
  why: string;
}

/** One settings key a runtime takes from a pack's `settings`, at `path` in its settings file. */
export interface SettingKeyPlacement {
  path: readonly string[];
}

/**
 * Where a runtime keeps the settings a pack's `settings` may edit (`statusLine`, `permissions`,
 * `env`), key by key; a key the runtime has no place for is skipped with the reason.
 */
export interface SettingsPlacement {
  /** The settings file, relative to the root. */
  file: string;
  /** The config contract row these edits follow. */
  contract: string;
  statusLine: SettingKeyPlacement | Skip;
  permissions: SettingKeyPlacement | Skip;
  /** `references`: what the runtime does with `{env:NAME}` (null: it cannot take one, and the pack is refused). */
  env: (SettingKeyPlacement & { references: null }) | Skip;
  /** As for hooks: the runtime ignores a settings file with comments (the plan warns with this). */
  plainJsonOnly?: string;
}

/**
 * How a runtime writes one MCP server entry: `claude` (`{type, command, args, env}` /
 * `{type: "http", url, headers}`, `${VAR}` references), `gemini` (`command`/`args`/`env`/`cwd` or
 * `httpUrl`/`headers`, `$VAR` references), `opencode` (`{type: "local", command: [...], environment,
 * enabled}` / `{type: "remote", url, headers, enabled}`, bosun's own `{env:NAME}` and
 * `{file:PATH}`), `cursor` (`command`/`args`/`env` or `url`/`headers`, `${env:NAME}` references),
 * `codex` (a `[mcp_servers.<name>]` table: `command`/`args`/`env`/`env_vars`/`cwd` or
 * `url`/`bearer_token_env_var`/`http_headers`/`env_http_headers`, timeouts, `enabled`; variables
 * forwarded by name, never expanded inside a value).
 */
export type McpFormat = "claude" | "gemini" | "opencode" | "cursor" | "codex";

/**
 * Where a runtime keeps its MCP servers: a JSON(C) file, the object at `path` in it, one key per
 * server; or a TOML file (`.toml`), one table per server at `[<path>.<name>]`.
 */
export interface McpPlacement {
  /** Relative to the root (`root`: an extra root, else the runtime's own folder). */
  file: string;
  root?: ExtraRootName;
  path: readonly string[];
  format: McpFormat;
  /** The config contract row these edits follow. */
  contract: string;
  /** As for hooks: the runtime ignores a file with comments (the plan warns with this). */
  plainJsonOnly?: string;
}

export interface InstallLayout {
  skills: SkillPlacement | Skip;
  commands: CommandPlacement | Skip;
  agents: AgentPlacement | Skip;
  hooks: HookPlacement | Skip;
  /** Absent: the runtime has no settings file bosun edits for a pack's `settings`. */
  settings?: SettingsPlacement | Skip;
  /** Absent: the runtime has no MCP servers bosun writes (a pack's `mcp` is skipped with a note). */
  mcp?: McpPlacement | Skip;
}

/**
 * One row of the runtime config contract registry: for a config surface bosun touches, what it
 * installs there, where, when, who owns the surrounding content, and why it works (the loader
 * behaviour it relies on, and the runtime version that was checked).
 */
export interface ContractRow {
  /** `<runtime>.<surface>`, e.g. `claude.hooks`; migrations that rewrite config name it. */
  id: string;
  surface: string;
  what: string;
  where: { global: string; local: string };
  when: string;
  owner: string;
  why: string;
  /** The runtime CLI versions the row holds for ("every version", "0.114.0 – 0.123.x"). */
  versions: string;
  checkedAgainst: string;
}

/**
 * One span of a runtime CLI's versions whose config wants the same from bosun. A runtime's
 * editions are ordered oldest first; each holds from its `since` up to the next one's.
 */
export interface ContractEdition {
  /** The first CLI version of the span (inclusive). */
  since: string;
  /** Versions of the real CLI this edition's files were run against; empty: taken from its documentation. */
  verified: readonly string[];
  /** What the edition rests on, for the report (release notes, or the real CLI). */
  basis: string;
}

/** How bosun tells which version of a runtime's CLI is installed, and what each version wants. */
export interface CliContract {
  /** The command bosun looks for on PATH (or `bosun.json` `agents.<id>.binary`). */
  binary: string;
  /** Oldest first; the last one is what bosun writes for a version it cannot read or does not know yet. */
  editions: readonly ContractEdition[];
}

/** The install facet of a runtime: its roots, where each artifact kind goes, and its contract rows. */
export interface InstallSurface {
  globalRoot: GlobalRoot;
  /** Relative to the working folder (`.claude`); `""` is the folder itself; null: no project scope. */
  localRoot: string | null;
  /** Where bosun's own files (manifest, state, journal, lock) live, relative to the root. */
  stateDir?: Partial<Record<InstallScope, string>>;
  /**
   * Where a pack's support files (`files/`) go, relative to the root (absent: `<pack>`). A
   * runtime whose project root is the project folder itself keeps them out of the project's own files.
   */
  supportDir?(scope: InstallScope, pack: string): string;
  /** Roots outside the runtime's folder, by scope (absolute paths). */
  extraRoots?: Partial<Record<InstallScope, Partial<Record<ExtraRootName, ExtraRootResolver>>>>;
  /**
   * Where each artifact kind goes, for the CLI version's edition (absent: the newest one). Only
   * config edits differ between editions; the folders never do.
   */
  layout(scope: InstallScope, edition?: ContractEdition): InstallLayout;
  /** The runtime's CLI, for the runtimes whose config depends on its version. */
  cli?: CliContract;
  /** Facts about loading that the install report repeats (trust prompts and such). */
  notes?(scope: InstallScope): readonly string[];
  /** This runtime's rows of the config contract registry (built on demand). */
  contract(): readonly ContractRow[];
}


export function isSkip(placement: object): placement is Skip {
  return "skip" in placement;
}
