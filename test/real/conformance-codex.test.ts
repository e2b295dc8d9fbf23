// Conformance with the real Codex CLI (0.171.0, offline, no credentials): after `bosun install`
// `codex debug prompt-input` shows the model bosun's skill and its commands (as skills), and the
// app-server's hooks/list has bosun's SessionStart hook (Codex runs it once the user trusts it);
// after `bosun uninstall` nothing of bosun's is there, nothing fails, and the user's own files are
// byte-identical to before.
import { describe, expect, it } from "vitest";
import { codexAppServer, PACK, roundTrip, stage, userSkill, type Stage } from "../fixtures/conformance.js";

/** The skill names the model is shown (`- name: description (file: …)` lines of the skills block). */
async function skills(s: Stage): Promise<string[]> {
  const run = await s.run(["debug", "prompt-input", "hello"]);
  expect(run.timedOut).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr.trim()).toBe("");
  return [...run.stdout.matchAll(/\\n- ([a-z0-9-]+): /g)].map((match) => match[1] as string).sort();
}

/** The SessionStart hooks Codex lists for the project (app-server hooks/list), and its warnings and errors. */
async function hooks(s: Stage): Promise<{ commands: string[]; problems: unknown[] }> {
  const answer = await codexAppServer(s, "hooks/list", { cwds: [s.project] });
  expect(answer, "codex app-server did not answer hooks/list").not.toBeNull();
  const entry = ((answer!.result as { data: Record<string, unknown>[] }).data[0] ?? {}) as { hooks?: { eventName: string; command: string }[]; warnings?: unknown[]; errors?: unknown[] };
  return { commands: (entry.hooks ?? []).filter((hook) => hook.eventName === "sessionStart").map((hook) => hook.command), problems: [...(entry.warnings ?? []), ...(entry.errors ?? [])] };
}

const ourHook = (commands: string[]) => commands.filter((command) => command.includes("bosun-hook.mjs session-start"));

/** What Codex shows: the skills the model sees, and its SessionStart hooks. */
async function loaded(s: Stage): Promise<{ skills: string[]; hooks: { commands: string[]; problems: unknown[] } }> {
  return { skills: await skills(s), hooks: await hooks(s) };
}

const checks = (mine: string[]) => ({
  installed(found: Awaited<ReturnType<typeof loaded>>) {
    for (const name of [PACK.skill, ...PACK.commands, ...mine]) expect(found.skills).toContain(name);
    // Each exactly once: no copy in two of the folders Codex reads.
    for (const name of [PACK.skill, ...PACK.commands]) expect(found.skills.filter((entry) => entry === name)).toHaveLength(1);
    expect(ourHook(found.hooks.commands)).toHaveLength(1);
    expect(found.hooks.problems).toEqual([]);
  },
  uninstalled(found: Awaited<ReturnType<typeof loaded>>) {
    expect(found.skills.filter((name) => name.startsWith("bosun"))).toEqual([]);
    for (const name of mine) expect(found.skills).toContain(name);
    expect(ourHook(found.hooks.commands)).toEqual([]);
    expect(found.hooks.problems).toEqual([]);
  },
});

describe("conformance: Codex CLI", () => {
  it("global: skills in ~/.agents/skills, commands in ~/.codex/skills, the hook listed; uninstalled, gone, the user's files untouched", async () => {
    const user = {
      "home/.agents/skills/my-skill/SKILL.md": userSkill("my-skill"),
      "home/.codex/skills/my-command/SKILL.md": userSkill("my-command"),
      "home/.codex/config.toml": '# my Codex settings\nmodel = "gpt-5" # the one I use\n\n[tui]\n# keep it calm\nanimations = false\n',
    };
    await roundTrip(stage("codex"), "codex", "global", user, loaded, checks(["my-skill", "my-command"]));
  }, 180_000);

  it("local: the project's .codex gets the pack (hooks listed in a trusted project); uninstall leaves the project's own files as they were", async () => {
    const s = stage("codex");
    // Codex reads a project's hooks only when the project is trusted (the user's own global config says so).
    s.t.write("home/.codex/config.toml", `[projects."${s.project}"]\ntrust_level = "trusted"\n`);
    const user = {
      "project/.codex/skills/proj-skill/SKILL.md": userSkill("proj-skill"),
      "project/.codex/config.toml": "# the project's settings\n[features]\n# nothing yet\n",
    };
    await roundTrip(s, "codex", "local", user, loaded, checks(["proj-skill"]));
  }, 180_000);
});
