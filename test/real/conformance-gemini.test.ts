// Conformance with the real Gemini CLI (0.61.0, offline, no credentials): after `bosun install`
// `gemini skills list` has bosun's skill and loads its agent without an error; after `bosun
// uninstall` nothing of bosun's is listed and the user's own files are byte-identical to before.
// With Codex installed too, Gemini reads bosun's skill from ~/.agents/skills (no duplicate, no
// "Skill conflict detected"), and uninstalling Codex does not take it away. (Gemini has no command
// to list commands, and runs hooks only once it passes its auth check.)
import { describe, expect, it } from "vitest";
import { bosunInstall, bosunUninstall, PACK, roundTrip, stage, userSkill, type Stage } from "../fixtures/conformance.js";

interface Listed {
  /** Skill names, one entry per skill listed. */
  skills: string[];
  /** Lines about a skill or agent Gemini could not load, or a conflict. */
  problems: string[];
  locations: string[];
}

async function listed(s: Stage): Promise<Listed> {
  // A trusted folder: Gemini ignores a project's skills and agents otherwise.
  const run = await s.run(["skills", "list"], { GEMINI_CLI_TRUST_WORKSPACE: "true" });
  expect(run.timedOut).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const text = `${run.stdout}\n${run.stderr}`;
  return {
    skills: [...text.matchAll(/^(\S+) \[(Enabled|Disabled)\]/gm)].map((match) => match[1] as string).sort(),
    problems: text.split("\n").filter((line) => /conflict|error|failed|invalid/i.test(line)),
    locations: [...text.matchAll(/Location:\s+(\S+)/g)].map((match) => match[1] as string),
  };
}

/** Bosun's skill listed with the user's, no problem line; then only the user's. */
const checks = (mine: string) => ({
  installed(found: Listed) {
    expect(found.skills).toEqual([mine, PACK.skill].sort());
    expect(found.problems).toEqual([]);
  },
  uninstalled(found: Listed) {
    expect(found.skills).toEqual([mine]);
    expect(found.problems).toEqual([]);
  },
});

describe("conformance: Gemini CLI", () => {
  it("global: the skill listed and the agent loaded; uninstalled, gone, the user's files untouched", async () => {
    const user = {
      "home/.gemini/settings.json": '{\n  // my Gemini settings\n  "ui": { "theme": "Default" },\n  "general": { "vimMode": false }\n}\n',
      "home/.gemini/skills/my-skill/SKILL.md": userSkill("my-skill"),
      "home/.gemini/commands/my-command.toml": 'description = "The user\'s own command"\nprompt = "Say hello."\n',
    };
    await roundTrip(stage("gemini"), "gemini", "global", user, listed, checks("my-skill"));
  }, 240_000);

  it("local: the project's .gemini gets the pack; uninstall leaves the project's own files as they were", async () => {
    const user = {
      "project/.gemini/settings.json": '{\n  // the project\'s settings\n  "context": { "fileName": "GEMINI.md" }\n}\n',
      "project/.gemini/skills/proj-skill/SKILL.md": userSkill("proj-skill"),
    };
    await roundTrip(stage("gemini"), "gemini", "local", user, listed, checks("proj-skill"));
  }, 240_000);

  it("with Codex: one copy, read from ~/.agents/skills, no conflict; uninstalling Codex keeps it for Gemini, uninstalling Gemini then removes it", async () => {
    const s = stage("gemini");
    await bosunInstall(s, "codex,gemini", "global");
    const both = await listed(s);
    expect(both.skills).toEqual([PACK.skill]);
    expect(both.locations).toEqual([`${s.t.home}/.agents/skills/${PACK.skill}/SKILL.md`]);
    expect(both.problems).toEqual([]);
    await bosunUninstall(s, "codex", "global");
    const kept = await listed(s);
    expect(kept.skills).toEqual([PACK.skill]);
    expect(kept.problems).toEqual([]);
    await bosunUninstall(s, "gemini", "global");
    expect((await listed(s)).skills).toEqual([]);
  }, 300_000);
});
