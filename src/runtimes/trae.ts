import { ANCHOR_LAYOUT, contractRows } from "./kit/install-surfaces.js";
import type { InstallRuntime } from "./kit/types.js";

/** Trae IDE: install only. */
export const trae: InstallRuntime = {
  id: "trae",
  title: "Trae",
  installSurface: {
    globalRoot: { home: ".trae", overrides: [{ env: "TRAE_CONFIG_DIR", use: "dir" }] },
    localRoot: ".trae",
    layout: () => ({
      skills: { dir: "skills" },
      commands: { skip: "Trae has no command files" },
      agents: { dir: "agents", format: "markdown" },
      hooks: { skip: "Trae has no hooks" },
    }),
    contract: () => contractRows("trae", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is",
        global: "~/.trae/skills",
        local: ".trae/skills",
        why: "Trae loads skills from skills/",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      agents: {
        surface: "agents/<name>.md",
        what: "each agent definition, markdown with `name` and `description` frontmatter",
        global: "~/.trae/agents",
        local: ".trae/agents",
        why: "the folder the anchor installer uses for Trae agent definitions",
        checkedAgainst: ANCHOR_LAYOUT,
      },
    }),
  },
};
