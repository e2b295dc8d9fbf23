// Fresh install, no-op reinstall, and upgrades v1 → v2 → v3 of a fixture pack whose migrations
// rename a command (move-managed), retire a hook (its file and its config registration) and
// remove an emptied folder; with your edits, your files and your settings around them.
import { existsSync, lstatSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readInstallState } from "../../src/install/records/install-state.js";
import { readManifest } from "../../src/install/records/manifest.js";
import * as nodeFs from "node:fs";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, packDir, treeState, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const claudeDir = (home: string) => join(home, ".claude");

function statuses(outcome: Awaited<ReturnType<typeof install>>): string[] {
  return outcome.result.targets.flatMap((target) => target.roots.map((root) => root.status));
}

describe("a fixture pack through v1 → v2 → v3 (Claude Code, global)", () => {
  it("installs v1: files, the hook registration, manifest and state with the baseline recorded", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { pack: packDir("demo-v1") });
    expect(statuses(outcome)).toEqual(["changed"]);
    const root = claudeDir(t.home);
    expect(readFileSync(join(root, "commands/demo-old.md"), "utf8")).toContain("Do the demo thing with $ARGUMENTS.");
    expect(readFileSync(join(root, "skills/demo-skill/references/deep/more.md"), "utf8")).toBe("Deep notes, version 1.\n");
    expect(lstatSync(join(root, "hooks/demo-hook/run.mjs")).mode & 0o111).not.toBe(0);
    const settings = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    expect(settings.hooks.SessionStart[0].hooks[0]).toEqual({ type: "command", command: `node ${root}/hooks/demo-hook/run.mjs`, timeout: 5 });
    const { manifest } = readManifest(nodeFs, join(root, "bosun-manifest.json"));
    expect(manifest.packs.demo?.version).toBe("1.0.0");
    expect(Object.keys(manifest.files).sort()).toEqual(
      ["agents/demo-agent.md", "commands/demo-old.md", "hooks/demo-hook/run.mjs", "skills/demo-skill/SKILL.md", "skills/demo-skill/references/deep/more.md", "skills/demo-skill/references/notes.md"].sort(),
    );
    expect(manifest.config).toEqual([{ kind: "hook", pack: "demo", hook: "demo-hook", file: "settings.json", event: "SessionStart", command: `node ${root}/hooks/demo-hook/run.mjs`, created: 2 }]);
    const { state } = readInstallState(nodeFs, join(root, "bosun-install-state.json"));
    expect(state.appliedMigrations.map((entry) => [entry.id, entry.source, entry.checksum?.startsWith("sha256:")])).toEqual([["2026-11-30-first-time-baseline-scan", "engine", true]]);
    expect(readdirSync(join(root, "bosun-journal")).filter((name) => name.endsWith(".jsonl"))).toHaveLength(1);
  });

  it("a reinstall with nothing to change writes no file at all (not even a lock)", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    const before = snapshotTree(t.home);
    const fs = watchedFs(() => {});
    const outcome = await install(t, { pack: packDir("demo-v1"), fs });
    expect(statuses(outcome)).toEqual(["unchanged"]);
    expect(fs.writes()).toBe(0);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("upgrades to v2: the renamed command moves (your edits with it), a changed file is replaced, the migration is recorded", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    const root = claudeDir(t.home);
    writeFileSync(join(root, "skills/demo-skill/my-notes.md"), "mine\n");
    const outcome = await install(t, { pack: packDir("demo-v2") });
    const report = outcome.result.targets[0]!.roots[0]!;
    const types = report.plan.actions.map((action) => `${action.type} ${action.rel}${action.toRel ? ` → ${action.toRel}` : ""}`);
    expect(types).toContain("move-managed commands/demo-old.md → commands/demo-new.md");
    expect(types).toContain("replace-file commands/demo-new.md");
    expect(types).toContain("replace-file skills/demo-skill/references/notes.md");
    expect(types).toContain("write-file skills/demo-skill/references/added.md");
    expect(existsSync(join(root, "commands/demo-old.md"))).toBe(false);
    expect(readFileSync(join(root, "commands/demo-new.md"), "utf8")).toContain("Do the renamed demo thing");
    expect(readFileSync(join(root, "skills/demo-skill/my-notes.md"), "utf8")).toBe("mine\n");
    const { state } = readInstallState(nodeFs, join(root, "bosun-install-state.json"));
    const applied = state.appliedMigrations.find((entry) => entry.id === "2026-12-01-rename-demo-command");
    expect(applied?.source).toBe("pack:demo");
    expect(applied?.journal).toMatch(/^bosun-journal\/.+\.jsonl$/);
  });

  it("a locally edited command is moved, then backed up before the new version replaces it", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    const root = claudeDir(t.home);
    writeFileSync(join(root, "commands/demo-old.md"), "my edited command\n");
    const outcome = await install(t, { pack: packDir("demo-v2") });
    const result = outcome.result.targets[0]!.roots[0]!;
    expect(result.plan.actions.find((action) => action.rel === "commands/demo-new.md" && action.type !== "move-managed")?.type).toBe("backup-and-replace");
    expect(result.backups).toHaveLength(1);
    expect(readFileSync(join(root, result.backups[0]!), "utf8")).toBe("my edited command\n");
    expect(result.backups[0]).toMatch(/^bosun-backups\/.+\/commands\/demo-new\.md$/);
  });

  it("an edited file the new version does not change keeps your edits", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    const root = claudeDir(t.home);
    writeFileSync(join(root, "agents/demo-agent.md"), "my agent\n");
    const outcome = await install(t, { pack: packDir("demo-v2") });
    expect(outcome.result.targets[0]!.roots[0]!.plan.actions.find((action) => action.rel === "agents/demo-agent.md")?.type).toBe("keep-file");
    expect(readFileSync(join(root, "agents/demo-agent.md"), "utf8")).toBe("my agent\n");
  });

  it("upgrades to v3: the hook's file and its settings entry go, the emptied folder is removed, your settings stay byte for byte", async () => {
    const t = makeTempHome();
    const root = claudeDir(t.home);
    const mine = '{\r\n  // my settings\r\n  "model": "opus",\r\n  "hooks": {\r\n    "Stop": [ { "hooks": [ { "type": "command", "command": "echo bye" } ] } ]\r\n  }\r\n}\r\n';
    t.write(join(root, "settings.json"), mine);
    await install(t, { pack: packDir("demo-v1") });
    expect(readFileSync(join(root, "settings.json"), "utf8")).toContain("demo-hook/run.mjs");
    await install(t, { pack: packDir("demo-v2") });
    const outcome = await install(t, { pack: packDir("demo-v3") });
    const result = outcome.result.targets[0]!.roots[0]!;
    const byMigration = result.plan.actions.filter((action) => action.origin.kind === "migration").map((action) => `${action.origin.kind === "migration" ? action.origin.id : ""} ${action.type} ${action.rel}`);
    expect(byMigration).toEqual([
      "2026-12-15-retire-demo-hook remove-managed hooks/demo-hook/run.mjs",
      "2026-12-15-retire-demo-hook remove-empty-dir hooks/demo-hook",
      "2026-12-15-retire-demo-hook rewrite-json settings.json",
      "2026-12-15-remove-deep-references remove-managed skills/demo-skill/references/deep/more.md",
      "2026-12-15-remove-deep-references remove-empty-dir skills/demo-skill/references/deep",
    ]);
    expect(existsSync(join(root, "hooks/demo-hook"))).toBe(false);
    expect(existsSync(join(root, "skills/demo-skill/references/deep"))).toBe(false);
    expect(readFileSync(join(root, "settings.json"), "utf8")).toBe(mine);
    const { state } = readInstallState(nodeFs, join(root, "bosun-install-state.json"));
    expect(state.appliedMigrations.map((entry) => entry.id)).toEqual([
      "2026-11-30-first-time-baseline-scan",
      "2026-12-01-rename-demo-command",
      "2026-12-15-retire-demo-hook",
      "2026-12-15-remove-deep-references",
    ]);
    expect(readManifest(nodeFs, join(root, "bosun-manifest.json")).manifest.config).toEqual([]);
  });

  it("a file of yours in a folder the upgrade empties keeps the folder (skipped-not-empty)", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    await install(t, { pack: packDir("demo-v2") });
    const root = claudeDir(t.home);
    writeFileSync(join(root, "skills/demo-skill/references/deep/mine.md"), "mine\n");
    const outcome = await install(t, { pack: packDir("demo-v3") });
    const result = outcome.result.targets[0]!.roots[0]!;
    const removeDir = result.plan.actions.find((action) => action.type === "remove-empty-dir" && action.rel === "skills/demo-skill/references/deep")!;
    expect(result.outcomes.get(removeDir.index)).toBe("skipped-not-empty");
    expect(readFileSync(join(root, "skills/demo-skill/references/deep/mine.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(root, "skills/demo-skill/references/deep/more.md"))).toBe(false);
  });

  it("v1 straight to v3 runs both migrations in order", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    const outcome = await install(t, { pack: packDir("demo-v3") });
    const pending = outcome.result.targets[0]!.roots[0]!.plan.pending.map((entry) => entry.record.id);
    expect(pending).toEqual(["2026-12-01-rename-demo-command", "2026-12-15-retire-demo-hook", "2026-12-15-remove-deep-references"]);
    const root = claudeDir(t.home);
    expect(existsSync(join(root, "commands/demo-new.md"))).toBe(true);
    expect(existsSync(join(root, "settings.json"))).toBe(false);
  });

  it("keeps the last 3 journals", async () => {
    const t = makeTempHome();
    const root = claudeDir(t.home);
    for (const version of ["demo-v1", "demo-v2", "demo-v3"]) await install(t, { pack: packDir(version) });
    await uninstall(t, { pack: "demo" });
    await install(t, { pack: packDir("demo-v1") });
    await install(t, { pack: packDir("demo-v2") });
    await install(t, { pack: packDir("demo-v3") });
    await install(t, { pack: packDir("demo-v2") });
    const journals = readdirSync(join(root, "bosun-journal"));
    expect(journals.filter((name) => name.endsWith(".jsonl"))).toHaveLength(3);
    expect(journals.filter((name) => !name.endsWith(".jsonl"))).toEqual([]);
  });
});

describe("uninstall", () => {
  it("removes pristine files, backs up edited ones, keeps yours, and leaves your settings byte for byte", async () => {
    const t = makeTempHome();
    const root = claudeDir(t.home);
    const mine = '{\n\t"permissions": { "allow": ["Bash(ls)"] }, // keep\n}\n';
    t.write(join(root, "settings.json"), mine);
    t.write(join(root, "commands/mine.md"), "my command\n");
    await install(t, { pack: packDir("demo-v1") });
    writeFileSync(join(root, "agents/demo-agent.md"), "edited\n");
    const outcome = await uninstall(t, { pack: "demo" });
    const result = outcome.result.targets[0]!.roots[0]!;
    expect(readFileSync(join(root, "settings.json"), "utf8")).toBe(mine);
    expect(readFileSync(join(root, "commands/mine.md"), "utf8")).toBe("my command\n");
    expect(existsSync(join(root, "agents/demo-agent.md"))).toBe(false);
    expect(readFileSync(join(root, result.backups[0]!), "utf8")).toBe("edited\n");
    for (const gone of ["bosun-manifest.json", "bosun-install-state.json", "bosun-journal", "bosun-install.lock", "skills/demo-skill", "hooks/demo-hook"]) expect(existsSync(join(root, gone)), gone).toBe(false);
  });

  it("a created settings file is deleted again; uninstalling a pack that is not there fails and changes nothing", async () => {
    const t = makeTempHome();
    await install(t, { pack: packDir("demo-v1") });
    await uninstall(t, { pack: "demo" });
    const root = claudeDir(t.home);
    expect(existsSync(join(root, "settings.json"))).toBe(false);
    const before = treeState(t.root);
    await expect(uninstall(t, { pack: "demo" })).rejects.toThrow('pack "demo" is not installed in claude global (nothing installed); nothing was changed');
    expect(treeState(t.root)).toEqual(before);
  });
});
