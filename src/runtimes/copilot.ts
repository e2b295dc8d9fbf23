import { contractRows } from "./kit/install-surfaces.js";
import { COPILOT_HOOK_EVENTS, COPILOT_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import type { InstallRuntime } from "./kit/types.js";

const COPILOT_CHECKED = "GitHub Copilot CLI documentation and the anchor installer's layout (not probed here)";

/** GitHub Copilot (CLI and coding agent): install only, bosun has no status adapter for it. */
export const copilot: InstallRuntime = {
  id: "copilot",
  title: "GitHub Copilot",
  installSurface: {
    globalRoot: {
      home: ".copilot",
      overrides: [
        { env: "COPILOT_CONFIG_DIR", use: "dir" },
        { env: "COPILOT_HOME", use: "dir" },
      ],
    },
    localRoot: ".github",
    layout: () => ({
      skills: { dir: "skills" },
      commands: { skip: "GitHub Copilot has no custom command files" },
      agents: { dir: "agents", format: "copilot" },
      hooks: {
        events: COPILOT_HOOK_EVENTS,
        filesDir: "hooks",
        // Copilot reads every hooks/*.json, so each hook is a file of its own rather than an edit.
        register: { kind: "file", dir: "hooks", format: "copilot", contract: "copilot.hooks" },
      },
    }),
    contract: () => contractRows("copilot", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is",
        global: "~/.copilot/skills",
        local: ".github/skills",
        why: "Copilot loads agent skills from ~/.copilot/skills and a repository's .github/skills",
        checkedAgainst: COPILOT_CHECKED,
      },
      agents: {
        surface: "agents/<name>.agent.md",
        what: "each agent definition as a custom agent (`name`, `description`, `tools` frontmatter)",
        global: "~/.copilot/agents",
        local: ".github/agents",
        why: "Copilot's custom agents are `*.agent.md` files in these folders",
        checkedAgainst: COPILOT_CHECKED,
      },
      hooks: {
        surface: "hooks/<hook>.json",
        what: "one hooks file per pack hook: `{version: 1, hooks: {<event>: [{type: command, bash, timeoutSec}]}}`",
        global: "~/.copilot/hooks",
        local: ".github/hooks",
        why: "Copilot reads each JSON file in hooks/ and runs its commands for the named events",
        checkedAgainst: `${COPILOT_CHECKED}; events: ${COPILOT_HOOK_EVENTS_SOURCE}`,
      },
    }),
  },
};
