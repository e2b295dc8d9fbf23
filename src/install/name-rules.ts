import type { InstallRuntime } from "../runtimes/kit/types.js";
import { PackError } from "./pack/pack-error.js";

/**
 * The artifact kinds whose names a runtime reads (a hook's name only names bosun's own files and
 * config entries, so a dotted hook name goes everywhere).
 */
export type NamedKind = "skill" | "command" | "agent";

/**
 * The runtimes (and artifact kinds) that take a dotted name such as `gsd-planner.compact`,
 * checked against the real CLIs: Claude Code 2.1.197 names agents by their frontmatter `name`
 * and skills and commands by their file or folder name, with no rule against dots; OpenCode
 * 1.18.33 names agents and commands by their file name and lists skills by their frontmatter
 * name; Gemini CLI 0.61.0 refuses an agent whose name is not `[a-z0-9-_]+` and takes any skill
 * or command name; Codex 0.171 lists skills (and commands, as skills) by their SKILL.md `name`
 * (test/real/contract-dotted-names.test.ts). A runtime not listed has not been checked, so it
 * gets no dotted names.
 */
const DOTTED: Readonly<Record<string, readonly NamedKind[]>> = {
  claude: ["skill", "command", "agent"],
  opencode: ["skill", "command", "agent"],
  gemini: ["skill", "command"],
  codex: ["skill", "command"],
};

/** Throws one `PackError` naming the artifact, the runtime and the fix when the runtime cannot take a dotted name. */
export function checkArtifactName(runtime: InstallRuntime, kind: NamedKind, name: string, file: string): void {
  if (!name.includes(".")) return;
  if (DOTTED[runtime.id]?.includes(kind)) return;
  const why = runtime.id === "gemini" && kind === "agent" ? "Gemini CLI refuses agent names that are not letters, digits, '-' and '_'" : `bosun has not found that ${runtime.title} takes a dot in ${kind} names`;
  throw new PackError(file, `${kind} ${name}: ${why}; rename it without the dot, or install without --runtime ${runtime.id}`);
}

/**
 * An agent variant (`gsd-planner.compact`, whose frontmatter names it as its base agent
 * `gsd-planner`) for a runtime that takes no dots in agent names: the reason it is skipped there
 * (the base agent is installed instead); null when it installs, or is not such a variant (then
 * `checkArtifactName` decides).
 */
export function variantSkip(runtime: InstallRuntime, name: string, frontmatterName: string | undefined, agents: readonly string[]): string | null {
  if (!name.includes(".") || DOTTED[runtime.id]?.includes("agent")) return null;
  const base = name.slice(0, name.indexOf("."));
  if (frontmatterName !== base || !agents.includes(base)) return null;
  return `${runtime.title} takes no dots in agent names; ${name} is a variant of agent ${base}, which is installed`;
}
