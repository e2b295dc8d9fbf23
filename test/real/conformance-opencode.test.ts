// Conformance with the real OpenCode (1.18.33, offline, no credentials): after `bosun install`
// `opencode debug config` has bosun's commands and its agent (a sub-agent), `opencode debug skill`
// its skill (once, also when Codex's copy is in ~/.agents/skills) and `opencode agent list` the
// agent; after `bosun uninstall` nothing of bosun's is there, and the user's own files are
// byte-identical to before. OpenCode gets no hook from bosun (its hooks are JS plugins).
import { describe, expect, it } from "vitest";
import { bosunInstall, bosunUninstall, PACK, roundTrip, stage, userSkill, type Stage } from "../fixtures/conformance.js";

const ANSI = /\x1b\[[0-9;]*m/g;

interface Loaded {
  commands: string[];
  /** Agent name → its mode, as OpenCode parsed the frontmatter. */
  agents: Record<string, string>;
  /** Skill names, one entry per copy OpenCode lists. */
  skills: string[];
  /** `name (mode)` lines of `opencode agent list`. */
  agentList: string[];
}

async function loaded(s: Stage): Promise<Loaded> {
  // One after the other: OpenCode migrates its database at first start, and two starts at once in one home fail.
  const config = await s.run(["debug", "config"]);
  const skill = await s.run(["debug", "skill"]);
  const agents = await s.run(["agent", "list"]);
  for (const run of [config, skill, agents]) {
    expect(run.timedOut).toBe(false);
    expect(run.code, run.stderr).toBe(0);
  }
  const parsed = JSON.parse(config.stdout.replace(ANSI, "")) as { command?: Record<string, unknown>; agent?: Record<string, { mode?: string }> };
  const skillText = skill.stdout.replace(ANSI, "");
  return {
    commands: Object.keys(parsed.command ?? {}).sort(),
    agents: Object.fromEntries(Object.entries(parsed.agent ?? {}).map(([name, agent]) => [name, agent.mode ?? ""])),
    skills: (JSON.parse(skillText.slice(skillText.indexOf("["))) as { name: string }[]).map((entry) => entry.name).sort(),
    agentList: [...agents.stdout.replace(ANSI, "").matchAll(/^(\S+) \((primary|subagent|all)\)/gm)].map((match) => `${match[1]} (${match[2]})`),
  };
}

function expectBosunLoaded(found: Loaded): void {
  for (const command of PACK.commands) expect(found.commands).toContain(command);
  expect(found.agents[PACK.agent]).toBe("subagent");
  expect(found.agentList).toContain(`${PACK.agent} (subagent)`);
  expect(found.skills.filter((name) => name === PACK.skill)).toHaveLength(1);
  // bosun's commands are commands only, never skills too.
  for (const command of PACK.commands) expect(found.skills).not.toContain(command);
}

function expectNothingOfBosun(found: Loaded): void {
  expect([...found.commands, ...Object.keys(found.agents), ...found.skills, ...found.agentList].filter((name) => name.startsWith("bosun"))).toEqual([]);
}

describe("conformance: OpenCode", () => {
  it("global: commands, sub-agent and skill listed; uninstalled, gone, the user's files untouched", async () => {
    const user = {
      "home/.config/opencode/opencode.jsonc": '{\n  // my OpenCode settings\n  "$schema": "https://opencode.ai/config.json",\n  "autoupdate": false, // no surprises\n}\n',
      "home/.config/opencode/skills/my-skill/SKILL.md": userSkill("my-skill"),
      "home/.config/opencode/commands/my-command.md": "---\ndescription: The user's own command\n---\nSay hello.\n",
    };
    await roundTrip(stage("opencode"), "opencode", "global", user, loaded, {
      installed(found) {
        expectBosunLoaded(found);
        expect(found.skills).toContain("my-skill");
        expect(found.commands).toContain("my-command");
      },
      uninstalled(found) {
        expectNothingOfBosun(found);
        expect(found.skills).toContain("my-skill");
      },
    });
  }, 240_000);

  it("local: the project's .opencode gets the pack; uninstall leaves the project's own files as they were", async () => {
    const user = {
      "project/.opencode/commands/proj-command.md": "---\ndescription: The project's own command\n---\nRun the tests.\n",
      // With "$schema" already there: OpenCode itself adds it to a config file that lacks it.
      "project/opencode.jsonc": '{\n  // the project\'s settings\n  "$schema": "https://opencode.ai/config.json",\n  "share": "disabled",\n}\n',
    };
    await roundTrip(stage("opencode"), "opencode", "local", user, loaded, {
      installed: expectBosunLoaded,
      uninstalled(found) {
        expectNothingOfBosun(found);
        expect(found.commands).toContain("proj-command");
      },
    });
  }, 240_000);

  it("with Codex too: OpenCode lists bosun's skill once and Codex's commands not at all; uninstalling Codex takes nothing from OpenCode", async () => {
    const s = stage("opencode");
    await bosunInstall(s, "codex,opencode", "global");
    expectBosunLoaded(await loaded(s));
    await bosunUninstall(s, "codex", "global");
    expectBosunLoaded(await loaded(s));
  }, 240_000);
});
