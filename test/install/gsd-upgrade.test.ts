// The upgrade get-shit-done 1.42.3 → gsd-core 1.14.0, both bosun packs made by the real `bosun
// pack import` (scripts/anchor-packs.mjs, the built CLI) from each anchor's own Claude install;
// gsd-core's carries the `succeed-pack` migration the script writes. Real files, temp homes.
import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack, type AnchorPackPin } from "../../scripts/anchor-packs.mjs";
import { PackSucceededError } from "../../src/install/install-errors.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { buildInstallReport } from "../../src/install/report.js";
import { filePaths as files, snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const MIGRATION = "2026-12-02-gsd-core-succeeds-get-shit-done";
const packs = { legacy: "", core: "" };
let built = "";

beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), "bosun-gsd-upgrade-"));
  const build = (id: AnchorPackPin["id"]) => {
    const pin = ANCHOR_PACKS.find((entry) => entry.id === id)!;
    const found = findAnchorPack(pin.id);
    if (!found) throw new Error(`the anchor ${pin.pkg}@${pin.version} is not here: run node scripts/anchor-packs.mjs install`);
    return buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: built });
  };
  packs.legacy = build("get-shit-done-cc");
  packs.core = build("opengsd-gsd-core");
}, 120_000);

afterAll(() => rmSync(built, { recursive: true, force: true }));

/** Each file under a runtime's folder with the hash of its text as it would be in any home (`~` for the home's path). */
function contents(root: string, home: string, skip: (rel: string) => boolean): Record<string, string> {
  return Object.fromEntries(files(root).filter((rel) => !skip(rel)).map((rel) => [rel, createHash("sha256").update(readFileSync(join(root, rel), "utf8").replaceAll(home, "~")).digest("hex")]));
}

const manifestAt = (root: string) => readManifest(nodeFs, join(root, "bosun-manifest.json")).manifest;
type Group = { matcher?: string; hooks: { command: string }[] };
const commands = (settings: { hooks?: Record<string, Group[]> }, home: string) => Object.entries(settings.hooks ?? {}).flatMap(([event, groups]) => groups.flatMap((group) => group.hooks.map((hook) => `${event} ${group.matcher ?? ""} ${hook.command.replaceAll(home, "~")}`))).sort();

describe("get-shit-done 1.42.3 → gsd-core 1.14.0 (Claude Code, global)", () => {
  it("keeps your edits and files, swaps the hooks and settings, leaves gsd-core alone in the manifest; once; an uninstall leaves what is yours", async () => {
    const t = makeTempHome();
    const root = join(t.home, ".claude");
    await install(t, { pack: packs.legacy });
    // Your edits: a support workflow gsd-core changes, one it ships as it was, the /gsd-help command; a file of yours; a setting and a hook of yours.
    const same = files(join(packs.legacy, "files")).find((rel) => rel.startsWith("workflows/") && existsSync(join(packs.core, "files", rel)) && readFileSync(join(packs.legacy, "files", rel)).equals(readFileSync(join(packs.core, "files", rel))))!;
    expect(same).toBeDefined();
    expect(readFileSync(join(packs.legacy, "files/workflows/add-phase.md")).equals(readFileSync(join(packs.core, "files/workflows/add-phase.md")))).toBe(false);
    writeFileSync(join(root, "get-shit-done/workflows/add-phase.md"), "my add-phase\n");
    writeFileSync(join(root, "get-shit-done", same), "my edits\n");
    writeFileSync(join(root, "skills/gsd-help/SKILL.md"), "my help\n");
    t.write(join(root, "get-shit-done/my-notes.md"), "mine\n");
    const settings = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    settings.model = "opus";
    settings.hooks.Stop = [{ hooks: [{ type: "command", command: "echo mine" }] }];
    writeFileSync(join(root, "settings.json"), JSON.stringify(settings, null, 2));

    // --dry-run (--json): the succession, with its reason and evidence, and the note on your file; nothing written.
    const before = snapshotTree(t.home);
    const dry = buildInstallReport(await install(t, { pack: packs.core, dryRun: true }), true).targets[0]!.roots[0]!;
    expect(snapshotTree(t.home)).toEqual(before);
    expect(dry.actions.find((action) => action.type === "succeed-pack")).toMatchObject({ group: "moved", path: "get-shit-done", to: "gsd-core", migration: MIGRATION, evidence: "pack get-shit-done 1.42.3 is recorded in bosun-manifest.json" });
    expect(dry.actions.filter((action) => action.type === "move-managed").length).toBeGreaterThan(250);
    expect(dry.notes).toContain("your file stays at get-shit-done/my-notes.md (bosun has no record of it), and so does the folder get-shit-done/");
    expect(dry.migrations.map((migration) => migration.id)).toEqual([MIGRATION]);

    const outcome = await install(t, { pack: packs.core });
    const result = outcome.result.targets[0]!.roots[0]!;
    expect(outcome.result.warnings).toEqual([]);
    expect(files(join(root, "get-shit-done"))).toEqual(["my-notes.md"]);
    expect(readFileSync(join(root, "gsd-core", same), "utf8")).toBe("my edits\n");
    expect(result.backups.map((rel) => [rel.replace(/^bosun-backups\/[^/]+\//, ""), readFileSync(join(root, rel), "utf8")])).toEqual([
      ["gsd-core/workflows/add-phase.md", "my add-phase\n"],
      ["skills/gsd-help/SKILL.md", "my help\n"],
    ]);

    // The tree is a fresh gsd-core install's, but for what is yours.
    const fresh = makeTempHome();
    await install(fresh, { pack: packs.core });
    const freshRoot = join(fresh.home, ".claude");
    const bosunOrSettings = (rel: string) => rel.startsWith("bosun-") || rel === "settings.json";
    const mine = contents(root, t.home, (rel) => bosunOrSettings(rel) || rel.startsWith("get-shit-done/"));
    const theirs = contents(freshRoot, fresh.home, bosunOrSettings);
    expect(Object.keys(mine)).toEqual(Object.keys(theirs));
    expect(Object.keys(mine).filter((rel) => mine[rel] !== theirs[rel])).toEqual([`gsd-core/${same}`]);
    const after = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    const freshSettings = JSON.parse(readFileSync(join(freshRoot, "settings.json"), "utf8"));
    expect(after.model).toBe("opus");
    expect(commands(after, t.home)).toEqual([...commands(freshSettings, fresh.home), "Stop  echo mine"].sort());
    expect(after.statusLine.command.replaceAll(t.home, "~")).toBe(freshSettings.statusLine.command.replaceAll(fresh.home, "~"));
    expect(after.permissions).toEqual(freshSettings.permissions);
    expect(JSON.stringify(after)).not.toContain("get-shit-done");
    const manifest = manifestAt(root);
    expect(Object.keys(manifest.packs)).toEqual(["gsd-core"]);
    expect(manifest.packs["gsd-core"]).toMatchObject({ version: "1.14.0", succeeds: ["get-shit-done"] });
    expect(Object.keys(manifest.files).filter((rel) => rel.startsWith("get-shit-done/"))).toEqual([]);

    // A second install writes nothing; get-shit-done over its successor is refused.
    const fs = watchedFs(() => {});
    expect((await install(t, { pack: packs.core, fs })).result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(fs.writes()).toBe(0);
    await expect(install(t, { pack: packs.legacy })).rejects.toThrow(PackSucceededError);

    await uninstall(t, { pack: "gsd-core" });
    expect(files(root).filter((rel) => !rel.startsWith("bosun-backups/"))).toEqual(["get-shit-done/my-notes.md", "settings.json"]);
    const left = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    expect(left.model).toBe("opus");
    expect(commands(left, t.home)).toEqual(["Stop  echo mine"]);
    expect(left.statusLine).toBeUndefined();
    // Nothing of the packs' is left: no emptied permission list, no emptied hook events.
    expect(Object.keys(left).sort()).toEqual(["hooks", "model"]);
    expect(Object.keys(left.hooks)).toEqual(["Stop"]);
  }, 180_000);
});

describe("get-shit-done → gsd-core in the other runtimes", () => {
  // Runtime, its folders, the old support folder, and the config file its hooks are registered in (OpenCode registers none).
  const cases: [string, string[], string, string | null][] = [
    ["codex", [".codex", ".agents"], ".codex/get-shit-done", ".codex/hooks.json"],
    ["opencode", [".config/opencode"], ".config/opencode/get-shit-done", null],
    ["gemini", [".gemini"], ".gemini/get-shit-done", ".gemini/settings.json"],
  ];
  it.each(cases)("%s: every folder ends with gsd-core alone, the old support folder gone, no registration of the old pack left; a second install changes nothing", async (runtime, roots, oldFolder, config) => {
    const t: TempHome = makeTempHome();
    await install(t, { pack: packs.legacy, runtimes: [runtime] });
    expect(existsSync(join(t.home, oldFolder))).toBe(true);
    if (config) expect(readFileSync(join(t.home, config), "utf8")).toContain("/get-shit-done/hooks/");
    const outcome = await install(t, { pack: packs.core, runtimes: [runtime] });
    expect(outcome.result.targets[0]!.roots.map((root) => root.plan.pending.some((pending) => pending.record.id === MIGRATION))).toEqual(roots.map(() => true));
    for (const dir of roots) {
      const manifest = manifestAt(join(t.home, dir));
      expect(Object.keys(manifest.packs), dir).toEqual(["gsd-core"]);
      expect(manifest.config.every((record) => record.kind === "toml-block" || record.pack === "gsd-core"), dir).toBe(true);
    }
    if (config) {
      const text = readFileSync(join(t.home, config), "utf8");
      expect(text).toContain("/gsd-core/hooks/");
      expect(text).not.toContain("get-shit-done");
    }
    expect(existsSync(join(t.home, oldFolder))).toBe(false);
    const again = await install(t, { pack: packs.core, runtimes: [runtime] });
    expect(again.result.targets[0]!.roots.map((root) => root.status)).toEqual(roots.map(() => "unchanged"));
  }, 180_000);
});
