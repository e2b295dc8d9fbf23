import { ANCHOR_LAYOUT, contractRows } from "./kit/install-surfaces.js";
import type { InstallRuntime } from "./kit/types.js";

/** Google Antigravity: install only. Its config folder has shipped under three names. */
export const antigravity: InstallRuntime = {
  id: "antigravity",
  title: "Antigravity",
  installSurface: {
    globalRoot: {
      home: ".gemini/antigravity",
      overrides: [{ env: "ANTIGRAVITY_CONFIG_DIR", use: "dir" }],
      probe: [".gemini/antigravity", ".gemini/antigravity-ide", ".gemini/antigravity-cli"],
    },
    localRoot: ".agents",
    layout: () => ({
      skills: { dir: "skills" },
      commands: { skip: "Antigravity has no command files" },
      agents: { dir: "agents", format: "markdown" },
      hooks: { skip: "Antigravity's hook settings are not documented well enough for bosun to edit them" },
    }),
    contract: () => contractRows("antigravity", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is",
        global: "~/.gemini/antigravity/skills (or antigravity-ide, antigravity-cli: the one holding bosun's manifest, else the first that exists)",
        local: ".agents/skills",
        why: "Antigravity loads workspace skills from .agents/skills and user skills from its config folder",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      agents: {
        surface: "agents/<name>.md",
        what: "each agent definition, markdown with `name` and `description` frontmatter",
        global: "~/.gemini/antigravity/agents",
        local: ".agents/agents",
        why: "the folder the anchor installer uses for Antigravity agent definitions",
        checkedAgainst: ANCHOR_LAYOUT,
      },
    }),
  },
};
