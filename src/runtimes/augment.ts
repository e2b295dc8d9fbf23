import { ANCHOR_LAYOUT, claudeLikeRows, settingsFileFor, settingsHooks } from "./kit/install-surfaces.js";
import { claudeSettings, claudeSettingsRow } from "./kit/settings-places.js";
import { AUGMENT_HOOK_EVENTS, AUGMENT_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import type { InstallRuntime } from "./kit/types.js";

/** Augment's Auggie CLI, laid out like Claude Code: install only. */
export const augment: InstallRuntime = {
  id: "augment",
  title: "Augment Code",
  installSurface: {
    globalRoot: { home: ".augment", overrides: [{ env: "AUGMENT_CONFIG_DIR", use: "dir" }] },
    localRoot: ".augment",
    layout: (scope) => ({
      skills: { dir: "skills" },
      commands: { dir: "commands", format: "markdown" },
      agents: { dir: "agents", format: "markdown" },
      settings: claudeSettings(scope, "augment.settings"),
      hooks: settingsHooks([settingsFileFor(scope)], "augment.hooks", AUGMENT_HOOK_EVENTS),
    }),
    contract: () => [
      ...claudeLikeRows("augment", {
        root: "~/.augment",
        local: ".augment",
        settings: { global: "settings.json", local: "settings.local.json" },
        eventsSource: AUGMENT_HOOK_EVENTS_SOURCE,
        checkedAgainst: `${ANCHOR_LAYOUT}; Claude Code's formats`,
      }),
      ...claudeSettingsRow("augment", "~/.augment", ".augment", "Claude Code's settings keys (a Claude Code clone; not probed here)"),
    ],
  },
};
