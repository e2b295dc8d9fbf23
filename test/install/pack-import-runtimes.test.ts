// `bosun pack import` from Codex, Gemini CLI and OpenCode (their own folders and formats back to
// bosun's canonical form), and from a project's Claude Code folder.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const SKILL = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\nDo ${name}.\n`;

async function importFrom(t: TempHome, runtime: string, extra: string[] = [], cwd = t.root) {
  const out = join(t.root, "out");
  const result = await runCli(["pack", "import", "--runtime", runtime, "--out", out, "--json", ...extra], t.env, cwd);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return { out, report: JSON.parse(result.stdout), pack: JSON.parse(readFileSync(join(out, "pack.json"), "utf8")) };
}

describe("bosun pack import from other runtimes", () => {
  it("Gemini CLI: TOML commands back to markdown, agents, BeforeTool hooks in milliseconds", async () => {
    const t = makeTempHome();
    const gemini = join(t.home, ".gemini");
    t.write(`${gemini}/skills/notes/SKILL.md`, SKILL("notes"));
    t.write(`${gemini}/commands/ship.toml`, 'description = "Ship it"\nprompt = """\nShip {{args}} now.\n"""\n');
    t.write(`${gemini}/agents/checker.md`, "---\nname: checker\ndescription: Checks\ntemperature: 0.2\n---\nCheck.\n");
    t.write(`${gemini}/settings.json`, JSON.stringify({ hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: `node ${gemini}/tools/guard.js`, timeout: 1500 }] }] } }));
    t.write(`${gemini}/oauth_creds.json`, "{}");
    const { out, report, pack } = await importFrom(t, "gemini");
    expect(pack.artifacts).toEqual({ skills: ["notes"], commands: ["ship"], agents: ["checker"], hooks: ["guard"] });
    expect(readFileSync(join(out, "commands/ship.md"), "utf8")).toBe("---\ndescription: Ship it\n---\nShip $ARGUMENTS now.\n");
    expect(JSON.parse(readFileSync(join(out, "hooks/guard.json"), "utf8"))).toEqual({ event: "pre-tool", command: "node {config-dir}/tools/guard.js", timeout: 2, matcher: "run_shell_command" });
    expect(report.skipped.find((skip: { what: string }) => skip.what === "oauth_creds.json").why).toMatch(/runtime's own state/);
    expect(report.check.every((check: { ok: boolean }) => check.ok)).toBe(true);
  });

  it("OpenCode: agents without the mode line bosun writes itself, commands as they are", async () => {
    const t = makeTempHome();
    const opencode = join(t.home, ".config/opencode");
    t.write(`${opencode}/agents/checker.md`, "---\ndescription: Checks\nmode: subagent\ntemperature: 0.1\n---\nCheck.\n");
    t.write(`${opencode}/commands/ship.md`, "---\ndescription: Ship it\n---\nShip $ARGUMENTS.\n");
    t.write(`${opencode}/skills/notes/SKILL.md`, SKILL("notes"));
    const { out, pack } = await importFrom(t, "opencode");
    expect(pack.artifacts).toEqual({ skills: ["notes"], commands: ["ship"], agents: ["checker"] });
    expect(readFileSync(join(out, "agents/checker.md"), "utf8")).toBe("---\ndescription: Checks\ntemperature: 0.1\n---\nCheck.\n");
  });

  it("Codex: skills from ~/.agents/skills and $CODEX_HOME/skills (not its .system ones), hooks from hooks.json", async () => {
    const t = makeTempHome();
    t.write(`${t.home}/.agents/skills/notes/SKILL.md`, SKILL("notes"));
    t.write(`${t.home}/.codex/skills/ship/SKILL.md`, SKILL("ship"));
    t.write(`${t.home}/.codex/skills/.system/imagegen/SKILL.md`, SKILL("imagegen"));
    t.write(`${t.home}/.codex/hooks.json`, JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo hi", timeout: 3 }] }] } }));
    t.write(`${t.home}/.codex/auth.json`, "{}");
    const { report, pack } = await importFrom(t, "codex");
    expect(pack.artifacts).toEqual({ skills: ["notes", "ship"], hooks: ["session-start"] });
    expect(report.skipped.find((skip: { what: string }) => skip.what === "skills/.system").why).toMatch(/runtime's own/);
    expect(report.skipped.find((skip: { what: string }) => skip.what === "auth.json").why).toMatch(/runtime's own state/);
  });

  it("a project's .claude: its absolute path becomes {config-dir}", async () => {
    const t = makeTempHome();
    const project = join(t.root, "project");
    mkdirSync(project);
    t.write(`${project}/.claude/skills/notes/SKILL.md`, `---\nname: notes\ndescription: Notes\n---\nRead ${project}/.claude/NOTES.md.\n`);
    const { out } = await importFrom(t, "claude", ["--scope", "local"], project);
    expect(readFileSync(join(out, "skills/notes/SKILL.md"), "utf8")).toContain("Read {config-dir}/NOTES.md.");
  });
});
