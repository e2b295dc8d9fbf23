import { defineStatusAdapter, noPlanOnReadError, stopOnReadError } from "./kit/adapter.js";
import { contractRows } from "./kit/install-surfaces.js";
import { mcpPlacement, mcpRow, projectFolderRoot } from "./kit/mcp-places.js";
import type { InstallSurface } from "./kit/install-types.js";
import { findOpencodeAuth, opencodeCredentialLocations, planOpencodeDisconnect } from "./opencode-credentials.js";
import type { InstallRuntime, StatusRuntime } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

export { OPENCODE_ENV_KEYS } from "./opencode-env-keys.js";
export { opencodeAuthPath } from "./opencode-credentials.js";

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
  // A project's MCP servers are in opencode.json in the project folder.
  extraRoots: { local: { project: projectFolderRoot(".opencode") } },
  cli: { binary: "opencode", editions: [{ since: "1.18.33", verified: ["1.18.33"], basis: "OpenCode 1.18.33, run offline" }] },
  layout: (scope) => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "markdown" },
    agents: { dir: "agents", format: "opencode" },
    // Its hooks are JS plugins (and a local plugin makes OpenCode install npm packages in its config
    // folder at every start); the config's experimental.hook commands are dropped by 1.18.
    hooks: { skip: "OpenCode runs hooks only as JS plugins (its config's experimental.hook is ignored by 1.18), so bosun registers none" },
    mcp: scope === "global" ? mcpPlacement("opencode.json", ["mcp"], "opencode", "opencode.mcp") : mcpPlacement("opencode.json", ["mcp"], "opencode", "opencode.mcp", "project"),
  }),
  contract: () => [...mcpRow("opencode", {
    surface: "opencode.json: mcp",
    what: "each MCP server of the pack as `{type: local, command: [command, ...args], environment, enabled}` or `{type: remote, url, headers, enabled}`; secrets as OpenCode's own `{env:NAME}` and `{file:PATH}`",
    global: "~/.config/opencode/opencode.json",
    local: "opencode.json in the project folder",
    why: "`opencode debug config` shows the `mcp` of the global and the project opencode.json merged, the environment's values masked as `***`",
    checkedAgainst: "OpenCode 1.18.33: `opencode debug config` (test/real/mcp-real.test.ts)",
  }), ...contractRows("opencode", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, as is (also when Claude Code's or Codex's copy, which OpenCode reads too, is there: OpenCode then lists the skill once, from its own folder)",
      global: "~/.config/opencode/skills",
      local: ".opencode/skills",
      why: "`opencode debug skill` lists skill(s)/ folders, and ~/.claude/skills and ~/.agents/skills too; a skill in both is listed once, from OpenCode's own folder",
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
  })],
};

export const opencode: StatusRuntime & InstallRuntime = {
  id: "opencode",
  title: "OpenCode",
  description: "The OpenCode terminal agent, run headless with `opencode run`.",
  binary: "opencode",
  installHint: "curl -fsSL https://opencode.ai/install | bash",
  loginHint: "opencode auth login",
  headless: { values: { binary: "opencode", model: "", agent: "", auto: true, delegate: "read-only" }, choices: { delegate: DELEGATE_MODES } },
  status: defineStatusAdapter({
    id: "opencode",
    binary: "opencode",
    authStatus: (_config, ctx) => stopOnReadError(() => findOpencodeAuth(ctx)),
    planDisconnect: async (config, ctx) => noPlanOnReadError(() => planOpencodeDisconnect(ctx, opencode.status.resolveBinary(config, ctx))),
    credentialLocations: (_config, ctx) => opencodeCredentialLocations(ctx),
  }),
  signInVerifiedAgainst: "opencode 1.18.33 (opencode auth list)",
  installSurface: opencodeInstall,
};
