import { ANCHOR_LAYOUT, contractRows } from "./kit/install-surfaces.js";
import type { InstallRuntime } from "./kit/types.js";

const KILO_CHECKED = `${ANCHOR_LAYOUT}; formats as in OpenCode, which Kilo forked`;

/** Kilo Code's CLI (an OpenCode fork): install only. */
export const kilo: InstallRuntime = {
  id: "kilo",
  title: "Kilo Code",
  installSurface: {
    globalRoot: {
      home: ".config/kilo",
      overrides: [
        { env: "KILO_CONFIG_DIR", use: "dir" },
        { env: "KILO_CONFIG", use: "dirname" },
        { env: "XDG_CONFIG_HOME", use: "join", path: "kilo" },
      ],
    },
    localRoot: ".kilo",
    layout: () => ({
      skills: { dir: "skills" },
      // Kilo kept OpenCode's singular command/ folder.
      commands: { dir: "command", format: "markdown" },
      agents: { dir: "agents", format: "opencode" },
      hooks: { skip: "Kilo runs hooks only as JS plugins, as OpenCode does, so bosun registers none" },
    }),
    contract: () => contractRows("kilo", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is",
        global: "~/.config/kilo/skills",
        local: ".kilo/skills",
        why: "Kilo loads skills from skills/ as OpenCode does",
        checkedAgainst: KILO_CHECKED,
      },
      commands: {
        surface: "command/<name>.md (singular)",
        what: "each command, markdown with `description` frontmatter; `$ARGUMENTS` kept",
        global: "~/.config/kilo/command",
        local: ".kilo/command",
        why: "Kilo reads slash commands from the singular command/ folder",
        checkedAgainst: KILO_CHECKED,
      },
      agents: {
        surface: "agents/<name>.md",
        what: "each agent definition with `description` and `mode: subagent` frontmatter",
        global: "~/.config/kilo/agents",
        local: ".kilo/agents",
        why: "Kilo reads agent definitions as OpenCode does",
        checkedAgainst: KILO_CHECKED,
      },
    }),
  },
};
