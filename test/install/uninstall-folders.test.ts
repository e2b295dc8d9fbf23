// The folders bosun creates in a runtime's folder (and the runtime's folder itself, with the
// folders above it) are recorded in the manifest; an uninstall removes those it leaves empty,
// deepest first: never a folder you had, never one holding anything, whoever's it is.
import * as nodeFs from "node:fs";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../src/install/records/manifest.js";
import { install, packDir, treeState, uninstall } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** The home without bosun's own data and state folders (the hook helper, the log). */
function homeTree(t: TempHome): Record<string, string> {
  return Object.fromEntries(Object.entries(treeState(t.home)).filter(([path]) => !path.startsWith(".local")));
}

const claude = (t: TempHome, rel = "") => join(t.home, ".claude", rel);
const manifestOf = (root: string) => readManifest(nodeFs, join(root, "bosun-manifest.json")).manifest;

describe("uninstall removes the folders bosun created, once empty", () => {
  it("a fresh home gets back exactly what it had: every runtime's folder, the folders above it bosun made, and the skill folders of ~/.agents (Codex's commands-as-skills go to ~/.codex/skills)", async () => {
    const t = makeTempHome();
    const before = homeTree(t);
    const runtimes = ["claude", "codex", "opencode", "pi", "gemini", "antigravity"];
    await install(t, { runtimes });
    expect(manifestOf(claude(t)).createdRoot).toBe(1);
    expect(manifestOf(join(t.home, ".pi/agent")).createdRoot).toBe(2);
    expect(manifestOf(join(t.home, ".config/opencode")).createdRoot).toBe(2);
    expect(manifestOf(join(t.home, ".agents")).createdDirs).toEqual(["skills", "skills/bosun-orchestrator", "skills/bosun-orchestrator/references"]);
    await uninstall(t, { runtimes });
    expect(homeTree(t)).toEqual(before);
  });

  it("never a folder you had: the runtime's folder and a surface folder that were there stay, empty", async () => {
    const t = makeTempHome();
    mkdirSync(claude(t, "commands"), { recursive: true });
    await install(t, {});
    expect(manifestOf(claude(t))).toMatchObject({ createdRoot: 0, createdDirs: ["agents", "skills", "skills/bosun-orchestrator", "skills/bosun-orchestrator/references"] });
    await uninstall(t, {});
    expect(treeState(claude(t))).toEqual({ commands: expect.stringMatching(/^dir /) });
  });

  it("never one holding anything: what you put in a folder bosun made after the install keeps it, and the folders above it", async () => {
    const t = makeTempHome();
    await install(t, {});
    t.write(claude(t, "skills/mine/SKILL.md"), "mine\n");
    const outcome = await uninstall(t, {});
    expect(Object.keys(treeState(claude(t)))).toEqual(["skills", "skills/mine", "skills/mine/SKILL.md"]);
    // The plan knew: it did not even try the folder that still holds your skill.
    expect(outcome.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.type === "remove-empty-dir").map((action) => action.rel)).toEqual([
      "skills/bosun-orchestrator/references",
      "skills/bosun-orchestrator",
      "agents",
      "commands",
    ]);
  });

  it("your edited copy is backed up: bosun-backups/ stays, so the runtime's folder does; the emptied folders go", async () => {
    const t = makeTempHome();
    await install(t, {});
    writeFileSync(claude(t, "agents/bosun-reviewer.md"), "my edits\n");
    await uninstall(t, {});
    expect(Object.keys(treeState(claude(t))).filter((path) => !path.startsWith("bosun-backups/"))).toEqual(["bosun-backups"]);
  });

  it("two packs in one folder: a folder bosun made for the first and the second found there goes with the last pack", async () => {
    for (const order of [["bosun", "demo"], ["demo", "bosun"]]) {
      const t = makeTempHome();
      await install(t, {});
      await install(t, { pack: packDir("demo-v1") });
      expect(manifestOf(claude(t)).createdDirs).toContain("skills/demo-skill");
      await uninstall(t, { pack: order[0] });
      expect(existsSync(claude(t, "skills")), `${order[0]} first`).toBe(true);
      expect(manifestOf(claude(t)).createdDirs).toContain("skills");
      await uninstall(t, { pack: order[1] });
      expect(existsSync(claude(t)), `then ${order[1]}: ${JSON.stringify(treeState(claude(t)))}`).toBe(false);
    }
  });

  it("through upgrades (each finds the folders there) and a settled reinstall, the record is kept", async () => {
    const t = makeTempHome();
    const before = homeTree(t);
    for (const version of ["demo-v1", "demo-v2", "demo-v3"]) await install(t, { pack: packDir(version) });
    const again = await install(t, { pack: packDir("demo-v3") });
    expect(again.settled).toBe(true);
    // v3 retired the hook: its folder went, and left the record.
    expect(manifestOf(claude(t)).createdDirs).not.toContain("hooks/demo-hook");
    await uninstall(t, { pack: "demo" });
    expect(homeTree(t)).toEqual(before);
  });

  it("a manifest written before bosun recorded its folders: nothing it does not know bosun made is removed, and a reinstall writes nothing", async () => {
    const t = makeTempHome();
    await install(t, {});
    const path = claude(t, "bosun-manifest.json");
    const { createdDirs: _dirs, createdRoot: _root, ...older } = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify(older, null, 2) + "\n");
    const manifest = readFileSync(path, "utf8");
    const reinstall = await install(t, {});
    expect(reinstall.result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(readFileSync(path, "utf8")).toBe(manifest);
    await uninstall(t, {});
    expect(Object.keys(treeState(claude(t)))).toEqual(["agents", "commands", "skills"]);
  });
});
