// Packs: bosun's own pack loads and renders its references from bosun.json; a bad pack.json or
// an artifact with bad frontmatter is one clear error (file, line, field) before anything is
// written.
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledPackDir } from "../../src/install/install-pack.js";
import { loadPack } from "../../src/install/pack/load-pack.js";
import { PackError } from "../../src/install/pack/pack-error.js";
import { runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, PACKAGE_ROOT, packDir } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

describe("bosun's own pack", () => {
  it("has the orchestrator skill with a reference per agent, two commands, the reviewer and the session-start hook", () => {
    const pack = loadPack(bundledPackDir(PACKAGE_ROOT));
    expect(pack.name).toBe("bosun");
    expect(pack.skills.map((skill) => skill.name)).toEqual(["bosun-orchestrator"]);
    expect(pack.skills[0]!.files.map((file) => file.rel).sort()).toEqual(["SKILL.md", ...["a0", "claude", "codex", "cursor", "gemini", "grok", "hermes", "opencode"].map((id) => `references/${id}.md`)].sort());
    expect(pack.skills[0]!.files.filter((file) => file.template).map((file) => file.rel)).toHaveLength(8);
    expect(pack.commands.map((command) => command.name)).toEqual(["bosun-status", "bosun-delegate"]);
    expect(pack.agents.map((agent) => agent.name)).toEqual(["bosun-reviewer"]);
    expect(pack.hooks).toEqual([expect.objectContaining({ name: "bosun-session-start", event: "session-start", command: "{bosun-hook} session-start" })]);
    const skill = readFileSync(join(bundledPackDir(PACKAGE_ROOT), "skills/bosun-orchestrator/SKILL.md"), "utf8");
    for (const topic of ["bosun agents --json", "self-contained brief", "explicit", "Sign-in is the user's job", "full-screen", "Check the result"]) expect(skill).toContain(topic);
  });

  it("renders each agent's reference from bosun.json agents.<id> at install time, and installs the hook helper with its hook", async () => {
    const t = makeTempHome();
    await install(t, { agentsConfig: { codex: { model: "gpt-5-codex", bypass_sandbox: false }, claude: { binary: "/opt/claude/bin/claude", bare: true } } });
    const refs = join(t.home, ".claude/skills/bosun-orchestrator/references");
    const codex = readFileSync(join(refs, "codex.md"), "utf8");
    expect(codex).toContain("codex exec --skip-git-repo-check -m gpt-5-codex -C \"$WORKDIR\" \"$TASK\"");
    expect(codex).not.toContain("--dangerously-bypass-approvals-and-sandbox");
    expect(readFileSync(join(refs, "claude.md"), "utf8")).toContain('cd "$WORKDIR" && /opt/claude/bin/claude -p "$TASK" --output-format json --permission-mode bypassPermissions --allowedTools Bash,Read,Edit --bare');
    expect(readFileSync(join(refs, "gemini.md"), "utf8")).toContain("model `(the CLI's default)`");
    expect(readFileSync(join(refs, "a0.md"), "utf8")).not.toMatch(/\{\{/);
    const helper = join(t.paths.data, "bin/bosun-hook.mjs");
    expect(readFileSync(helper, "utf8")).toBe(readFileSync(join(PACKAGE_ROOT, "assets/bin/bosun-hook.mjs"), "utf8"));
    const settings = JSON.parse(readFileSync(join(t.home, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`node ${helper} session-start`);
    // A changed bosun.json re-renders the references on the next install (bosun's unchanged files are replaced).
    const again = await install(t, { agentsConfig: { codex: { model: "o3" } } });
    expect(again.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.type === "replace-file").map((action) => action.rel)).toEqual(["skills/bosun-orchestrator/references/claude.md", "skills/bosun-orchestrator/references/codex.md"]);
  });
});

/** A copy of the demo pack to break, in the temp folder. */
function brokenPack(t: TempHome, breakIt: (dir: string) => void): string {
  const dir = join(t.root, "broken");
  cpSync(packDir("demo-v2"), dir, { recursive: true });
  breakIt(dir);
  return dir;
}

const edit = (path: string, change: (text: string) => string) => writeFileSync(path, change(readFileSync(path, "utf8")));

describe("a bad pack is one clear error, and nothing is written", () => {
  const cases: [string, (dir: string) => void, RegExp][] = [
    ["pack.json is not JSON", (dir) => writeFileSync(join(dir, "pack.json"), '{\n  "name": "demo",\n  "version": \n}'), /broken\/pack\.json:4: invalid JSON \(value expected\)$/],
    ["an unknown key", (dir) => edit(join(dir, "pack.json"), (text) => text.replace('"name"', '"nmae": 1, "name"')), /pack\.json:2: nmae: unknown key$/],
    ["a bad version", (dir) => edit(join(dir, "pack.json"), (text) => text.replace('"2.0.0"', '"two"')), /pack\.json:3: version: use a semantic version such as 1\.2\.0$/],
    ["a listed artifact that is missing", (dir) => rmSync(join(dir, "agents/demo-agent.md")), /agents\/demo-agent\.md: is missing \(listed in pack\.json artifacts\.agents\)$/],
    ["an artifact that is not listed", (dir) => writeFileSync(join(dir, "commands/extra.md"), "---\ndescription: x\n---\nx\n"), /commands\/extra\.md: is not listed in pack\.json artifacts\.commands$/],
    ["frontmatter that is not YAML", (dir) => edit(join(dir, "commands/demo-new.md"), (text) => text.replace("argument-hint:", "argument-hint: [oops")), /commands\/demo-new\.md:3: invalid YAML in frontmatter/],
    ["no frontmatter", (dir) => writeFileSync(join(dir, "agents/demo-agent.md"), "You are an agent.\n"), /agents\/demo-agent\.md:1: missing frontmatter/],
    ["a missing description", (dir) => edit(join(dir, "skills/demo-skill/SKILL.md"), (text) => text.replace(/description:.*\n/, "")), /SKILL\.md:1: description: is required in the frontmatter$/],
    ["a known frontmatter key of the wrong type", (dir) => edit(join(dir, "commands/demo-new.md"), (text) => text.replace("---\n\n", "disable-model-invocation: sometimes\n---\n\n")), /commands\/demo-new\.md:4: disable-model-invocation: has the wrong type: expected boolean/],
    ["a skill named unlike its folder", (dir) => edit(join(dir, "skills/demo-skill/SKILL.md"), (text) => text.replace("name: demo-skill", "name: other")), /SKILL\.md:2: name: must equal the folder name "demo-skill"$/],
    ["a symlink in the pack", (dir) => symlinkSync("/etc/passwd", join(dir, "skills/demo-skill/references/passwd")), /references\/passwd: is a symlink; a pack holds real folders and files only$/],
    ["a hook with an unknown placeholder", (dir) => writeFileSync(join(dir, "hooks/demo-hook.json"), JSON.stringify({ event: "session-start", command: "{bosun-helper} x" })), /hooks\/demo-hook\.json: command: unknown placeholder \{bosun-helper\}/],
    ["a hook on an unknown event", (dir) => writeFileSync(join(dir, "hooks/demo-hook.json"), JSON.stringify({ event: "boot", command: "x" })), /hooks\/demo-hook\.json:1: event: invalid option/],
    ["a template with an unknown value", (dir) => (edit(join(dir, "pack.json"), (text) => text.replace('"artifacts"', '"templates": ["skills/**"], "artifacts"')), writeFileSync(join(dir, "skills/demo-skill/references/notes.md"), "line\n{{agents.codex.colour}}\n")), /references\/notes\.md:2: unknown template value \{\{agents\.codex\.colour\}\}$/],
    ["an unclosed template section", (dir) => (edit(join(dir, "pack.json"), (text) => text.replace('"artifacts"', '"templates": ["skills/**"], "artifacts"')), writeFileSync(join(dir, "skills/demo-skill/references/notes.md"), "{{#agents.codex.model}}x\n")), /notes\.md:1: \{\{#agents\.codex\.model\}\} is never closed$/],
    ["a migration that removes but says it is not destructive", (dir) => edit(join(dir, "migrations/001-rename-command.json"), (text) => text.replace('"destructive": true', '"destructive": false').replace("rename-command", "retire-command").replace('"from": "demo-old", "to": "demo-new"', '"name": "demo-old"')), /001-rename-command\.json: destructive: its steps remove files, so it must say destructive: true$/],
    ["a migration for an unknown runtime", (dir) => edit(join(dir, "migrations/001-rename-command.json"), (text) => text.replace('"scopes"', '"runtimes": ["aider"], "scopes"')), /001-rename-command\.json: runtimes: unknown runtime "aider"/],
  ];

  it.each(cases)("%s", async (_label, breakIt, expected) => {
    const t = makeTempHome();
    const dir = brokenPack(t, breakIt);
    expect(() => loadPack(dir)).toThrow(PackError);
    const before = snapshotTree(t.home);
    const result = await runCli(["install", dir, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(expected);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("a folder that is not a pack", async () => {
    const t = makeTempHome();
    const result = await runCli(["install", t.root, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(result.stderr).toMatch(/pack\.json: not a pack folder: pack\.json is missing/);
  });
});
