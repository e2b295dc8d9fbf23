import { join } from "node:path";
import { CURSOR_HOOK_EVENTS, CURSOR_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import { atDefaultPlaces, defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./kit/adapter.js";
import { presentText } from "./kit/detect/file-reader.js";
import { envPath, firstSetEnvVar } from "./kit/detect/env.js";
import { jsonOrTextHoldsSecret } from "./kit/detect/secret-rules.js";
import { contractRows, OWNS_OWN_ENTRIES, WHEN_HOOKS } from "./kit/install-surfaces.js";
import { mcpPlacement, mcpRow } from "./kit/mcp-places.js";
import type { InstallSurface } from "./kit/install-types.js";
import type { CredentialLocations, DetectionContext, InstallRuntime, StatusRuntime } from "./kit/types.js";
import { DELEGATE_MODES } from "./kit/delegate-mode.js";

/** In this order; `API_KEY_CURSOR` is Agent Zero's name for the same key. */
export const CURSOR_ENV_KEYS = ["CURSOR_API_KEY", "API_KEY_CURSOR"] as const;
export const CURSOR_AUTH_FILES = ["auth.json", "credentials.json", "token.json", "agent/auth.json", "agent/credentials.json", "agent/token.json"] as const;
export const CURSOR_SECRET_KEYS: ReadonlySet<string> = new Set(["access_token", "api_key", "id_token", "refresh_token", "token"]);

/** `$CURSOR_HOME`, else `~/.cursor`. */
export function cursorHome(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): string {
  return envPath(ctx.env, "CURSOR_HOME", ctx.home, ctx.cwd) ?? join(ctx.home, ".cursor");
}

/** The files the sign-in check reads a token from, in `$CURSOR_HOME` and in `~/.cursor`, and the key variables. */
function cursorCredentialLocations(ctx: Pick<DetectionContext, "env" | "home" | "cwd">): CredentialLocations {
  const homes = [cursorHome(ctx), cursorHome(atDefaultPlaces(ctx))];
  return { files: homes.flatMap((home) => CURSOR_AUTH_FILES.map((name) => join(home, name))), folders: [], env: [...CURSOR_ENV_KEYS] };
}

const CURSOR_CHECKED = "Cursor's documentation (the Cursor CLI is not on npm, so it was not probed)";

const cursorInstall: InstallSurface = {
  globalRoot: { home: ".cursor", overrides: [{ env: "CURSOR_CONFIG_DIR", use: "dir" }] },
  localRoot: ".cursor",
  layout: () => ({
    skills: { dir: "skills" },
    commands: { dir: "commands", format: "workflow" },
    agents: { dir: "agents", format: "markdown" },
    hooks: {
      events: CURSOR_HOOK_EVENTS,
      filesDir: "hooks",
      register: { kind: "config", files: ["hooks.json"], format: "cursor", timeoutUnit: "s", contract: "cursor.hooks" },
    },
    mcp: mcpPlacement("mcp.json", ["mcpServers"], "cursor", "cursor.mcp"),
  }),
  contract: () => [...mcpRow("cursor", {
    surface: "mcp.json: mcpServers",
    what: "each MCP server of the pack as `{command, args, env}` or `{url, headers}`; secrets as `${env:NAME}` references, which Cursor expands",
    global: "~/.cursor/mcp.json",
    local: ".cursor/mcp.json",
    why: "Cursor (editor and CLI) starts the servers of both mcp.json files",
    checkedAgainst: CURSOR_CHECKED,
  }), ...contractRows("cursor", {
    skills: {
      surface: "skills/<name>/SKILL.md (+ its files)",
      what: "each skill folder of the pack, as is",
      global: "~/.cursor/skills ($CURSOR_CONFIG_DIR/skills)",
      local: ".cursor/skills",
      why: "Cursor loads agent skills from these folders",
      checkedAgainst: CURSOR_CHECKED,
    },
    commands: {
      surface: "commands/<name>.md",
      what: "each command as plain markdown (a title line from its description, then the prompt)",
      global: "~/.cursor/commands",
      local: ".cursor/commands",
      why: "Cursor offers every commands/*.md as a slash command; it reads the file as the prompt, so bosun writes no frontmatter",
      checkedAgainst: CURSOR_CHECKED,
    },
    agents: {
      surface: "agents/<name>.md",
      what: "each agent definition, markdown with `name` and `description` frontmatter",
      global: "~/.cursor/agents",
      local: ".cursor/agents",
      why: "Cursor reads sub-agent definitions from agents/",
      checkedAgainst: CURSOR_CHECKED,
    },
    hooks: {
      surface: "hooks.json: hooks",
      what: "one `{command}` entry per pack hook under `hooks.<event>` (Cursor's camelCase event names); `version: 1` when bosun creates the file",
      global: "~/.cursor/hooks.json",
      local: ".cursor/hooks.json",
      when: WHEN_HOOKS,
      owner: OWNS_OWN_ENTRIES,
      why: "Cursor runs the commands listed in hooks.json for each event",
      checkedAgainst: `${CURSOR_CHECKED}; events: ${CURSOR_HOOK_EVENTS_SOURCE}`,
    },
    "hook-files": {
      surface: "hooks/<hook>/…",
      what: "the files a pack ships with a hook, which its command runs",
      global: "~/.cursor/hooks",
      local: ".cursor/hooks",
      why: "only the hook command reads them",
      checkedAgainst: CURSOR_CHECKED,
    },
  })],
};

export const cursor: StatusRuntime & InstallRuntime = {
  id: "cursor",
  title: "Cursor CLI",
  description: "Cursor's terminal agent (`agent`), run headless with `agent -p`.",
  binary: "agent",
  installHint: "curl https://cursor.com/install -fsS | bash",
  loginHint: "NO_OPEN_BROWSER=1 agent login, or set CURSOR_API_KEY",
  headless: {
    values: { binary: "agent", output_format: "text", force: true, delegate: "read-only" },
    choices: { output_format: ["text", "json", "stream-json"], delegate: DELEGATE_MODES },
  },
  status: defineStatusAdapter({
    id: "cursor",
    binary: "agent",
    authStatus: (_config, ctx) =>
      stopOnReadError(() => {
        const variable = firstSetEnvVar(ctx.env, CURSOR_ENV_KEYS);
        if (variable) return signedIn("env", variable);
        const home = cursorHome(ctx);
        for (const name of CURSOR_AUTH_FILES) {
          const file = presentText(ctx.files, join(home, name));
          if (file && jsonOrTextHoldsSecret(file.text, CURSOR_SECRET_KEYS)) return signedIn("external", file.shownPath);
        }
        return notSignedIn(home);
      }),
    credentialLocations: (_config, ctx) => cursorCredentialLocations(ctx),
  }),
  installSurface: cursorInstall,
};
