import { contractRows } from "./kit/install-surfaces.js";
import type { InstallRuntime } from "./kit/types.js";

const PI_CHECKED = "pi coding agent documentation (skills/ and prompts/ under ~/.pi/agent); not probed here. The anchor installer puts only its extension there";

/** The pi coding agent: install only. */
export const pi: InstallRuntime = {
  id: "pi",
  title: "pi",
  installSurface: {
    globalRoot: { home: ".pi/agent", overrides: [{ env: "PI_CODING_AGENT_DIR", use: "dir" }] },
    localRoot: ".pi",
    layout: () => ({
      skills: { dir: "skills" },
      // pi's prompt templates are markdown with a `description`; `/name args` expands them, `$@` being the arguments.
      commands: { dir: "prompts", format: "markdown", arguments: "$@" },
      agents: { skip: "pi has no sub-agent definition files" },
      hooks: { skip: "pi's hooks are TypeScript extensions, not commands" },
    }),
    contract: () => contractRows("pi", {
      skills: {
        surface: "skills/<name>/SKILL.md (+ its files)",
        what: "each skill folder of the pack, as is",
        global: "~/.pi/agent/skills ($PI_CODING_AGENT_DIR/skills)",
        local: ".pi/skills",
        why: "pi loads agent skills from these folders",
        checkedAgainst: PI_CHECKED,
      },
      commands: {
        surface: "prompts/<name>.md",
        what: "each command as a prompt template (markdown with `description` frontmatter; `$ARGUMENTS` becomes `$@`)",
        global: "~/.pi/agent/prompts",
        local: ".pi/prompts",
        why: "pi offers each prompt template as /<name>",
        checkedAgainst: PI_CHECKED,
      },
    }),
  },
};
