// Dotted names, judged by the real CLIs (offline), as name-rules.ts says: Codex 0.171.0 shows the
// model a pack's dotted skill (in ~/.agents/skills) and dotted command (a skill in
// ~/.codex/skills) under their dotted names; OpenCode 1.18.33 loads a dotted agent, skill and
// command, and the agent carries the OpenCode keys the frontmatter table passes (`temperature`).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stage } from "../fixtures/conformance.js";
import { writePackFile } from "../fixtures/support-pack.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

describe("Codex CLI and dotted names", () => {
  it("lists a dotted skill and a dotted command", async () => {
    const s = stage("codex");
    const pack = join(s.t.root, "pack");
    writePackFile(pack, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { skills: ["kit-skill.compact"], commands: ["kit-do.quick"] } }));
    writePackFile(pack, "skills/kit-skill.compact/SKILL.md", "---\nname: kit-skill.compact\ndescription: A dotted skill.\n---\n\nBody.\n");
    writePackFile(pack, "commands/kit-do.quick.md", "---\ndescription: A dotted command.\n---\n\nDo it for $ARGUMENTS.\n");
    const installed = await s.bosun(["install", pack, "--runtime", "codex", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const run = await s.run(["debug", "prompt-input", "hello"]);
    expect(run.timedOut).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim()).toBe("");
    expect(run.stdout).toContain("\\n- kit-skill.compact: A dotted skill. (file: ");
    expect(run.stdout).toContain("\\n- kit-do.quick: A dotted command. (file: ");
  }, 180_000);

  it("OpenCode loads a dotted agent (with its temperature), skill and command", async () => {
    const s = stage("opencode");
    const pack = join(s.t.root, "pack");
    writePackFile(pack, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { agents: ["kit-agent.compact"], skills: ["kit-skill.compact"], commands: ["kit-do.quick"] } }));
    writePackFile(pack, "agents/kit-agent.compact.md", "---\nname: kit-agent\ndescription: A dotted agent.\ncolor: green\ntemperature: 0.2\n---\n\nDo the work.\n");
    writePackFile(pack, "skills/kit-skill.compact/SKILL.md", "---\nname: kit-skill.compact\ndescription: A dotted skill.\n---\n\nBody.\n");
    writePackFile(pack, "commands/kit-do.quick.md", "---\ndescription: A dotted command.\n---\n\nDo it for $ARGUMENTS.\n");
    const installed = await s.bosun(["install", pack, "--runtime", "opencode", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const config = await s.run(["debug", "config"]);
    expect(config.code, config.stderr).toBe(0);
    const parsed = JSON.parse(config.stdout.replace(ANSI, "")) as { command?: Record<string, unknown>; agent?: Record<string, { mode?: string; temperature?: number }> };
    expect(parsed.agent?.["kit-agent.compact"]).toMatchObject({ mode: "subagent", temperature: 0.2 });
    expect(Object.keys(parsed.command ?? {})).toContain("kit-do.quick");
    const skill = await s.run(["debug", "skill"]);
    expect(skill.code, skill.stderr).toBe(0);
    const text = skill.stdout.replace(ANSI, "");
    expect((JSON.parse(text.slice(text.indexOf("["))) as { name: string }[]).map((entry) => entry.name)).toContain("kit-skill.compact");
  }, 180_000);
});
