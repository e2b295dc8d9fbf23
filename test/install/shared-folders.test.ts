// Folders several runtimes read (~/.agents/skills: Codex, Gemini CLI, OpenCode): no runtime shows
// a bosun skill or command twice, uninstalling one runtime never takes a skill away from another
// installed one, and `install --status` says when a skill read from a shared folder is gone.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectInstallStatus } from "../../src/install/records/install-status.js";
import { listInstallRuntimes } from "../../src/runtimes/registry.js";
import * as nodeFs from "node:fs";
import { runCli } from "../fixtures/cli.js";
import { install, uninstall } from "../fixtures/install.js";
import { sharedReadsTableRows } from "../fixtures/shared-tables.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const SKILL = "bosun-orchestrator";
const COMMANDS = ["bosun-delegate", "bosun-status"];

/** The skill folder names under a skills folder. */
function skillNames(dir: string): string[] {
  return existsSync(dir) ? nodeFs.readdirSync(dir).filter((name) => existsSync(join(dir, name, "SKILL.md"))).sort() : [];
}

function status(t: TempHome, runtimes: string[], cwd = t.home) {
  return collectInstallStatus({ runtimes: listInstallRuntimes().filter((runtime) => runtimes.includes(runtime.id)), scopes: ["global"], ctx: { env: t.env, home: t.home, cwd }, fs: nodeFs, checkDrift: true });
}

describe("shared skill folders", () => {
  it("Codex's commands stay out of ~/.agents/skills, so Gemini CLI and OpenCode list each command once", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex", "gemini", "opencode"] });
    // Only real skills go to the shared folder; Codex's commands (as skills) go to its own folder.
    expect(skillNames(join(t.home, ".agents/skills"))).toEqual([SKILL]);
    expect(skillNames(join(t.home, ".codex/skills"))).toEqual(COMMANDS);
    // Gemini and OpenCode keep their own commands.
    expect(nodeFs.readdirSync(join(t.home, ".gemini/commands")).sort()).toEqual(["bosun-delegate.toml", "bosun-status.toml"]);
    expect(nodeFs.readdirSync(join(t.home, ".config/opencode/commands")).sort()).toEqual(["bosun-delegate.md", "bosun-status.md"]);
  });

  it("OpenCode keeps its own copy (it lists a skill once, from its own folder); Gemini CLI, which warns about a duplicate, skips its copy", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { runtimes: ["codex", "gemini", "opencode"] });
    expect(skillNames(join(t.home, ".config/opencode/skills"))).toEqual([SKILL]);
    expect(skillNames(join(t.home, ".gemini/skills"))).toEqual([]);
    const skipped = (id: string) => outcome.result.targets.find(({ target }) => target.runtime.id === id)!.target.desired!.skipped.filter((entry) => entry.kind === "skill");
    expect(skipped("gemini")).toEqual([{ kind: "skill", name: SKILL, reason: "Gemini CLI also reads ~/.agents/skills, where bosun installs it for OpenAI Codex CLI" }]);
    expect(skipped("opencode")).toEqual([]);
  });

  it("uninstalling Codex keeps ~/.agents/skills/<skill> while Gemini CLI reads it; uninstalling Gemini CLI then takes it away", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex", "gemini", "opencode"] });
    const skillFile = join(t.home, ".agents/skills", SKILL, "SKILL.md");
    const before = readFileSync(skillFile, "utf8");
    const removed = await uninstall(t, { runtimes: ["codex"] });
    expect(readFileSync(skillFile, "utf8")).toBe(before);
    const agentsRoot = removed.result.targets.flatMap(({ roots }) => roots).find((root) => root.root.key === "agents-home")!;
    expect(agentsRoot.plan.actions.find((action) => action.rel === `skills/${SKILL}/SKILL.md`)).toMatchObject({ type: "keep-file", reason: "kept: gemini global reads it here and has no copy of its own" });
    // Codex's own folder is empty of bosun; OpenCode never depended on it.
    expect(existsSync(join(t.home, ".codex/bosun-manifest.json"))).toBe(false);
    expect(skillNames(join(t.home, ".config/opencode/skills"))).toEqual([SKILL]);
    const manifest = JSON.parse(readFileSync(join(t.home, ".agents/bosun-manifest.json"), "utf8"));
    expect(manifest.packs.bosun.heldFor).toEqual(["gemini global"]);
    // The status says what the folder is kept for, and Gemini has no drift.
    const rows = status(t, ["codex", "gemini"]);
    expect(rows.find((row) => row.key === "agents-home")!.packs[0]!.heldFor).toEqual(["gemini global"]);
    expect(rows.find((row) => row.runtime === "gemini")!.drift).toEqual({ modified: [], missing: [], config: [], shared: [] });
    const text = (await runCli(["install", "--status", "--runtime", "codex"], t.env, t.home)).stdout;
    expect(text).toMatch(/bosun 0\.1\.0 \(uninstalled; kept for gemini global\)/);

    // The last reader leaves: the held folder goes with it, and so does ~/.agents (bosun made it).
    const last = await uninstall(t, { runtimes: ["gemini"] });
    expect(last.result.targets.map(({ target }) => `${target.runtime.id} ${target.scope}`)).toEqual(["gemini global", "codex global"]);
    expect(existsSync(join(t.home, ".agents"))).toBe(false);
  });

  it("reinstalling Codex after it was uninstalled takes the held folder back as its own", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex", "gemini"] });
    await uninstall(t, { runtimes: ["codex"] });
    await install(t, { runtimes: ["codex"] });
    const manifest = JSON.parse(readFileSync(join(t.home, ".agents/bosun-manifest.json"), "utf8"));
    expect(manifest.packs.bosun.heldFor).toBeUndefined();
    // A later uninstall of Gemini leaves Codex's skill alone.
    await uninstall(t, { runtimes: ["gemini"] });
    expect(skillNames(join(t.home, ".agents/skills"))).toEqual([SKILL]);
  });

  it("a Gemini CLI that has its own copy is not a reason to keep anything", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["gemini"] });
    await install(t, { runtimes: ["codex"] });
    expect(skillNames(join(t.home, ".gemini/skills"))).toEqual([SKILL]);
    await uninstall(t, { runtimes: ["codex"] });
    expect(existsSync(join(t.home, ".agents"))).toBe(false);
  });

  it("install --status reports a shared skill a runtime reads that is gone", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex", "gemini"] });
    rmSync(join(t.home, ".agents/skills", SKILL), { recursive: true });
    const gemini = status(t, ["gemini"]).find((row) => row.runtime === "gemini")!;
    expect(gemini.drift!.shared).toEqual([`~/.agents/skills/${SKILL}/SKILL.md`]);
    const text = (await runCli(["install", "--status", "--runtime", "gemini"], t.env, t.home)).stdout;
    expect(text).toContain(`~/.agents/skills/${SKILL}/SKILL.md gone (read from a shared folder)`);
  });

  it("Codex in a project skips the skills and commands it already reads from Codex's global folders, and an uninstall of the global one keeps them for it", async () => {
    const t = makeTempHome();
    const project = join(t.root, "project");
    nodeFs.mkdirSync(project);
    await install(t, { runtimes: ["codex"] });
    const local = await install(t, { runtimes: ["codex"], scope: "local", cwd: project });
    expect(local.result.targets[0]!.target.desired!.skipped.map((entry) => `${entry.kind} ${entry.name}`)).toEqual(["skill bosun-orchestrator", "command bosun-status", "command bosun-delegate", "agent bosun-reviewer"]);
    expect(skillNames(join(project, ".codex/skills"))).toEqual([]);
    await uninstall(t, { runtimes: ["codex"], cwd: project });
    expect(skillNames(join(t.home, ".agents/skills"))).toEqual([SKILL]);
    expect(skillNames(join(t.home, ".codex/skills"))).toEqual(COMMANDS);
    await uninstall(t, { runtimes: ["codex"], scope: "local", cwd: project });
    expect(existsSync(join(t.home, ".agents"))).toBe(false);
    expect(existsSync(join(t.home, ".codex/skills"))).toBe(false);
  });
});

describe("the README's table of shared skill folders", () => {
  it("is the code's table, row for row", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const lines = readme.slice(readme.indexOf("#### Folders several agents share")).split("\n");
    const rows: string[] = [];
    for (const line of lines.slice(lines.findIndex((line) => line.startsWith("| ---")) + 1)) {
      if (!line.startsWith("|")) break;
      rows.push(line);
    }
    expect(rows).toEqual(sharedReadsTableRows());
  });
});
