// Conformance with the real Claude Code (2.1.197, offline, no credentials): after `bosun install`
// its stream-json init line lists bosun's skill, commands and agent and its SessionStart hook runs;
// after `bosun uninstall` nothing of bosun's is listed, nothing fails, and the user's own files are
// byte-identical to before.
import { describe, expect, it } from "vitest";
import { PACK, roundTrip, stage, userSkill, type Stage } from "../fixtures/conformance.js";

interface Loaded {
  skills: string[];
  commands: string[];
  agents: string[];
  /** SessionStart hook runs: each command's exit code and outcome. */
  hooks: { command: string; exitCode: unknown; outcome: unknown }[];
  errors: string[];
}

/** What Claude Code loaded, from `claude -p --output-format stream-json --verbose --include-hook-events`. */
async function loaded(s: Stage): Promise<Loaded> {
  const run = await s.run(["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "hello"]);
  expect(run.timedOut, run.stderr).toBe(false);
  const events = run.stdout.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  const init = events.find((event) => event.type === "system" && event.subtype === "init");
  expect(init, `no init line in ${run.stdout.slice(0, 400)} ${run.stderr.slice(0, 400)}`).toBeDefined();
  const starts = events.filter((event) => event.subtype === "hook_response" && event.hook_event === "SessionStart");
  return {
    skills: (init!.skills as string[]) ?? [],
    commands: (init!.slash_commands as string[]) ?? [],
    agents: (init!.agents as string[]) ?? [],
    hooks: starts.map((event) => ({ command: String(event.hook_name ?? event.command ?? ""), exitCode: event.exit_code, outcome: event.outcome })),
    errors: run.stderr.split("\n").filter((line) => /error/i.test(line)),
  };
}

function expectBosunLoaded(found: Loaded): void {
  expect(found.skills).toContain(PACK.skill);
  for (const command of PACK.commands) expect(found.commands).toContain(command);
  expect(found.agents).toContain(PACK.agent);
  // bosun's SessionStart hook ran, and succeeded.
  expect(found.hooks.length, JSON.stringify(found.hooks)).toBeGreaterThan(0);
  expect(found.hooks.every((hook) => hook.exitCode === 0 && hook.outcome === "success"), JSON.stringify(found.hooks)).toBe(true);
}

function expectNothingOfBosun(found: Loaded): void {
  const ours = [...found.skills, ...found.commands, ...found.agents].filter((name) => name.startsWith("bosun"));
  expect(ours).toEqual([]);
  expect(found.hooks).toEqual([]);
  expect(found.errors).toEqual([]);
}

describe("conformance: Claude Code", () => {
  it("global: installed, listed, hook run; uninstalled, gone, the user's files untouched", async () => {
    await roundTrip(
      stage("claude"),
      "claude",
      "global",
      {
        "home/.claude/skills/my-skill/SKILL.md": userSkill("my-skill"),
        "home/.claude/commands/my-command.md": "---\ndescription: The user's own command\n---\nSay hello.\n",
        // Claude ignores a settings.json with comments whole, so the user's settings here are plain JSON, with their own layout.
        "home/.claude/settings.json": '{\n    "env": { "MY_SETTING": "1" },\n    "permissions": { "allow": ["Bash(ls:*)"] }\n}',
      },
      loaded,
      {
        installed(found) {
          expectBosunLoaded(found);
          expect(found.skills).toContain("my-skill");
          expect(found.commands).toContain("my-command");
        },
        uninstalled(found) {
          expectNothingOfBosun(found);
          expect(found.skills).toContain("my-skill");
        },
      },
    );
  }, 180_000);

  it("local: the project's .claude gets the pack and the hook (settings.local.json); uninstall leaves the project's own files as they were", async () => {
    const project = {
      "project/.claude/commands/proj-command.md": "---\ndescription: The project's own command\n---\nRun the tests.\n",
      "project/.claude/settings.json": '{\n  "permissions": { "deny": ["Bash(rm:*)"] }\n}\n',
    };
    await roundTrip(stage("claude"), "claude", "local", project, loaded, {
      installed(found) {
        expectBosunLoaded(found);
        expect(found.commands).toContain("proj-command");
      },
      uninstalled(found) {
        expectNothingOfBosun(found);
        expect(found.commands).toContain("proj-command");
      },
    });
  }, 180_000);
});
