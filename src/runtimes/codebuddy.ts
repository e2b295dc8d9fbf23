import { ANCHOR_LAYOUT, claudeLikeRows, settingsFileFor, settingsHooks } from "./kit/install-surfaces.js";
import { claudeSettings, claudeSettingsRow } from "./kit/settings-places.js";
import { CODEBUDDY_HOOK_EVENTS, CODEBUDDY_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import type { InstallRuntime } from "./kit/types.js";

/** Tencent's CodeBuddy Code, laid out like Claude Code: install only. */
export const codebuddy: InstallRuntime = {
  id: "codebuddy",
  title: "CodeBuddy",
  installSurface: {
    globalRoot: { home: ".codebuddy", overrides: [{ env: "CODEBUDDY_CONFIG_DIR", use: "dir" }] },
    localRoot: ".codebuddy",
    layout: (scope) => ({
      skills: { dir: "skills" },
      commands: { dir: "commands", format: "markdown" },
      agents: { dir: "agents", format: "markdown" },
      settings: claudeSettings(scope, "codebuddy.settings"),
      hooks: settingsHooks([settingsFileFor(scope)], "codebuddy.hooks", CODEBUDDY_HOOK_EVENTS),
    }),
    contract: () => [
      ...claudeLikeRows("codebuddy", {
        root: "~/.codebuddy",
        local: ".codebuddy",
        settings: { global: "settings.json", local: "settings.local.json" },
        eventsSource: CODEBUDDY_HOOK_EVENTS_SOURCE,
        checkedAgainst: `${ANCHOR_LAYOUT}; Claude Code's formats`,
      }),
      ...claudeSettingsRow("codebuddy", "~/.codebuddy", ".codebuddy", "Claude Code's settings keys (a Claude Code clone; not probed here)"),
    ],
  },
};
