import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./adapter.js";
import { presentText } from "./detect/file-reader.js";
import { codePointSorted, envPath, firstSetEnvVar } from "./detect/env.js";
import { jsonHoldsSecret, parseJson } from "./detect/secret-rules.js";
import { contractRows } from "./install-surfaces.js";
import type { InstallSurface } from "./install-types.js";
import type { DetectionContext, Runtime } from "./types.js";

/** Provider keys OpenCode picks up from the environment (checked in code-point order). */
export const OPENCODE_ENV_KEYS: ReadonlySet<string> = new Set([
  "ANTHROPIC_API_KEY",
  "DEEPSEEK_API_KEY",
  "GEMINI_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GOOGLE_API_KEY",
  "GROQ_API_KEY",
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "XAI_API_KEY",
]);
export const OPENCODE_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "refresh_token", "token"]);

/** `$XDG_DATA_HOME/opencode/auth.json`, else `~/.local/share/opencode/auth.json`. */
export function opencodeAuthPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "XDG_DATA_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".local", "share"), "opencode", "auth.json");
}

const OPENCODE_CHECKED = "OpenCode 1.18.33, probed offline (`opencode debug config`, `debug skill`, `agent list`), bosun's pack with scripts/accept-install.mjs";

const opencodeInstall: InstallSurface = {
  globalRoot: {
    home: ".config/opencode",
    overrides: [
      { env: "OPENCODE_CONFIG_DIR", use: "dir" },
      { env: "OPENCODE_CONFIG", use: "dirname" },
      { env: "XDG_CONFIG_HOME", use: "join", path: "opencode" },
    ],
  },
  localRoot: ".opencode",
  cli: { binary: "opencode", editions: [{ since: "1.18.33", verified: ["1.18.33"], basis: "OpenCode 1.18.33, run offline" }] },
  layout: () => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "markdown" },
    agents: { dir: "agents", format: "opencode" },
    // Its hooks are JS plugins (and a local plugin makes OpenCode install npm packages in its config
    // folder at every start); the config's experimental.hook commands are dropped by 1.18.
    hooks: { skip: "OpenCode runs hooks only as JS plugins (its config's experimental.hook is ignored by 1.18), so bosun registers none" },
  }),
  // OpenCode also loads ~/.claude/skills and ~/.agents/skills unless told not to.
  alsoReadsSkills: (_scope, ctx) => {
    if (ctx.env.OPENCODE_DISABLE_EXTERNAL_SKILLS) return [];
    const claude = ctx.env.OPENCODE_DISABLE_CLAUDE_CODE_SKILLS ? [] : [join(ctx.home, ".claude", "skills")];
    return [...claude, join(ctx.home, ".agents", "skills")];
  },
  contract: () => contractRows("opencode", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, unless Claude Code's or Codex's copy (which OpenCode also reads) is installed",
      global: "~/.config/opencode/skills",
      local: ".opencode/skills",
      why: "`opencode debug skill` lists skill(s)/ folders and also ~/.claude/skills and ~/.agents/skills, so a second copy would show up twice",
      checkedAgainst: OPENCODE_CHECKED,
    },
    commands: {
      surface: "commands/<name>.md",
      what: "each command, markdown with `description` frontmatter; `$ARGUMENTS` kept",
      global: "~/.config/opencode/commands",
      local: ".opencode/commands",
      why: "`opencode debug config` shows command/ and commands/ entries as `{description, template}`",
      checkedAgainst: OPENCODE_CHECKED,
    },
    agents: {
      surface: "agents/<name>.md",
      what: "each agent definition with `description` and `mode: subagent` frontmatter",
      global: "~/.config/opencode/agents",
      local: ".opencode/agents",
      why: "`opencode agent list` shows agent/ and agents/ definitions; broken frontmatter silently becomes the prompt, so bosun validates it first",
      checkedAgainst: OPENCODE_CHECKED,
    },
  }),
};

export const opencode: Runtime = {
  id: "opencode",
  title: "OpenCode",
  description: "The OpenCode terminal agent, run headless with `opencode run`.",
  binary: "opencode",
  installHint: "curl -fsSL https://opencode.ai/install | bash",
  loginHint: "opencode auth login",
  headless: { values: { binary: "opencode", model: "", agent: "", auto: true } },
  status: defineStatusAdapter({
    id: "opencode",
    binary: "opencode",
    authStatus: (_config, ctx) =>
      stopOnReadError(() => {
        const variable = firstSetEnvVar(ctx.env, codePointSorted(OPENCODE_ENV_KEYS));
        if (variable) return signedIn("env", variable);
        const path = opencodeAuthPath(ctx);
        const file = presentText(ctx.files, path);
        const parsed = file && parseJson(file.text);
        if (file && parsed && jsonHoldsSecret(parsed.value, OPENCODE_SECRET_KEYS)) return signedIn("external", file.shownPath);
        return notSignedIn(path);
      }),
  }),
  installSurface: opencodeInstall,
};
