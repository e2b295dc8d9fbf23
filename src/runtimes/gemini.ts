import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, unlessUnreadable } from "./adapter.js";
import { presentFile, presentText } from "./detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./detect/env.js";
import { dotenvHoldsKey } from "./detect/secret-rules.js";
import { contractRows, OWNS_OWN_ENTRIES, settingsHooks, WHEN_HOOKS } from "./install-surfaces.js";
import type { InstallSurface } from "./install-types.js";
import type { AuthStatus, DetectionContext, Runtime } from "./types.js";

/** In this order. */
export const GEMINI_ENV_KEYS = ["GEMINI_API_KEY", "GOOGLE_API_KEY"] as const;
export const GEMINI_SERVICE_ACCOUNT_VAR = "GOOGLE_APPLICATION_CREDENTIALS";
export const GEMINI_CREDENTIAL_FILES = ["gemini-credentials.json", "oauth_creds.json"] as const;

/** `$GEMINI_CLI_HOME/.gemini` (the variable names the parent of `.gemini`), else `~/.gemini`. */
export function geminiHome(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "GEMINI_CLI_HOME", ctx.home, ctx.cwd) ?? ctx.home, ".gemini");
}

/** gcloud's application default credentials: `$CLOUDSDK_CONFIG/…`, else `~/.config/gcloud/…`. */
export function geminiAdcPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "CLOUDSDK_CONFIG", ctx.home, ctx.cwd) ?? join(ctx.home, ".config", "gcloud"), "application_default_credentials.json");
}

// Gemini reads several stores; one it cannot read is simply not there.
function findGeminiAuth(ctx: DetectionContext): AuthStatus | undefined {
  const variable = firstSetEnvVar(ctx.env, GEMINI_ENV_KEYS);
  if (variable) return signedIn("env", variable);
  const serviceAccount = envPath(ctx.env, GEMINI_SERVICE_ACCOUNT_VAR, ctx.home, ctx.cwd);
  if (serviceAccount && unlessUnreadable(() => presentFile(ctx.files, serviceAccount))) return signedIn("env", GEMINI_SERVICE_ACCOUNT_VAR);
  const home = geminiHome(ctx);
  for (const name of GEMINI_CREDENTIAL_FILES) {
    const file = unlessUnreadable(() => presentFile(ctx.files, join(home, name)));
    if (file) return signedIn("external", file.shownPath);
  }
  const dotenv = unlessUnreadable(() => {
    const file = presentText(ctx.files, join(home, ".env"));
    return file && dotenvHoldsKey(file.text, new Set(GEMINI_ENV_KEYS)) ? file : undefined;
  });
  if (dotenv) return signedIn("external", dotenv.shownPath);
  const adc = unlessUnreadable(() => presentFile(ctx.files, geminiAdcPath(ctx)));
  if (adc) return signedIn("external", adc.shownPath);
  return undefined;
}

const GEMINI_CHECKED = "Gemini CLI 0.61.0, probed offline (`gemini skills list`; commands, agents and hooks through a loopback model server); bosun's pack checked with scripts/accept-install.mjs";

/** Gemini's own names for the hook events bosun knows. */
const GEMINI_HOOK_EVENTS = { "session-start": "SessionStart", "user-prompt": "BeforeAgent", "pre-tool": "BeforeTool", "post-tool": "AfterTool", stop: "AfterAgent" } as const;

const geminiInstall: InstallSurface = {
  globalRoot: { home: ".gemini", overrides: [{ env: "GEMINI_CLI_HOME", use: "join", path: ".gemini" }] },
  localRoot: ".gemini",
  cli: { binary: "gemini", editions: [{ since: "0.61.0", verified: ["0.61.0"], basis: "Gemini CLI 0.61.0, run offline" }] },
  layout: (scope) => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "gemini-toml" },
    agents: { dir: "agents", format: "gemini" },
    // Gemini 0.61 runs a hook command with a shell, HOME and GEMINI_PROJECT_DIR set (seen with the real CLI).
    hooks: { ...settingsHooks(["settings.json"], "gemini.hooks", GEMINI_HOOK_EVENTS, "ms"), ...(scope === "local" ? { projectDirVar: "GEMINI_PROJECT_DIR" } : {}) },
  }),
  notes: (scope) =>
    scope === "local"
      ? ["Gemini CLI ignores a project's skills, agents, commands and hooks until the folder is trusted (~/.gemini/trustedFolders.json, GEMINI_CLI_TRUST_WORKSPACE=true, or --skip-trust)"]
      : [],
  // Gemini's user skill folders are ~/.gemini/skills and ~/.agents/skills (both under GEMINI_CLI_HOME when set).
  alsoReadsSkills: (_scope, ctx) => [join(envPath(ctx.env, "GEMINI_CLI_HOME", ctx.home, ctx.cwd) ?? ctx.home, ".agents", "skills")],
  contract: () => contractRows("gemini", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, as is",
      global: "~/.gemini/skills ($GEMINI_CLI_HOME/.gemini/skills)",
      local: ".gemini/skills (trusted folders only)",
      why: "`gemini skills list` shows user skills from ~/.gemini/skills and, in a trusted folder, project skills",
      checkedAgainst: GEMINI_CHECKED,
    },
    commands: {
      surface: "commands/<name>.toml",
      what: "each command as TOML: `description`, and `prompt` with `$ARGUMENTS` turned into `{{args}}`",
      global: "~/.gemini/commands",
      local: ".gemini/commands (trusted folders only)",
      why: "Gemini expands a TOML command's `prompt` when the slash command is used (seen in the request body)",
      checkedAgainst: GEMINI_CHECKED,
    },
    agents: {
      surface: "agents/<name>.md",
      what: "each agent definition, markdown with `name` and `description` frontmatter (no `tools`: Gemini wants a list of its own tool names, and refuses the agent otherwise)",
      global: "~/.gemini/agents",
      local: ".gemini/agents (trusted folders only)",
      why: "Gemini sends the names of user and project agents to the model; `gemini skills list` reports agents it cannot load",
      checkedAgainst: GEMINI_CHECKED,
    },
    hooks: {
      surface: "settings.json: hooks",
      what: "one `{type: command, command, name, timeout (ms)}` group per pack hook under `hooks.<Event>` (SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent)",
      global: "~/.gemini/settings.json",
      local: ".gemini/settings.json (trusted folders only)",
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "the SessionStart hook in settings.json ran in the probe (it does not run while auth is missing)",
      checkedAgainst: GEMINI_CHECKED,
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: "~/.gemini/hooks",
      local: ".gemini/hooks",
      why: "only the hook command reads them",
      checkedAgainst: GEMINI_CHECKED,
    },
  }),
};

export const gemini: Runtime = {
  id: "gemini",
  title: "Gemini CLI",
  description: "Google's Gemini CLI, run headless with `gemini -p`.",
  binary: "gemini",
  installHint: "npm install -g @google/gemini-cli",
  loginHint: "set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_APPLICATION_CREDENTIALS)",
  headless: { values: { binary: "gemini", model: "" } },
  status: defineStatusAdapter({
    id: "gemini",
    binary: "gemini",
    authStatus: async (_config, ctx) => findGeminiAuth(ctx) ?? notSignedIn(geminiHome(ctx)),
  }),
  installSurface: geminiInstall,
};
