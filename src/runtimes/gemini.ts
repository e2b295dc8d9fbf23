import { basename, join } from "node:path";
import { GEMINI_HOOK_EVENTS, GEMINI_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import { defineStatusAdapter } from "./kit/adapter.js";
import { GEMINI_OAUTH_FILE, geminiAuthStatus } from "./gemini-auth.js";
import { geminiCredentialLocations } from "./gemini-credential-locations.js";
import { geminiDir } from "./gemini-settings.js";
import { contractRows, OWNS_OWN_ENTRIES, settingsHooks, WHEN_HOOKS } from "./kit/install-surfaces.js";
import { mcpPlacement, mcpRow } from "./kit/mcp-places.js";
import type { InstallSurface } from "./kit/install-types.js";
import type { DetectionContext, DisconnectPlan, InstallRuntime, StatusRuntime, RuntimeConfig } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

/** The variables Gemini's sign-in reads a key from (GOOGLE_API_KEY only for Vertex AI). */
export { GEMINI_ENV_KEYS } from "./gemini-auth.js";

/** `$GEMINI_CLI_HOME/.gemini` (the variable names the parent of `.gemini`), else `~/.gemini`. */
export const geminiHome = geminiDir;

/**
 * Only a cached Google login can be removed exactly: `oauth_creds.json`, while it is what Gemini
 * signs in with. Keys in variables or `.env` files, Vertex AI and Compute Engine credentials are
 * the user's to remove.
 */
async function planGeminiDisconnect(_config: RuntimeConfig, ctx: DetectionContext): Promise<DisconnectPlan> {
  const status = geminiAuthStatus(ctx);
  if (status.connected && status.mode === "external" && basename(status.authPath) === GEMINI_OAUTH_FILE) {
    return { action: "remove-file", mode: "external", path: join(geminiHome(ctx), GEMINI_OAUTH_FILE) };
  }
  if (!status.connected) return { action: "none", reason: status.error ?? "Gemini CLI is not signed in" };
  const where = status.mode === "env" ? `the ${status.authPath} variable` : status.authPath;
  return { action: "none", reason: `Gemini CLI signs in with ${where}, which bosun does not remove; unset or edit it yourself` };
}

const GEMINI_CHECKED = "Gemini CLI 0.61.0, probed offline (`gemini skills list`; commands, agents and hooks through a loopback model server); bosun's pack checked with scripts/accept-install.mjs";


const geminiInstall: InstallSurface = {
  globalRoot: { home: ".gemini", overrides: [{ env: "GEMINI_CLI_HOME", use: "join", path: ".gemini" }] },
  localRoot: ".gemini",
  cli: { binary: "gemini", editions: [{ since: "0.61.0", verified: ["0.61.0"], basis: "Gemini CLI 0.61.0, run offline" }] },
  layout: (scope) => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "gemini-toml" },
    agents: { dir: "agents", format: "gemini" },
    // Gemini 0.61 runs a hook command with a shell, HOME and GEMINI_PROJECT_DIR set (seen with the real CLI).
    hooks: { ...settingsHooks(["settings.json"], "gemini.hooks", GEMINI_HOOK_EVENTS, "ms", "json"), ...(scope === "local" ? { projectDirVar: "GEMINI_PROJECT_DIR" } : {}) },
    // What its settings schema has (SETTINGS_SCHEMA in the 0.61.0 bundle): none of the three.
    settings: {
      skip: "Gemini CLI 0.61's settings have no status line command (its footer shows fixed items) and no environment variables (it reads .env files), and its tools.allowed / tools.exclude name its own tools, not Claude Code's permission rules",
    },
    mcp: mcpPlacement("settings.json", ["mcpServers"], "gemini", "gemini.mcp"),
  }),
  notes: (scope) =>
    scope === "local"
      ? ["Gemini CLI ignores a project's skills, agents, commands and hooks until the folder is trusted (~/.gemini/trustedFolders.json, GEMINI_CLI_TRUST_WORKSPACE=true, or --skip-trust)"]
      : [],
  contract: () => [...mcpRow("gemini", {
    surface: "settings.json: mcpServers",
    what: "each MCP server of the pack as `{command, args, env, cwd, timeout}` or `{httpUrl, headers}`; secrets as `${NAME}` references, which Gemini CLI expands",
    global: "~/.gemini/settings.json",
    local: ".gemini/settings.json (trusted folders only: in an untrusted one Gemini CLI starts no MCP server at all)",
    why: "`gemini mcp list` lists the servers of both settings files and starts them to check",
    checkedAgainst: "Gemini CLI 0.61.0: `gemini mcp list` connected to a stdio server bosun wrote (test/real/mcp-real.test.ts)",
  }), ...contractRows("gemini", {
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
      what: "one `{type: command, command, name, timeout (ms)}` group per pack hook under `hooks.<Event>` (Gemini's own event names: BeforeAgent, BeforeTool, PreCompress…)",
      global: "~/.gemini/settings.json",
      local: ".gemini/settings.json (trusted folders only)",
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "the SessionStart hook in settings.json ran in the probe (it does not run while auth is missing)",
      checkedAgainst: `${GEMINI_CHECKED}; events: ${GEMINI_HOOK_EVENTS_SOURCE}`,
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: "~/.gemini/hooks",
      local: ".gemini/hooks",
      why: "only the hook command reads them",
      checkedAgainst: GEMINI_CHECKED,
    },
  })],
};

export const gemini: StatusRuntime & InstallRuntime = {
  id: "gemini",
  title: "Gemini CLI",
  description: "Google's Gemini CLI, run headless with `gemini -p`.",
  binary: "gemini",
  installHint: "npm install -g @google/gemini-cli",
  loginHint: "run gemini and sign in with Google, or set GEMINI_API_KEY (Vertex AI: GOOGLE_GENAI_USE_VERTEXAI=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or GOOGLE_API_KEY)",
  headless: { values: { binary: "gemini", model: "", delegate: "read-only" }, choices: { delegate: DELEGATE_MODES } },
  status: defineStatusAdapter({
    id: "gemini",
    binary: "gemini",
    authStatus: async (_config, ctx) => geminiAuthStatus(ctx),
    planDisconnect: planGeminiDisconnect,
    credentialLocations: (_config, ctx) => geminiCredentialLocations(ctx),
  }),
  signInVerifiedAgainst: "gemini 0.61.0 (gemini -p passes its auth check offline; a Google login by its cached file only)",
  installSurface: geminiInstall,
};
