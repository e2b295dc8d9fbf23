// A pack's support files (files/) and its path variables: where each runtime puts them (the
// contract's <runtime>.support row), how {pack-dir} and {config-dir} read in text and in hook
// commands for each scope and under the runtimes' folder variables, and that upgrade, uninstall
// and backups treat them like any other installed file.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { install, uninstall } from "../fixtures/install.js";
import { BINARY, supportPack, writePackFile } from "../fixtures/support-pack.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const SUPPORT = ["workflows/plan.md", "references/rules.md", "bin/tool.sh", "hooks/start.js", "hooks/lib/util.js", "hooks/package.json", "assets/logo.bin", ".version"];

function project(t: TempHome): string {
  const dir = join(t.root, "proj");
  t.write(join(dir, ".keep"), "");
  return dir;
}

const read = (path: string) => readFileSync(path, "utf8");

function expectSupportFiles(folder: string, textPath: string): void {
  for (const rel of SUPPORT) expect(existsSync(join(folder, rel)), rel).toBe(true);
  expect(read(join(folder, "workflows/plan.md"))).toBe(`# Plan (1.0.0)\n\nSee ${textPath}/references/rules.md.\n`);
  expect(read(join(folder, "hooks/start.js"))).toBe("require('./lib/util.js');\n");
  expect(readFileSync(join(folder, "assets/logo.bin")).equals(BINARY)).toBe(true);
  expect(statSync(join(folder, "bin/tool.sh")).mode & 0o777).toBe(0o755);
  expect(statSync(join(folder, "references/rules.md")).mode & 0o777).toBe(0o644);
}

describe("support files and path variables in each runtime", () => {
  it("Claude Code global, under CLAUDE_CONFIG_DIR: ~/<dir>/kit, text paths from ~, the hook command absolute", async () => {
    const t = makeTempHome();
    const pack = supportPack(join(t.root, "pack"));
    const env = { ...t.env, CLAUDE_CONFIG_DIR: join(t.home, "cfg/claude") };
    const outcome = await install(t, { pack, env });
    const root = join(t.home, "cfg/claude");
    expectSupportFiles(join(root, "kit"), "~/cfg/claude/kit");
    expect(read(join(root, "skills/kit-skill/SKILL.md"))).toBe("---\nname: kit-skill\ndescription: Uses the kit.\nargument-hint: \"<phase>\"\n---\n\nRead ~/cfg/claude/kit/workflows/plan.md and ~/cfg/claude/settings.json; keep {phase-dir} as it is.\n");
    expect(read(join(root, "commands/kit-do.md"))).toBe("---\ndescription: Runs the kit.\n---\n\nRun @~/cfg/claude/kit/workflows/plan.md for $ARGUMENTS.\n");
    expect(read(join(root, "agents/kit-agent.md"))).toBe("---\nname: kit-agent\ndescription: The kit's agent.\ntools: Read, Bash\ncolor: green\n---\n\nFollow ~/cfg/claude/kit/references/rules.md.\n");
    const settings = JSON.parse(read(join(root, "settings.json")));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`node ${root}/kit/hooks/start.js ${root}`);
    const manifest = JSON.parse(read(join(root, "bosun-manifest.json")));
    for (const rel of SUPPORT) expect(Object.keys(manifest.files)).toContain(`kit/${rel}`);
    const actions = outcome.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.rel.startsWith("kit/"));
    expect(actions).toHaveLength(SUPPORT.length);
    for (const action of actions) expect(action.reason).toMatch(/^files kit/);
  });

  it("Claude Code local: .claude/kit, text paths from the project (./.claude/kit)", async () => {
    const t = makeTempHome();
    const cwd = project(t);
    await install(t, { pack: supportPack(join(t.root, "pack")), scope: "local", cwd });
    const root = join(cwd, ".claude");
    expectSupportFiles(join(root, "kit"), "./.claude/kit");
    expect(read(join(root, "skills/kit-skill/SKILL.md"))).toContain("Read ./.claude/kit/workflows/plan.md and ./.claude/settings.json;");
    expect(JSON.parse(read(join(root, "settings.local.json"))).hooks.SessionStart[0].hooks[0].command).toBe(`node ${root}/kit/hooks/start.js ${root}`);
  });

  it("Codex global under CODEX_HOME: support files in $CODEX_HOME/kit while the skill goes to ~/.agents/skills", async () => {
    const t = makeTempHome();
    const env = { ...t.env, CODEX_HOME: join(t.root, "codex-home") };
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["codex"], env });
    const root = join(t.root, "codex-home");
    expectSupportFiles(join(root, "kit"), `${root}/kit`);
    // Outside the home folder: absolute; the skill keeps only the keys Codex takes.
    expect(read(join(t.home, ".agents/skills/kit-skill/SKILL.md"))).toBe(`---\nname: kit-skill\ndescription: Uses the kit.\n---\n\nRead ${root}/kit/workflows/plan.md and ${root}/settings.json; keep {phase-dir} as it is.\n`);
    expect(read(join(root, "skills/kit-do/SKILL.md"))).toContain(`Run @${root}/kit/workflows/plan.md for the user's request.`);
    expect(JSON.parse(read(join(root, "hooks.json"))).hooks.SessionStart[0].hooks[0].command).toBe(`node ${root}/kit/hooks/start.js ${root}`);
  });

  it("Codex local: .codex/kit", async () => {
    const t = makeTempHome();
    const cwd = project(t);
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["codex"], scope: "local", cwd });
    expectSupportFiles(join(cwd, ".codex/kit"), "./.codex/kit");
    expect(read(join(cwd, ".codex/skills/kit-skill/SKILL.md"))).toContain("Read ./.codex/kit/workflows/plan.md and ./.codex/settings.json;");
  });

  it("Gemini CLI global under GEMINI_CLI_HOME, and local with the hook written from \"$GEMINI_PROJECT_DIR\"", async () => {
    const t = makeTempHome();
    const env = { ...t.env, GEMINI_CLI_HOME: join(t.home, "g") };
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["gemini"], env });
    const root = join(t.home, "g/.gemini");
    expectSupportFiles(join(root, "kit"), "~/g/.gemini/kit");
    expect(JSON.parse(read(join(root, "settings.json"))).hooks.SessionStart[0].hooks[0].command).toBe(`node ${root}/kit/hooks/start.js ${root}`);

    const cwd = project(t);
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["gemini"], scope: "local", cwd });
    expectSupportFiles(join(cwd, ".gemini/kit"), "./.gemini/kit");
    expect(JSON.parse(read(join(cwd, ".gemini/settings.json"))).hooks.SessionStart[0].hooks[0].command).toBe('node "$GEMINI_PROJECT_DIR"/.gemini/kit/hooks/start.js "$GEMINI_PROJECT_DIR"/.gemini');
  });

  it("OpenCode global under XDG_CONFIG_HOME, and local", async () => {
    const t = makeTempHome();
    const env = { ...t.env, XDG_CONFIG_HOME: join(t.root, "xdg") };
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["opencode"], env });
    const root = join(t.root, "xdg/opencode");
    expectSupportFiles(join(root, "kit"), `${root}/kit`);
    const cwd = project(t);
    await install(t, { pack: supportPack(join(t.root, "pack")), runtimes: ["opencode"], scope: "local", cwd });
    expectSupportFiles(join(cwd, ".opencode/kit"), "./.opencode/kit");
  });

  it("Cline local keeps them beside bosun's own files, out of the project's: .bosun/cline/kit", async () => {
    const t = makeTempHome();
    const cwd = project(t);
    const pack = join(t.root, "pack");
    writePackFile(pack, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { commands: ["kit-do"] } }));
    writePackFile(pack, "commands/kit-do.md", "---\ndescription: Runs the kit.\n---\n\nRun {pack-dir}/plan.md.\n");
    writePackFile(pack, "files/plan.md", "plan\n");
    await install(t, { pack, runtimes: ["cline"], scope: "local", cwd });
    expect(read(join(cwd, ".bosun/cline/kit/plan.md"))).toBe("plan\n");
    expect(read(join(cwd, ".clinerules/workflows/kit-do.md"))).toContain("Run ./.bosun/cline/kit/plan.md.");
  });
});

describe("support files through upgrade and uninstall", () => {
  it("an upgrade replaces changed support files and removes dropped ones; uninstall removes exactly them and backs up an edited one", async () => {
    const t = makeTempHome();
    const pack = supportPack(join(t.root, "pack"));
    await install(t, { pack });
    const root = join(t.home, ".claude");
    writeFileSync(join(root, "kit/mine.md"), "my own file\n");
    // Version 2: plan.md changes, tool.sh is gone.
    const v2 = supportPack(join(t.root, "pack2"), "2.0.0");
    const { rmSync } = await import("node:fs");
    rmSync(join(v2, "files/bin"), { recursive: true });
    const upgrade = await install(t, { pack: v2 });
    const actions = upgrade.result.targets[0]!.roots[0]!.plan.actions.map((action) => `${action.type} ${action.rel}`);
    expect(actions).toContain("replace-file kit/workflows/plan.md");
    expect(actions).toContain("replace-file kit/.version");
    expect(actions).toContain("remove-managed kit/bin/tool.sh");
    expect(existsSync(join(root, "kit/bin"))).toBe(false);
    expect(read(join(root, "kit/workflows/plan.md"))).toContain("Plan (2.0.0)");

    writeFileSync(join(root, "kit/references/rules.md"), "edited rules\n");
    const removed = await uninstall(t, { pack: "kit" });
    const result = removed.result.targets[0]!.roots[0]!;
    expect(result.backups.map((backup) => read(join(root, backup)))).toEqual(["edited rules\n"]);
    expect(result.backups[0]).toMatch(/^bosun-backups\/.+\/kit\/references\/rules\.md$/);
    for (const rel of SUPPORT.filter((rel) => rel !== "bin/tool.sh")) expect(existsSync(join(root, "kit", rel)), rel).toBe(false);
    // Yours stays, and so does its folder.
    expect(read(join(root, "kit/mine.md"))).toBe("my own file\n");
  });
});
