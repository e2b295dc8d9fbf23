import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn } from "./kit/adapter.js";
import { CODEX_ENV_KEY, codexCredentialLocations, codexSignIn } from "./codex-signin.js";
import { CODEX_HOOK_EVENTS, CODEX_HOOK_EVENTS_SOURCE, CODEX_TIMEOUT_CAPS } from "./kit/hook-events.js";
import { contractRows, OWNS_OWN_ENTRIES, settingsHooks, WHEN_HOOKS } from "./kit/install-surfaces.js";
import { mcpPlacement, mcpRow } from "./kit/mcp-places.js";
import type { ContractEdition, InstallSurface, RetiredTomlBlock, TomlBlock } from "./kit/install-types.js";
import type { AuthStatus, InstallRuntime, StatusRuntime } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

export { CODEX_AUTH_FILE, codexExternalAuthPath, codexPluginAuthPath } from "./codex-signin.js";

const status = defineStatusAdapter({
  id: "codex",
  binary: "codex",
  supportsDeviceLogin: true,
  async authStatus(_config, ctx): Promise<AuthStatus> {
    const found = await codexSignIn(ctx);
    if (found.signedIn) return found.source === "env" ? signedIn("env", found.name) : signedIn(found.source === "plugin" ? "plugin" : "external", found.shownPath);
    return found.problem ? { ...notSignedIn(""), error: found.problem } : notSignedIn("");
  },
  // Exactly the login Codex would use: its auth.json is deleted as `codex logout` deletes it (which
  // also leaves lock files and helper binaries behind); a key in the environment or the keyring is not bosun's to remove.
  async planDisconnect(_config, ctx) {
    const found = await codexSignIn(ctx);
    if (found.signedIn && found.source === "env") return { action: "none", reason: `Codex uses the key in ${CODEX_ENV_KEY}; unset it in your environment to sign out` };
    if (found.signedIn) return { action: "remove-file", mode: found.source === "plugin" ? "plugin" : "external", path: found.path };
    if (found.keyring) return { action: "none", reason: "Codex keeps its login in the system keyring (cli_auth_credentials_store = \"keyring\"); sign out with codex logout" };
    return { action: "none", reason: found.problem ?? "no Codex credentials found" };
  },
  credentialLocations: (_config, ctx) => codexCredentialLocations(ctx),
});

const CODEX_CHECKED = "Codex CLI 0.171.0, probed offline (`codex debug prompt-input`, app-server skills/list and hooks/list), bosun's pack with scripts/accept-install.mjs";

/**
 * What each Codex version wants. 0.114 brought hooks behind `[features].codex_hooks`; 0.124 made
 * them stable and on by default; 0.130 renamed the flag to `hooks` and since then reports the old
 * key as an error-typed item on every `codex exec` (0.171 still does): so only the first span
 * gets the flag.
 */
export const CODEX_FLAG_EDITION: ContractEdition = {
  since: "0.114.0",
  verified: [],
  basis: "Codex 0.114.0 release notes and hooks documentation: hooks run only with `[features].codex_hooks = true`",
};
export const CODEX_EDITIONS: readonly ContractEdition[] = [
  CODEX_FLAG_EDITION,
  {
    since: "0.124.0",
    verified: ["0.171.0"],
    basis: "Codex CLI 0.171.0: `codex features list` shows hooks stable and on; `[features].codex_hooks` makes every `codex exec` print a deprecation error item",
  },
];

/** bosun's block in config.toml, for the Codex versions that run hooks only with the flag. */
const CODEX_HOOKS_FLAG: TomlBlock = { file: "config.toml", lines: ["features.codex_hooks = true"], satisfiedBy: { path: ["features", "codex_hooks"], value: true }, contract: "codex.features" };
const CODEX_HOOKS_FLAG_RETIRED: RetiredTomlBlock = {
  file: "config.toml",
  contract: "codex.features",
  why: "Codex 0.124.0 and newer runs hooks without features.codex_hooks, and from 0.130 reports the key as deprecated on every run",
};

const codexInstall: InstallSurface = {
  globalRoot: { home: ".codex", overrides: [{ env: "CODEX_HOME", use: "dir" }] },
  localRoot: ".codex",
  // Codex reads user skills from ~/.agents/skills (outside CODEX_HOME); bosun keeps a second root there.
  extraRoots: { global: { "agents-home": (ctx) => join(ctx.home, ".agents") } },
  cli: { binary: "codex", editions: CODEX_EDITIONS },
  layout: (scope, edition) => {
    const root = scope === "global" ? ({ root: "agents-home" } as const) : {};
    return {
      skills: { dir: "skills", ...root },
      // Commands become skills in Codex's own folder: Gemini CLI and OpenCode read ~/.agents/skills
      // too, and would list each command twice (as their own command, and as a skill).
      commands: { dir: "skills", format: "skill" },
      agents: { skip: "Codex 0.171 has no agent definition files bosun can rely on" },
      settings: { skip: "Codex keeps its settings in config.toml, with no status line command and its own sandbox and approval keys rather than permission rules; bosun edits none of them for a pack" },
      hooks: {
        ...settingsHooks(["hooks.json"], "codex.hooks", CODEX_HOOK_EVENTS),
        timeoutCaps: CODEX_TIMEOUT_CAPS,
        ...(edition === CODEX_FLAG_EDITION ? { toml: CODEX_HOOKS_FLAG } : { retiredToml: CODEX_HOOKS_FLAG_RETIRED }),
      },
      // Each server a [mcp_servers.<name>] table of config.toml, appended in bosun's markers.
      mcp: mcpPlacement("config.toml", ["mcp_servers"], "codex", "codex.mcp"),
    };
  },
  notes: (scope) => [
    "Codex runs a new or changed hook only after you trust it (it asks at start: \"Hooks need review\"); until then bosun's hooks do not run",
    ...(scope === "local" ? ["Codex reads a project's .codex/hooks.json and config.toml only in a trusted project ([projects.\"<path>\"] trust_level = \"trusted\" in ~/.codex/config.toml)"] : []),
  ],
  contract: () => [
    ...contractRows("codex", {
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
        versions: "0.114.0 and newer",
        checkedAgainst: `${CODEX_CHECKED}; events: ${CODEX_HOOK_EVENTS_SOURCE}`,
      },
      features: {
        surface: "config.toml: marked block",
        what: "`features.codex_hooks = true` in a block between `# >>> bosun` and `# <<< bosun` markers at the top of the file, while bosun has hooks there",
        global: "$CODEX_HOME/config.toml",
        local: ".codex/config.toml",
        when: "written with the first hook for a Codex that needs it, removed with the last hook or when Codex is 0.124.0 or newer (migration `2026-12-01-codex-hooks-flag` takes it out of older installs); skipped when the file already sets it",
        owner: "yours; bosun owns only the text between its markers",
        why: "before 0.124 Codex runs hooks only with this feature flag; 0.124 turned hooks on by default, and from 0.130 the key is deprecated: 0.171 prints an error-typed item about it on every `codex exec`",
        versions: "0.114.0 – 0.123.x",
        checkedAgainst: "Codex 0.114.0 release notes and hooks documentation; the deprecation item and `codex features list` (hooks: stable, true) seen on the real 0.171.0",
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
    ...mcpRow("codex", {
      surface: "config.toml: [mcp_servers.<name>]",
      what: "each MCP server of the pack as a `[mcp_servers.<name>]` table between `# >>> bosun: [mcp_servers.<name>]` and `# <<< bosun` markers at the end of the file: `command`, `args`, `env` (literal values), `env_vars` (each `{env:NAME}` under its own name), `cwd`, or `url`, `bearer_token_env_var` (`Authorization: Bearer {env:NAME}`), `env_http_headers` (a header that is `{env:NAME}`), `http_headers`; `startup_timeout_sec`, `tool_timeout_sec`, `enabled = false`. A variable under another name, text around a reference, or `{file:…}` skips the server",
      global: "$CODEX_HOME/config.toml (~/.codex)",
      local: ".codex/config.toml (read only in a trusted project)",
      why: "`codex mcp list --json` lists the servers of config.toml with their command, args, env_vars and headers; Codex forwards variables by name and expands no reference inside a value",
      checkedAgainst: "Codex CLI 0.171.0: `codex mcp list --json`, offline, after a bosun install (test/real/mcp-real-codex.test.ts)",
    }),
  ],
};

export const codex: StatusRuntime & InstallRuntime = {
  id: "codex",
  title: "OpenAI Codex CLI",
  description: "OpenAI Codex CLI for autonomous coding tasks in a working folder.",
  binary: "codex",
  installHint: "npm install -g @openai/codex",
  loginHint: "bosun agents login codex, or codex login (printenv OPENAI_API_KEY | codex login --with-api-key for a key)",
  pluginLoginHint: (dataDir) => `start Codex with CODEX_HOME=${dataDir} to use it`,
  headless: { values: { binary: "codex", model: "", bypass_sandbox: true, delegate: "read-only" }, choices: { delegate: DELEGATE_MODES } },
  status,
  signInVerifiedAgainst: "codex 0.171.0 (codex login status; codex exec for CODEX_API_KEY)",
  installSurface: codexInstall,
};
