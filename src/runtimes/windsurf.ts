import { ANCHOR_LAYOUT, contractRows, OWNS_OWN_ENTRIES, WHEN_HOOKS } from "./kit/install-surfaces.js";
import { WINDSURF_HOOK_EVENTS, WINDSURF_HOOK_EVENTS_SOURCE } from "./kit/hook-events.js";
import type { InstallRuntime } from "./kit/types.js";

/** Windsurf (Devin Desktop): install only. */
export const windsurf: InstallRuntime = {
  id: "windsurf",
  title: "Windsurf",
  installSurface: {
    globalRoot: { home: ".codeium/windsurf", overrides: [{ env: "WINDSURF_CONFIG_DIR", use: "dir" }] },
    localRoot: ".windsurf",
    layout: (scope) => ({
      skills: { skip: "Windsurf has no skill folders" },
      commands: scope === "local" ? { dir: "workflows", format: "workflow" } : { skip: "Windsurf reads workflows from a project's .windsurf/workflows only" },
      agents: { dir: "agents", format: "markdown" },
      hooks: {
        events: WINDSURF_HOOK_EVENTS,
        filesDir: "hooks",
        register: { kind: "config", files: ["hooks.json"], format: "windsurf", timeoutUnit: "s", contract: "windsurf.hooks" },
      },
    }),
    contract: () => contractRows("windsurf", {
      commands: {
        surface: "workflows/<name>.md",
        what: "each command as a workflow (plain markdown: a title from its description, then the prompt)",
        global: "— (skipped)",
        local: ".windsurf/workflows",
        why: "Cascade offers each workflow as a slash command",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      agents: {
        surface: "agents/<name>.md",
        what: "each agent definition, markdown with `name` and `description` frontmatter",
        global: "~/.codeium/windsurf/agents",
        local: ".windsurf/agents",
        why: "the folder the anchor installer uses for Windsurf agent definitions",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      hooks: {
        surface: "hooks.json: hooks",
        what: "one `{command}` entry per pack hook under `hooks.<event>` (pre_user_prompt, pre_run_command, post_run_command, post_cascade_response)",
        global: "~/.codeium/windsurf/hooks.json",
        local: ".windsurf/hooks.json",
        when: WHEN_HOOKS,
        owner: OWNS_OWN_ENTRIES,
        why: "Cascade runs the commands in hooks.json for its events",
        checkedAgainst: `${ANCHOR_LAYOUT}; events: ${WINDSURF_HOOK_EVENTS_SOURCE}`,
      },
    }),
  },
};
