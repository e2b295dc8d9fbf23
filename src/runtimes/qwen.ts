import { ANCHOR_LAYOUT, claudeLikeRows, settingsHooks } from "./install-surfaces.js";
import { QWEN_HOOK_EVENTS, QWEN_HOOK_EVENTS_SOURCE } from "./hook-events.js";
import type { InstallRuntime } from "./install-types.js";

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
    }),
    contract: () =>
      claudeLikeRows("qwen", {
        root: "~/.qwen",
        local: ".qwen",
        settings: { global: "settings.json", local: "settings.json" },
        commands: "commands/<name>.toml in Gemini CLI's format (`description`, `prompt` with `{{args}}`)",
        eventsSource: QWEN_HOOK_EVENTS_SOURCE,
        checkedAgainst: `${ANCHOR_LAYOUT}; commands as in Gemini CLI, which Qwen Code forked`,
      }),
  },
};
