import { ANCHOR_LAYOUT, claudeLikeRows, settingsHooks } from "./kit/install-surfaces.js";
import { QWEN_HOOK_EVENTS, QWEN_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import type { InstallRuntime } from "./kit/types.js";
import { settingsRow } from "./kit/settings-places.js";
import { mcpPlacement, mcpRow } from "./kit/mcp-places.js";

/** Qwen Code (a Gemini CLI fork): install only. */
export const qwen: InstallRuntime = {
  id: "qwen",
  title: "Qwen Code",
  installSurface: {
    globalRoot: { home: ".qwen", overrides: [{ env: "QWEN_CONFIG_DIR", use: "dir" }] },
    localRoot: ".qwen",
    layout: () => ({
      skills: { dir: "skills" },
      // Qwen Code kept Gemini CLI's TOML commands and its single settings.json per scope.
      commands: { dir: "commands", format: "gemini-toml" },
      agents: { dir: "agents", format: "gemini" },
      hooks: settingsHooks(["settings.json"], "qwen.hooks", QWEN_HOOK_EVENTS),
      settings: {
        file: "settings.json",
        contract: "qwen.settings",
        statusLine: { skip: "Qwen Code's settings have no status line command bosun knows of" },
        permissions: { path: ["permissions"] },
        env: { skip: "Qwen Code takes environment variables from .env files, not from settings.json" },
      },
      mcp: mcpPlacement("settings.json", ["mcpServers"], "gemini", "qwen.mcp"),
    }),
    contract: () => [
      ...claudeLikeRows("qwen", {
        root: "~/.qwen",
        local: ".qwen",
        settings: { global: "settings.json", local: "settings.json" },
        commands: "commands/<name>.toml in Gemini CLI's format (`description`, `prompt` with `{{args}}`)",
        eventsSource: QWEN_HOOK_EVENTS_SOURCE,
        checkedAgainst: `${ANCHOR_LAYOUT}; commands as in Gemini CLI, which Qwen Code forked`,
      }),
      ...settingsRow("qwen", {
        keys: "settings.json: permissions",
        what: "each rule of a pack's `settings.permissions` as an entry of `permissions.allow`, `ask` or `deny` (Claude Code's rule syntax); `statusLine` and `env` are skipped",
        global: "~/.qwen/settings.json",
        local: ".qwen/settings.json",
        why: "Qwen Code 1.x reads permission rules from permissions.allow, ask and deny",
        checkedAgainst: "Qwen Code's documentation (not probed here)",
      }),
      ...mcpRow("qwen", {
        surface: "settings.json: mcpServers",
        what: "each MCP server of the pack in Gemini CLI's shape (`{command, args, env, cwd, timeout}` or `{httpUrl, headers}`), secrets as `${NAME}` references",
        global: "~/.qwen/settings.json",
        local: ".qwen/settings.json",
        why: "Qwen Code kept Gemini CLI's mcpServers setting",
        checkedAgainst: "Qwen Code's documentation (not probed here)",
      }),
    ],
  },
};
