import { z } from "zod";
import { lineOfKey } from "./frontmatter.js";
import { PackError } from "./pack-error.js";

/** The artifact kinds with frontmatter. */
export type FrontmatterKind = "skill" | "command" | "agent";

/**
 * One frontmatter key a runtime knows: which runtimes take it (`all`: every runtime, in the form
 * its converter writes), its type (null: checked by the pack schema, with the required keys),
 * and what it is for (the README's table).
 */
export interface FrontmatterKey {
  key: string;
  runtimes: "all" | readonly string[];
  type: z.ZodType | null;
  about: string;
}

/**
 * The runtime whose format is bosun's canonical one: a file whose keys all pass to it is written
 * byte for byte as in the pack (path variables resolved).
 */
export const CANONICAL_RUNTIME = "claude";

const text = z.string();
const flag = z.boolean();
const list = z.union([z.string(), z.array(z.string())]);
const whole = z.number().int();
const CLAUDE = ["claude"] as const;

/** Keys of Claude Code 2.1's skill and command schema beyond the canonical ones. */
const CLAUDE_PROMPT_KEYS: FrontmatterKey[] = [
  { key: "disable-model-invocation", runtimes: CLAUDE, type: flag, about: "only the user can run it" },
  { key: "user-invocable", runtimes: CLAUDE, type: flag, about: "false: only the model can run it" },
  { key: "effort", runtimes: CLAUDE, type: z.union([text, z.number()]), about: "thinking effort" },
  { key: "when_to_use", runtimes: CLAUDE, type: text, about: "when the model should use it" },
  { key: "context", runtimes: CLAUDE, type: text, about: "`fork`: runs in a sub-agent" },
  { key: "agent", runtimes: CLAUDE, type: text, about: "the sub-agent a forked skill runs in" },
  { key: "paths", runtimes: CLAUDE, type: list, about: "files it applies to" },
  { key: "shell", runtimes: CLAUDE, type: text, about: "shell of its `!` blocks" },
];

/**
 * Which frontmatter keys pass to which runtime, per artifact kind. Checked against the real CLIs:
 * Claude Code 2.1.197 (its skill/command and agent schemas; it ignores other keys), OpenCode
 * 1.18.33 (its agent schema; `color` must be a hex code or a theme name there, so Claude's color
 * names are not passed), Gemini CLI 0.61.0 (reads only `name` and `description` of a skill; its
 * agent schema is strict and refuses any other key). A key no runtime knows is a warning and is
 * left out everywhere; a known key with a wrong type is an error.
 */
export const FRONTMATTER_KEYS: Readonly<Record<FrontmatterKind, readonly FrontmatterKey[]>> = {
  skill: [
    { key: "name", runtimes: "all", type: null, about: "the folder's name (required)" },
    { key: "description", runtimes: "all", type: null, about: "required" },
    { key: "license", runtimes: "all", type: null, about: "Agent Skills key" },
    { key: "compatibility", runtimes: "all", type: null, about: "Agent Skills key" },
    { key: "metadata", runtimes: "all", type: null, about: "Agent Skills key" },
    { key: "allowed-tools", runtimes: "all", type: null, about: "Agent Skills key" },
    { key: "argument-hint", runtimes: CLAUDE, type: text, about: "shown after the slash command" },
    { key: "model", runtimes: CLAUDE, type: text, about: "model override" },
    ...CLAUDE_PROMPT_KEYS,
  ],
  command: [
    { key: "description", runtimes: "all", type: null, about: "required" },
    { key: "argument-hint", runtimes: "all", type: null, about: "where the format has it" },
    { key: "allowed-tools", runtimes: "all", type: null, about: "where the format has it" },
    { key: "model", runtimes: "all", type: null, about: "where the format has it" },
    ...CLAUDE_PROMPT_KEYS,
  ],
  agent: [
    { key: "name", runtimes: "all", type: null, about: "the file's name" },
    { key: "description", runtimes: "all", type: null, about: "required" },
    { key: "tools", runtimes: "all", type: null, about: "not for OpenCode, Gemini CLI, Qwen Code (their own tool names)" },
    { key: "model", runtimes: "all", type: null, about: "model override" },
    { key: "color", runtimes: CLAUDE, type: text, about: "colour in the agents list" },
    { key: "effort", runtimes: CLAUDE, type: z.union([text, z.number()]), about: "thinking effort" },
    { key: "disallowedTools", runtimes: CLAUDE, type: list, about: "tools taken away" },
    { key: "permissionMode", runtimes: CLAUDE, type: text, about: "permission mode it runs in" },
    { key: "skills", runtimes: CLAUDE, type: list, about: "skills preloaded" },
    { key: "hooks", runtimes: CLAUDE, type: z.record(z.string(), z.unknown()), about: "hooks while it runs" },
    { key: "mcpServers", runtimes: CLAUDE, type: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]), about: "MCP servers while it runs" },
    { key: "maxTurns", runtimes: CLAUDE, type: whole, about: "turn limit" },
    { key: "memory", runtimes: CLAUDE, type: text, about: "memory scope" },
    { key: "background", runtimes: CLAUDE, type: flag, about: "runs in the background" },
    { key: "isolation", runtimes: CLAUDE, type: text, about: "`worktree`" },
    { key: "initialPrompt", runtimes: CLAUDE, type: text, about: "first message as the main agent" },
    { key: "temperature", runtimes: ["opencode", "gemini"], type: z.number(), about: "sampling temperature" },
    { key: "top_p", runtimes: ["opencode"], type: z.number(), about: "sampling top-p" },
    { key: "steps", runtimes: ["opencode"], type: whole, about: "step limit" },
    { key: "hidden", runtimes: ["opencode"], type: flag, about: "hidden from @ completion" },
    { key: "max_turns", runtimes: ["gemini"], type: whole, about: "turn limit" },
    { key: "timeout_mins", runtimes: ["gemini"], type: whole, about: "time limit" },
  ],
};

function ruleOf(kind: FrontmatterKind, key: string): FrontmatterKey | undefined {
  return FRONTMATTER_KEYS[kind].find((rule) => rule.key === key);
}

/** True when the runtime takes the key (a key no runtime knows passes nowhere). */
export function passesTo(kind: FrontmatterKind, key: string, runtime: string): boolean {
  const rule = ruleOf(kind, key);
  return rule !== undefined && (rule.runtimes === "all" || rule.runtimes.includes(runtime));
}

/** True when some runtime knows the key (one no runtime knows is a load warning, not a plan note). */
export function isKnownKey(kind: FrontmatterKind, key: string): boolean {
  return ruleOf(kind, key) !== undefined;
}

/** The keys bosun checks with the pack schema (the canonical ones, required or not). */
export function isSchemaKey(kind: FrontmatterKind, key: string): boolean {
  return ruleOf(kind, key)?.type === null;
}

/**
 * Checks the keys beyond the canonical ones: a known key of the wrong type is a `PackError`
 * with its line; a key no runtime knows is a warning line naming the file and key. Returns the
 * known extra keys' values and the warnings.
 */
export function checkExtraKeys(kind: FrontmatterKind, data: Record<string, unknown>, file: string, source: string): { extras: Record<string, unknown>; warnings: string[] } {
  const extras: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const rule = ruleOf(kind, key);
    if (rule?.type === null) continue;
    if (!rule) {
      warnings.push(`${file}:${lineOfKey(source, key)}: frontmatter key ${key} is known to no runtime bosun installs into; it is left out (check its spelling)`);
      continue;
    }
    const checked = rule.type.safeParse(value);
    if (!checked.success) throw new PackError(file, `has the wrong type: ${checked.error.issues[0]?.message.replace(/^Invalid input: /, "") ?? "not valid"}`, lineOfKey(source, key), key);
    extras[key] = value;
  }
  return { extras, warnings };
}

/** The frontmatter keys of an artifact the runtime does not take (in file order). */
export function droppedKeys(kind: FrontmatterKind, keys: readonly string[], runtime: string): string[] {
  return keys.filter((key) => !passesTo(kind, key, runtime));
}

/** The extra keys (beyond the canonical ones) that pass to the runtime, with their values. */
export function passingExtras(kind: FrontmatterKind, extras: Record<string, unknown>, runtime: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extras).filter(([key]) => passesTo(kind, key, runtime)));
}

/**
 * A markdown file's text without some top-level frontmatter keys: each key's line and the lines
 * that continue its value (indented, or `- ` items) are taken out; every other byte stays.
 */
export function withoutKeys(source: string, keys: readonly string[]): string {
  if (keys.length === 0) return source;
  const lines = source.split(/(?<=\n)/);
  const out: string[] = [];
  let inFront = false;
  let dropping = false;
  for (const [index, line] of lines.entries()) {
    const bare = line.replace(/\r?\n$/, "");
    if (index === 0 || !inFront) {
      if (index === 0 && /^\uFEFF?---[ \t]*$/.test(bare)) inFront = true;
      out.push(line);
      continue;
    }
    if (/^---[ \t]*$/.test(bare)) {
      inFront = false;
      out.push(line);
      continue;
    }
    if (dropping && (/^[ \t]/.test(bare) || bare.startsWith("- ") || bare === "-")) continue;
    dropping = keys.some((key) => bare.startsWith(`${key}:`));
    if (!dropping) out.push(line);
  }
  return out.join("");
}
