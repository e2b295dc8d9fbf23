import { oneLine } from "../runtimes/kit/probe-error.js";

/** One artifact as an agent's CLI lists it. `path` only where the CLI says where it loaded it from. */
export interface ListedItem {
  name: string;
  path?: string;
  /** false: listed but switched off (Codex `enabled: false`, Gemini `[Disabled]`). */
  enabled?: boolean;
  /** An MCP server the CLI tried to start and could not: what it said. */
  failed?: string;
  /** An MCP server the CLI has but starts only once you allow it (Gemini: in a trusted folder): what to do. */
  waiting?: string;
}

/** A hook as the CLI lists it, or as it saw it run. */
export interface ListedHook {
  event: string;
  command?: string;
  sourcePath?: string;
  /** Codex runs a hook only once you trust it; false = waits for that. */
  trusted?: boolean;
  enabled?: boolean;
  /** Claude's headless start runs the hooks: what the run said. */
  ran?: { ok: boolean; exitCode: number | null; printedBosunLine: boolean };
}

/** A problem the CLI itself reported about one file (a skill's frontmatter, an agent file). */
export interface ListedError {
  path?: string;
  name?: string;
  kind?: "skill" | "command" | "agent";
  message: string;
}

/**
 * What one agent's CLI says it loaded. A kind left undefined is one the CLI has no offline list of
 * (Gemini has no list of commands or agents): its artifacts are "not checked", not "missing".
 */
export interface CliListing {
  skills?: ListedItem[];
  commands?: ListedItem[];
  agents?: ListedItem[];
  hooks?: ListedHook[];
  /** The MCP servers it has (user and project), by name. */
  mcpServers?: ListedItem[];
  /** The CLI lists commands among its skills (Codex installs them as skills). */
  commandsAsSkills?: boolean;
  errors: ListedError[];
  /** The CLI said it skipped the project's artifacts because the folder is not trusted. */
  untrustedFolder?: boolean;
  /** The CLI lists a project's hooks only once the project is trusted (Codex). */
  projectHooksNeedTrust?: boolean;
  /**
   * The only events whose hooks `hooks` can show (Claude lists no hooks; it runs its SessionStart
   * ones before its init event): a hook on another event is not checkable offline. Undefined: all.
   */
  hookEvents?: string[];
}

/**
 * Text a CLI printed, fit for one line of bosun's report: escapes and control characters gone,
 * cut short. Only short parsed fields (a reason, a message) ever go through here; a CLI's output
 * as a whole is never shown.
 */
export function cliText(text: unknown, max = 160): string {
  return oneLine(String(text ?? ""), max);
}

/** Each line of `text` that is one JSON object (others are skipped: a CLI may mix in warnings). */
export function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isObject(value)) out.push(value);
    } catch {
      // not JSON: skipped
    }
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The strings of an array (other entries dropped); [] for anything else. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}
