import { defineStatusAdapter, notSignedIn, signedIn, unlessUnreadable } from "./kit/adapter.js";
import { claudeCredentialLocations, claudeSignInSources, type ClaudeSource } from "./claude-signin.js";
import { claudeDisconnectPlan } from "./claude-disconnect.js";
import { CLAUDE_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import { claudeSettings, SETTINGS_OWNER, WHEN_SETTINGS } from "./kit/settings-places.js";
import { contractRows, OWNS_OWN_ENTRIES, settingsFileFor, settingsHooks, WHEN_HOOKS } from "./kit/install-surfaces.js";
import { mcpPlacement, mcpRow, projectFolderRoot } from "./kit/mcp-places.js";
import { join } from "node:path";
import type { HookPlacement, InstallScope, InstallSurface } from "./kit/install-types.js";
import type { AuthStatus, DetectionContext, InstallRuntime, StatusRuntime } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

export { CLAUDE_SECRET_ENV_KEYS, claudeCredentialsPath } from "./claude-signin.js";

/** What `bosun agents` shows for the source Claude Code uses: a variable's name, or a file (its real path when it is a symlink). */
function authOf(source: ClaudeSource, ctx: DetectionContext): AuthStatus {
  if (source.kind === "provider" || source.kind === "env" || source.kind === "profile-env") return signedIn("env", source.variable);
  return signedIn("external", unlessUnreadable(() => ctx.files.stat(source.file)?.realPath) ?? source.file);
}

const status = defineStatusAdapter({
  id: "claude",
  binary: "claude",
  // A file Claude Code cannot read is one it skips: the next source decides, as in the CLI.
  authStatus: async (_config, ctx) => {
    const [winner] = claudeSignInSources(ctx);
    return winner ? authOf(winner, ctx) : notSignedIn("");
  },
  planDisconnect: async (_config, ctx) => claudeDisconnectPlan(ctx),
  credentialLocations: (_config, ctx) => claudeCredentialLocations(ctx),
});

const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  CLAUDE_CODE_USE_GATEWAY: "gateway",
  CLAUDE_CODE_USE_BEDROCK: "Bedrock",
  CLAUDE_CODE_USE_FOUNDRY: "Foundry",
  CLAUDE_CODE_USE_ANTHROPIC_AWS: "AWS",
  CLAUDE_CODE_USE_MANTLE: "Mantle",
  CLAUDE_CODE_USE_VERTEX: "Vertex",
  ANTHROPIC_FEDERATION_RULE_ID: "federation",
};

/** "helper" for an apiKeyHelper, "profile" for an ant profile, "login key" for /login's key, the provider for a cloud switch. */
function claudeSignInLabel(auth: AuthStatus): string | undefined {
  if (auth.mode === "env") return PROVIDER_LABELS[auth.authPath];
  if (auth.mode !== "external") return undefined;
  if (/(^|\/)(settings(\.local)?\.json|managed-settings\.json|managed-settings\.d\/[^/]+)$/.test(auth.authPath)) return "helper";
  if (/\/configs\/[^/]+\.json$/.test(auth.authPath)) return "profile";
  if (/\/(\.claude|\.config)\.json$/.test(auth.authPath)) return "login key";
  return undefined;
}

const CLAUDE_CHECKED = "Claude Code 2.1.332 and 2.1.197, probed offline: the stream-json init line lists them; bosun's pack checked on 2.1.197 with scripts/accept-install.mjs";

/**
 * Claude Code 2.1.197 ignores a settings file with a `//` comment whole (its SessionStart hook
 * never fires, checked with --include-hook-events); it reads no user-wide settings.local.json.
 */
const CLAUDE_HOOK_ELSEWHERE: Record<InstallScope, string> = {
  global: "Claude Code then ignores the whole file, so bosun's hook there never runs (nor anything else in it); remove them (Claude Code reads settings.json as plain JSON), or install into a project instead: bosun install --scope local puts the hook in .claude/settings.local.json",
  local: "Claude Code then ignores the whole file, so bosun's hook there never runs (nor anything else in it); remove them (Claude Code reads settings.local.json as plain JSON), or keep your commented settings elsewhere: Claude Code also reads .claude/settings.json, and ~/.claude/settings.json for all projects",
};

function plainJsonOnly(placement: HookPlacement, instead: string): HookPlacement {
  return placement.register.kind === "config" ? { ...placement, register: { ...placement.register, plainJsonOnly: instead } } : placement;
}

const claudeInstall: InstallSurface = {
  globalRoot: { home: ".claude", overrides: [{ env: "CLAUDE_CONFIG_DIR", use: "dir" }] },
  localRoot: ".claude",
  // ~/.claude.json holds the user's MCP servers beside ~/.claude (inside $CLAUDE_CONFIG_DIR when
  // that is set, where it is the root itself); a project's are in .mcp.json in the project folder.
  extraRoots: {
    global: { "config-home": (ctx, mainDir) => (mainDir === join(ctx.home, ".claude") ? { dir: ctx.home, stateDir: ".claude/bosun-home" } : null) },
    local: { project: projectFolderRoot(".claude") },
  },
  cli: { binary: "claude", editions: [{ since: "2.1.197", verified: ["2.1.197", "2.1.332"], basis: "Claude Code 2.1.197 and 2.1.332, run offline" }] },
  layout: (scope) => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "markdown" },
    agents: { dir: "agents", format: "markdown" },
    hooks: plainJsonOnly(settingsHooks([settingsFileFor(scope)], "claude.hooks"), CLAUDE_HOOK_ELSEWHERE[scope]),
    settings: claudeSettings(scope, "claude.settings", CLAUDE_HOOK_ELSEWHERE[scope].replaceAll("bosun's hook there never runs", "bosun's settings there do not apply")),
    mcp: scope === "global" ? mcpPlacement(".claude.json", ["mcpServers"], "claude", "claude.mcp", "config-home") : mcpPlacement(".mcp.json", ["mcpServers"], "claude", "claude.mcp", "project"),
  }),
  contract: () => [...mcpRow("claude", {
    surface: "~/.claude.json / .mcp.json: mcpServers",
    what: "each MCP server of the pack as `{type: stdio, command, args, env}` or `{type: http, url, headers}`; secrets as `${NAME}` references, which Claude Code expands",
    global: "~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json)",
    local: ".mcp.json in the project folder (Claude Code asks once before it starts a project's servers)",
    why: "`claude mcp list` lists user servers from ~/.claude.json and project servers from .mcp.json, and starts them to check",
    checkedAgainst: "Claude Code 2.1.197: `claude mcp list` connected to a stdio server bosun wrote (test/real/mcp-real.test.ts)",
  }), ...contractRows("claude", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, as is",
      global: "~/.claude/skills ($CLAUDE_CONFIG_DIR/skills)",
      local: ".claude/skills",
      why: "Claude Code loads user and project skills from these folders (`skills` in the init line)",
      checkedAgainst: CLAUDE_CHECKED,
    },
    commands: {
      surface: "commands/<name>.md",
      what: "each command, markdown with `description` / `argument-hint` frontmatter; `$ARGUMENTS` kept",
      global: "~/.claude/commands",
      local: ".claude/commands",
      why: "Claude Code turns every commands/*.md into a slash command (`slash_commands` in the init line)",
      checkedAgainst: CLAUDE_CHECKED,
    },
    agents: {
      surface: "agents/<name>.md",
      what: "each agent definition, markdown with `name`, `description`, `tools`, `model` frontmatter",
      global: "~/.claude/agents",
      local: ".claude/agents",
      why: "Claude Code lists agents/*.md as sub-agents (`agents` in the init line)",
      checkedAgainst: CLAUDE_CHECKED,
    },
    hooks: {
      surface: "settings.json / settings.local.json: hooks",
      what: "one `{type: command, command, timeout}` group per pack hook under `hooks.<Event>`",
      global: "~/.claude/settings.json",
      local: ".claude/settings.local.json (machine-specific paths stay out of the shared settings.json)",
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "Claude Code runs command hooks from user and project settings without credentials; SessionStart output is added to the session",
      checkedAgainst: `Claude Code 2.1.332: SessionStart and UserPromptSubmit fired from both settings files (--include-hook-events); events: ${CLAUDE_HOOK_EVENTS_SOURCE}`,
    },
    settings: {
      surface: "settings.json / settings.local.json: statusLine, permissions, env",
      what: "a pack's `settings`: `statusLine` `{type: command, command, padding}`, each rule of `permissions.allow`, `deny` and `ask` as an entry of that list, each `env` variable (plain values; `{env:NAME}` is refused: Claude Code does not expand it there)",
      global: "~/.claude/settings.json",
      local: ".claude/settings.local.json",
      when: WHEN_SETTINGS,
      owner: SETTINGS_OWNER,
      why: "Claude Code reads statusLine, permissions and env from user and project settings",
      checkedAgainst: "Claude Code 2.1.197 (its settings schema in the binary: statusLine, permissions allow/deny/ask, env); gsd-core 1.14.0 writes statusLine and permissions.allow there",
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: "~/.claude/hooks",
      local: ".claude/hooks",
      why: "only the hook command reads them; Claude Code does not scan this folder",
      checkedAgainst: CLAUDE_CHECKED,
    },
  })],
};

export const claude: StatusRuntime & InstallRuntime = {
  id: "claude",
  title: "Claude Code",
  description: "Anthropic's Claude Code CLI, run headless with `claude -p`.",
  binary: "claude",
  installHint: "npm install -g @anthropic-ai/claude-code",
  loginHint: "claude auth login --claudeai (or --console, --sso), claude setup-token for CLAUDE_CODE_OAUTH_TOKEN, or set ANTHROPIC_API_KEY",
  headless: {
    values: { binary: "claude", model: "", permission_mode: "bypassPermissions", allowed_tools: "Bash,Read,Edit", bare: false, delegate: "read-only" },
    choices: { delegate: DELEGATE_MODES },
  },
  status,
  signInLabel: claudeSignInLabel,
  signInVerifiedAgainst: "claude 2.1.197 (claude auth status)",
  installSurface: claudeInstall,
};

