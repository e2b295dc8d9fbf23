import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, runtimeDataDir, signedIn, unlessUnreadable } from "./adapter.js";
import { envPath } from "./detect/env.js";
import { presentText, type FileReader } from "./detect/file-reader.js";
import { parseJson } from "./detect/secret-rules.js";
import { CLAUDE_HOOK_EVENTS, contractRows, OWNS_OWN_ENTRIES, settingsHooks, WHEN_HOOKS } from "./install-surfaces.js";
import type { InstallSurface } from "./install-types.js";
import type { DetectionContext, Runtime } from "./types.js";

export const CODEX_AUTH_FILE = "auth.json";

/** bosun's own Codex login (device login writes it; `CODEX_HOME=<that folder>` makes Codex use it). */
export function codexPluginAuthPath(ctx: Pick<DetectionContext, "dataDir">): string {
  return join(runtimeDataDir(ctx, "codex"), CODEX_AUTH_FILE);
}

/** Codex's own login: `$CODEX_HOME/auth.json`, else `~/.codex/auth.json`. */
export function codexExternalAuthPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "CODEX_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".codex"), CODEX_AUTH_FILE);
}

/**
 * A ChatGPT login: the file is a JSON object whose `tokens` object has a truthy `access_token`
 * and `refresh_token`. An API key alone does not count; an unreadable or invalid file is no login.
 * Answers the path to show (the real one for a symlink).
 */
function chatgptTokensAt(files: FileReader, path: string): string | undefined {
  return unlessUnreadable(() => {
    const file = presentText(files, path);
    const parsed = file && parseJson(file.text);
    if (!parsed || !isObject(parsed.value)) return undefined;
    const tokens = parsed.value.tokens;
    if (!isObject(tokens) || !pythonTruthy(tokens.access_token) || !pythonTruthy(tokens.refresh_token)) return undefined;
    return file.shownPath;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Codex's rule came from Python: empty strings, zero, empty lists and objects are all "no".
function pythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

const status = defineStatusAdapter({
  id: "codex",
  binary: "codex",
  supportsDeviceLogin: true,
  // OPENAI_API_KEY in the environment is not a Codex login, so no variable is checked.
  async authStatus(_config, ctx) {
    const plugin = chatgptTokensAt(ctx.files, codexPluginAuthPath(ctx));
    if (plugin) return signedIn("plugin", plugin);
    const external = chatgptTokensAt(ctx.files, codexExternalAuthPath(ctx));
    if (external) return signedIn("external", external);
    return notSignedIn("");
  },
  // bosun's own file first: with both stores present, one disconnect removes only bosun's.
  async planDisconnect(config, ctx) {
    const auth = await status.authStatus(config, ctx);
    if (auth.mode === "plugin") return { action: "remove-file", mode: "plugin", path: codexPluginAuthPath(ctx) };
    if (auth.mode === "external") {
      const file = codexExternalAuthPath(ctx);
      return { action: "run-logout", mode: "external", command: status.resolveBinary(config, ctx), args: ["logout"], authPath: auth.authPath, secretFiles: [file] };
    }
    return { action: "none", reason: "no Codex credentials found" };
  },
});

const CODEX_CHECKED = "Codex CLI 0.171.0, probed offline (`codex debug prompt-input`, app-server skills/list and hooks/list), bosun's pack with scripts/accept-install.mjs";

const codexInstall: InstallSurface = {
  globalRoot: { home: ".codex", overrides: [{ env: "CODEX_HOME", use: "dir" }] },
  localRoot: ".codex",
  // Codex reads user skills from ~/.agents/skills (outside CODEX_HOME); bosun keeps a second root there.
  extraRoots: { global: { "agents-home": (ctx) => join(ctx.home, ".agents") } },
  layout: (scope) => {
    const root = scope === "global" ? ({ root: "agents-home" } as const) : {};
    return {
      skills: { dir: "skills", ...root },
      // Commands become skills in Codex's own folder: Gemini CLI and OpenCode read ~/.agents/skills
      // too, and would list each command twice (as their own command, and as a skill).
      commands: { dir: "skills", format: "skill" },
      agents: { skip: "Codex 0.171 has no agent definition files bosun can rely on" },
      hooks: {
        ...settingsHooks(["hooks.json"], "codex.hooks", CLAUDE_HOOK_EVENTS),
        toml: { file: "config.toml", lines: ["features.codex_hooks = true"], satisfiedBy: { path: ["features", "codex_hooks"], value: true }, contract: "codex.features" },
      },
    };
  },
  notes: (scope) => [
    "Codex runs a new or changed hook only after you trust it (it asks at start: \"Hooks need review\"); until then bosun's hooks do not run",
    ...(scope === "local" ? ["Codex reads a project's .codex/hooks.json and config.toml only in a trusted project ([projects.\"<path>\"] trust_level = \"trusted\" in ~/.codex/config.toml)"] : []),
  ],
  contract: () => contractRows("codex", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, and each command as a skill folder",
      global: "skills: ~/.agents/skills (not under $CODEX_HOME); commands: $CODEX_HOME/skills",
      local: ".codex/skills",
      why: "Codex loads $CODEX_HOME/skills, ~/.agents/skills and <repo>/.codex/skills; 0.17x no longer reads prompts/, so commands become skills (`$name` in the composer), kept out of ~/.agents/skills where Gemini CLI and OpenCode would see them as skills beside their own commands",
      checkedAgainst: CODEX_CHECKED,
    },
    hooks: {
      surface: "hooks.json: hooks",
      what: "one `{type: command, command, timeout}` group per pack hook under `hooks.<Event>`",
      global: "$CODEX_HOME/hooks.json (~/.codex)",
      local: ".codex/hooks.json (read only in a trusted project)",
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "Codex lists ~/.codex/hooks.json hooks (hooks/list) and runs them once the user has trusted them",
      checkedAgainst: CODEX_CHECKED,
    },
    features: {
      surface: "config.toml: marked block",
      what: "`features.codex_hooks = true` in a block between `# >>> bosun` and `# <<< bosun` markers at the top of the file, while bosun has hooks there",
      global: "$CODEX_HOME/config.toml",
      local: ".codex/config.toml",
      when: "written with the first hook, removed with the last; skipped when the file already sets it",
      owner: "yours; bosun owns only the text between its markers",
      why: "Codex's hooks documentation puts hooks behind this feature flag; unknown keys are accepted by 0.171, so the flag is harmless where it is no longer needed",
      checkedAgainst: "Codex hooks documentation (developers.openai.com/codex/hooks); config accepted by 0.171.0",
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: "$CODEX_HOME/hooks",
      local: ".codex/hooks",
      why: "only the hook command reads them",
      checkedAgainst: CODEX_CHECKED,
    },
  }),
};

export const codex: Runtime = {
  id: "codex",
  title: "OpenAI Codex CLI",
  description: "OpenAI Codex CLI for autonomous coding tasks in a working folder.",
  binary: "codex",
  installHint: "npm install -g @openai/codex",
  loginHint: "bosun agents login codex (or codex login)",
  pluginLoginHint: (dataDir) => `start Codex with CODEX_HOME=${dataDir} to use it`,
  headless: { values: { binary: "codex", model: "", bypass_sandbox: true } },
  status,
  installSurface: codexInstall,
};
