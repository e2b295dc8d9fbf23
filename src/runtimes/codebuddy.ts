import { ANCHOR_LAYOUT, claudeLikeRows, settingsFileFor, settingsHooks } from "./install-surfaces.js";
import type { InstallRuntime } from "./install-types.js";

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
      hooks: settingsHooks([settingsFileFor(scope)], "codebuddy.hooks"),
    }),
    contract: () =>
      claudeLikeRows("codebuddy", {
        root: "~/.codebuddy",
        local: ".codebuddy",
        settings: { global: "settings.json", local: "settings.local.json" },
        checkedAgainst: `${ANCHOR_LAYOUT}; Claude Code's formats`,
      }),
  },
};
