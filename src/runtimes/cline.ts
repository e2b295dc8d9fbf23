import { ANCHOR_LAYOUT, contractRows } from "./kit/install-surfaces.js";
import type { InstallRuntime } from "./kit/types.js";

/** Cline: install only. Its project scope is the project folder itself. */
export const cline: InstallRuntime = {
  id: "cline",
  title: "Cline",
  installSurface: {
    globalRoot: { home: ".cline", overrides: [{ env: "CLINE_CONFIG_DIR", use: "dir" }] },
    localRoot: "",
    // Cline reads every file in .clinerules/ as a rule, so bosun's own files stay out of it.
    stateDir: { local: ".bosun/cline" },
    // The project folder is the root there: support files go beside bosun's own files, not into the project's.
    supportDir: (scope, pack) => (scope === "local" ? `.bosun/cline/${pack}` : pack),
    layout: (scope) =>
      scope === "global"
        ? {
            skills: { dir: "skills" },
            commands: { skip: "Cline's global workflows live in ~/Documents/Cline/Workflows, outside its config folder" },
            agents: { dir: "agents", format: "markdown" },
            hooks: { skip: "Cline hooks are one executable per event that must answer in Cline's JSON protocol, not commands" },
          }
        : {
            skills: { skip: "Cline reads skills only from ~/.cline/skills" },
            commands: { dir: ".clinerules/workflows", format: "workflow" },
            agents: { skip: "Cline reads agent definitions only from ~/.cline/agents" },
            hooks: { skip: "Cline hooks are one executable per event that must answer in Cline's JSON protocol, not commands" },
          },
    contract: () => contractRows("cline", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is (global only)",
        global: "~/.cline/skills",
        local: "— (skipped)",
        why: "Cline loads skills from ~/.cline/skills",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      commands: {
        surface: ".clinerules/workflows/<name>.md",
        what: "each command as a workflow (plain markdown), project scope only",
        global: "— (skipped)",
        local: ".clinerules/workflows",
        why: "Cline runs a workflow when you type /<name>.md",
        checkedAgainst: ANCHOR_LAYOUT,
      },
      agents: {
        surface: "agents/<name>.md",
        what: "each agent definition, markdown with `name` and `description` frontmatter (global only)",
        global: "~/.cline/agents",
        local: "— (skipped)",
        why: "the folder the anchor installer uses for Cline agent definitions",
        checkedAgainst: ANCHOR_LAYOUT,
      },
    }),
  },
};
