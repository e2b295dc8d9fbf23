import { join } from "node:path";
import { getInstallRuntime } from "../../runtimes/registry.js";
import { resolveGlobalRoot } from "../../runtimes/kit/install-roots.js";
import type { InstallScope, RootContext } from "../../runtimes/kit/install-types.js";
import type { InstallRuntime } from "../../runtimes/kit/types.js";
import { envPath } from "../../runtimes/kit/detect/env.js";

/**
 * What a runtime does with a skill it finds both in a folder it shares with other runtimes and
 * in one of its own (as each real CLI showed it): `twice` lists both copies (Codex); `warns`
 * loads the shared copy and prints "Skill conflict detected" at every start (Gemini CLI); `own`
 * silently uses its own copy and lists the skill once (OpenCode).
 */
export type DuplicateHandling = "twice" | "warns" | "own";

/** One folder of skills a runtime reads besides its own skill folder. */
export interface SharedSkillRead {
  runtime: string;
  scope: InstallScope;
  /** The folder, as the README shows it. */
  shown: string;
  /** The folder on this machine (absolute), or null when the runtime is told not to read it. */
  dir(ctx: RootContext): string | null;
  duplicates: DuplicateHandling;
  /** The real CLI and the command that showed it. */
  checked: string;
}

const CODEX_CHECKED = "Codex CLI 0.171.0: `codex debug prompt-input` lists both copies";
const GEMINI_CHECKED = "Gemini CLI 0.61.0: `gemini skills list` prints \"Skill conflict detected\" and shows the shared copy";
const OPENCODE_CHECKED = "OpenCode 1.18.33: `opencode debug skill` lists the skill once, from its own folder";

const home = (...parts: string[]) => (ctx: RootContext) => join(ctx.home, ...parts);
const project = (...parts: string[]) => (ctx: RootContext) => join(ctx.cwd, ...parts);
const geminiHome = (ctx: RootContext) => join(envPath(ctx.env, "GEMINI_CLI_HOME", ctx.home, ctx.cwd) ?? ctx.home, ".agents", "skills");
// Codex's global folder, where bosun puts its global commands (as skills).
const codexHome = (ctx: RootContext) => join(resolveGlobalRoot(getInstallRuntime("codex").installSurface.globalRoot, ctx).dir, "skills");
// OpenCode reads Claude Code's and the shared folders unless its variables turn them off.
const opencodeExternal = (dir: (ctx: RootContext) => string, claude: boolean) => (ctx: RootContext) => {
  if (ctx.env.OPENCODE_DISABLE_EXTERNAL_SKILLS) return null;
  if (claude && ctx.env.OPENCODE_DISABLE_CLAUDE_CODE_SKILLS) return null;
  return dir(ctx);
};

/**
 * Every skill folder a runtime reads besides the one bosun installs its skills into: the one
 * table the planner (who skips a copy it would show twice, and what an uninstall must keep),
 * `bosun install --status` (a skill read from elsewhere that is gone) and the README use.
 */
export const SHARED_SKILL_READS: readonly SharedSkillRead[] = [
  { runtime: "codex", scope: "local", shown: "$CODEX_HOME/skills", dir: codexHome, duplicates: "twice", checked: CODEX_CHECKED },
  { runtime: "codex", scope: "local", shown: "~/.agents/skills", dir: home(".agents", "skills"), duplicates: "twice", checked: CODEX_CHECKED },
  { runtime: "codex", scope: "local", shown: ".agents/skills", dir: project(".agents", "skills"), duplicates: "twice", checked: CODEX_CHECKED },
  { runtime: "gemini", scope: "global", shown: "~/.agents/skills ($GEMINI_CLI_HOME/.agents/skills)", dir: geminiHome, duplicates: "warns", checked: GEMINI_CHECKED },
  { runtime: "gemini", scope: "local", shown: "~/.agents/skills ($GEMINI_CLI_HOME/.agents/skills)", dir: geminiHome, duplicates: "warns", checked: GEMINI_CHECKED },
  { runtime: "gemini", scope: "local", shown: ".agents/skills (trusted folders only)", dir: project(".agents", "skills"), duplicates: "warns", checked: GEMINI_CHECKED },
  { runtime: "opencode", scope: "global", shown: "~/.claude/skills", dir: opencodeExternal(home(".claude", "skills"), true), duplicates: "own", checked: OPENCODE_CHECKED },
  { runtime: "opencode", scope: "global", shown: "~/.agents/skills", dir: opencodeExternal(home(".agents", "skills"), false), duplicates: "own", checked: OPENCODE_CHECKED },
  { runtime: "opencode", scope: "local", shown: "~/.claude/skills", dir: opencodeExternal(home(".claude", "skills"), true), duplicates: "own", checked: OPENCODE_CHECKED },
  { runtime: "opencode", scope: "local", shown: "~/.agents/skills", dir: opencodeExternal(home(".agents", "skills"), false), duplicates: "own", checked: OPENCODE_CHECKED },
  { runtime: "opencode", scope: "local", shown: ".claude/skills", dir: opencodeExternal(project(".claude", "skills"), true), duplicates: "own", checked: OPENCODE_CHECKED },
  { runtime: "opencode", scope: "local", shown: ".agents/skills", dir: opencodeExternal(project(".agents", "skills"), false), duplicates: "own", checked: OPENCODE_CHECKED },
];

/** The shared folders a runtime reads in a scope that make it skip its own copy (it would show the skill twice, or warn). */
export function skippingReads(runtime: Pick<InstallRuntime, "id">, scope: InstallScope, ctx: RootContext): string[] {
  const dirs: string[] = [];
  for (const read of SHARED_SKILL_READS) {
    if (read.runtime !== runtime.id || read.scope !== scope || read.duplicates === "own") continue;
    const dir = read.dir(ctx);
    if (dir !== null && !dirs.includes(dir)) dirs.push(dir);
  }
  return dirs;
}

/** Every runtime and scope that reads `dir` and would skip its own copy of a skill found there. */
export function skippingReadersOf(dir: string, ctx: RootContext): { runtime: string; scope: InstallScope }[] {
  return SHARED_SKILL_READS.filter((read) => read.duplicates !== "own" && read.dir(ctx) === dir).map((read) => ({ runtime: read.runtime, scope: read.scope }));
}
