// Pack succession (a `succeed-pack` migration): a pack renamed, as gsd-core is get-shit-done,
// takes the place of the old one in every folder that has it. Two small fixture packs, real
// files, Claude Code global; the real gsd packs are in gsd-upgrade.test.ts.
import { spawnSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InstallFailedError, PackSucceededError } from "../../src/install/install-errors.js";
import { readInstallState } from "../../src/install/records/install-state.js";
import { parseManifest, readManifest } from "../../src/install/records/manifest.js";
import { auditOfPlan } from "../../src/install/audit/pack-audit-inputs.js";
import { buildInstallReport } from "../../src/install/report.js";
import { succeedPack } from "../../src/install/plan/succession.js";
import { runCli } from "../fixtures/cli.js";
import { filePaths as files, snapshotTree } from "../fixtures/fs-snapshot.js";
import { seededRandom } from "../fixtures/random.js";
import { failingFs, install, packDir, treeState, uninstall, watchedFs } from "../fixtures/install.js";
import { SUCCESSION_ID, successionPacks } from "../fixtures/succession-packs.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const rootOf = (t: TempHome) => join(t.home, ".claude");
const manifestOf = (t: TempHome) => readManifest(nodeFs, join(rootOf(t), "bosun-manifest.json")).manifest;
const settingsOf = (t: TempHome) => JSON.parse(readFileSync(join(rootOf(t), "settings.json"), "utf8"));

/** oldkit installed, with a value and a hook of yours in settings.json. */
async function oldInstalled(options: Parameters<typeof install>[1] = {}): Promise<{ t: TempHome; packs: ReturnType<typeof successionPacks> }> {
  const t = makeTempHome();
  const packs = successionPacks(join(t.root, "packs"));
  t.write(join(rootOf(t), "settings.json"), JSON.stringify({ model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "echo mine" }] }] } }, null, 2));
  await install(t, { pack: packs.old, ...options });
  return { t, packs };
}

/** Your edits: one support file the new pack changes, one it ships unchanged, a command; and a file of yours in the old folder. */
function editAsUser(t: TempHome): void {
  const root = rootOf(t);
  writeFileSync(join(root, "oldkit/workflows/plan.md"), "# Plan (old), my edits\n");
  writeFileSync(join(root, "oldkit/workflows/same.md"), "# The same in both, my edits\n");
  writeFileSync(join(root, "commands/kit-do.md"), "my command\n");
  t.write(join(root, "oldkit/notes/mine.md"), "mine\n");
}

describe("succeed-pack: planning", () => {
  it("a dry run plans the succession, the moves of the support files the new pack ships, and the ordinary upgrade after them; nothing is written", async () => {
    const { t, packs } = await oldInstalled();
    editAsUser(t);
    const before = snapshotTree(t.home);
    const outcome = await install(t, { pack: packs.next, dryRun: true });
    expect(snapshotTree(t.home)).toEqual(before);
    const root = outcome.result.targets[0]!.roots[0]!;
    const line = (action: (typeof root.plan.actions)[number]) => `${action.origin.kind === "migration" ? "M " : ""}${action.type} ${action.rel}${action.toRel ? ` → ${action.toRel}` : ""}`;
    expect(root.plan.actions.map(line)).toEqual([
      "M succeed-pack oldkit → newkit",
      "M move-managed oldkit/hooks/start.js → newkit/hooks/start.js",
      "M move-managed oldkit/hooks/status.js → newkit/hooks/status.js",
      "M move-managed oldkit/references/rules.md → newkit/references/rules.md",
      "M move-managed oldkit/workflows/plan.md → newkit/workflows/plan.md",
      "M move-managed oldkit/workflows/same.md → newkit/workflows/same.md",
      "backup-and-replace commands/kit-do.md",
      "replace-file newkit/hooks/start.js",
      "replace-file newkit/hooks/status.js",
      "replace-file newkit/references/rules.md",
      "write-file newkit/workflows/new.md",
      "backup-and-replace newkit/workflows/plan.md",
      "keep-file newkit/workflows/same.md",
      "replace-file skills/kit-skill/SKILL.md",
      "remove-managed oldkit/references/old-only.md",
      "rewrite-json settings.json",
      "rewrite-json settings.json",
      "remove-empty-dir oldkit/hooks",
      "remove-empty-dir oldkit/references",
      "remove-empty-dir oldkit/workflows",
      "remove-empty-dir oldkit",
    ]);
    expect(root.plan.pending.map((pending) => [pending.record.id, pending.record.source, pending.actions])).toEqual([[SUCCESSION_ID, "pack:newkit", 6]]);

    // --dry-run --json: the succession with its reason and evidence, and the note naming your file.
    const report = buildInstallReport(outcome, true).targets[0]!.roots[0]!;
    expect(report.actions[0]).toEqual({
      group: "moved",
      type: "succeed-pack",
      path: "oldkit",
      to: "newkit",
      reason: "pack oldkit 1.0.0 is now newkit: its 8 files, 1 hook registration, 1 setting pass to newkit",
      migration: SUCCESSION_ID,
      evidence: "pack oldkit 1.0.0 is recorded in bosun-manifest.json",
    });
    expect(report.actions.find((action) => action.path === "oldkit/workflows/same.md")?.reason).toBe("support file of oldkit: moves to newkit's folder, your edits with it");
    expect(report.notes).toEqual(["your file stays at oldkit/notes/mine.md (bosun has no record of it), and so does the folder oldkit/"]);
    // The audit compares with what oldkit installed: its hook and status line change.
    const audit = buildInstallReport(outcome, true, auditOfPlan(outcome, nodeFs)).audit!;
    expect(audit.hooks.map((hook) => [hook.hook, hook.change])).toEqual([["kit-hook", "changed"]]);
    expect(audit.settings.map((setting) => [setting.key, setting.change])).toEqual([
      ["statusLine", "changed"],
      ["permissions.allow", "new"],
    ]);
    expect(audit.changes.removed).toEqual([]);
  });

  it("plans nothing where the old pack is not installed (the migration is recorded, with no action)", async () => {
    const t = makeTempHome();
    const packs = successionPacks(join(t.root, "packs"));
    const outcome = await install(t, { pack: packs.next });
    const root = outcome.result.targets[0]!.roots[0]!;
    expect(root.plan.actions.filter((action) => action.origin.kind === "migration" && action.origin.id === SUCCESSION_ID)).toEqual([]);
    const { state } = readInstallState(nodeFs, join(rootOf(t), "bosun-install-state.json"));
    expect(state.appliedMigrations.find((entry) => entry.id === SUCCESSION_ID)?.journal).toBeNull();
    expect(manifestOf(t).packs.newkit?.succeeds).toEqual(["oldkit"]);
  });
});

describe("succeedPack: the manifest hand-over", () => {
  const hook = (pack: string, command: string) => ({ kind: "hook" as const, pack, hook: "h", file: "settings.json", event: "SessionStart", command });
  const base = () => {
    const manifest = parseManifest("{}").manifest;
    manifest.files = { "a.md": "a".repeat(64), "b.md": "b".repeat(64), "c.md": "c".repeat(64) };
    manifest.packs = {
      old: { version: "1.0.0", installedAt: "t0", updatedAt: "t1", files: ["a.md", "b.md"] },
      other: { version: "3.0.0", installedAt: "t0", updatedAt: "t0", files: ["c.md"] },
    };
    manifest.config = [hook("old", "run old"), hook("other", "run other"), { kind: "toml-block", file: "config.toml" }, { kind: "setting", pack: "old", file: "settings.json", path: ["statusLine"], mode: "value", value: { command: "s" } }];
    return manifest;
  };

  it("passes the files and config entries to the new pack, which keeps the old one's install time; other packs' stay", () => {
    const manifest = base();
    succeedPack(manifest, "old", "new");
    expect(manifest.packs).toEqual({ new: { version: "1.0.0", installedAt: "t0", updatedAt: "t1", files: ["a.md", "b.md"] }, other: manifest.packs.other });
    expect(manifest.config.map((record) => ("pack" in record ? `${record.kind} ${record.pack}` : record.kind))).toEqual(["hook other", "toml-block", "hook new", "setting new"]);
  });

  it("merges into the new pack when it is there too, an entry it already has recorded once; a pack not there is a no-op", () => {
    const manifest = base();
    manifest.packs.new = { version: "2.0.0", installedAt: "t2", updatedAt: "t2", files: ["c.md"] };
    manifest.packs.other!.files = [];
    manifest.config.push(hook("new", "run old"));
    succeedPack(manifest, "old", "new");
    expect(manifest.packs.new).toEqual({ version: "2.0.0", installedAt: "t2", updatedAt: "t2", files: ["c.md", "a.md", "b.md"] });
    expect(manifest.config.filter((record) => record.kind === "hook" && record.pack === "new")).toEqual([hook("new", "run old")]);
    const untouched = base();
    succeedPack(untouched, "gone", "new");
    expect(untouched).toEqual(base());
  });

  it("the manifest reads back what a pack succeeds, dropping what is not a pack name or is the pack itself", () => {
    const text = JSON.stringify({ packs: { newkit: { version: "2.0.0", files: [], succeeds: ["oldkit", "Bad Name", "newkit", 7, "oldkit"] } } });
    expect(parseManifest(text).manifest.packs.newkit?.succeeds).toEqual(["oldkit"]);
  });
});

describe("succeed-pack: the upgrade", () => {
  it("keeps every edit and file of yours: moved support files, backups of edits the new version replaces, your file and folder, your settings", async () => {
    const { t, packs } = await oldInstalled();
    editAsUser(t);
    const outcome = await install(t, { pack: packs.next });
    const root = rootOf(t);
    const result = outcome.result.targets[0]!.roots[0]!;
    expect(result.status).toBe("changed");
    // The old folder keeps your file, and nothing else.
    expect(files(join(root, "oldkit"))).toEqual(["notes/mine.md"]);
    expect(files(join(root, "newkit"))).toEqual(["hooks/start.js", "hooks/status.js", "references/rules.md", "workflows/new.md", "workflows/plan.md", "workflows/same.md"]);
    expect(readFileSync(join(root, "newkit/workflows/plan.md"), "utf8")).toBe("# Plan (new)\n");
    // The new pack ships the file you edited unchanged: your edits moved with it.
    expect(readFileSync(join(root, "newkit/workflows/same.md"), "utf8")).toBe("# The same in both, my edits\n");
    const backups = result.backups.map((rel) => [rel.replace(/^bosun-backups\/[^/]+\//, ""), readFileSync(join(root, rel), "utf8")]);
    expect(backups).toEqual([
      ["commands/kit-do.md", "my command\n"],
      ["newkit/workflows/plan.md", "# Plan (old), my edits\n"],
    ]);
    const settings = settingsOf(t);
    expect(settings.model).toBe("opus");
    expect(settings.statusLine.command).toBe(`node ${root}/newkit/hooks/status.js --new`);
    expect(settings.permissions.allow).toEqual(["Read(.kit/*)"]);
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "echo mine" }] }]);
    expect(settings.hooks.SessionStart.flatMap((group: { hooks: { command: string }[] }) => group.hooks.map((hook) => hook.command))).toEqual([`node ${root}/newkit/hooks/start.js --new`]);
    const manifest = manifestOf(t);
    expect(Object.keys(manifest.packs)).toEqual(["newkit"]);
    expect(manifest.packs.newkit).toMatchObject({ version: "2.0.0", succeeds: ["oldkit"] });
    expect(manifest.config.every((record) => record.kind === "toml-block" || record.pack === "newkit")).toBe(true);
    expect(Object.keys(manifest.files).filter((rel) => rel.startsWith("oldkit/"))).toEqual([]);
    const { state } = readInstallState(nodeFs, join(root, "bosun-install-state.json"));
    expect(state.appliedMigrations.find((entry) => entry.id === SUCCESSION_ID)).toMatchObject({ source: "pack:newkit", journal: expect.stringMatching(/^bosun-journal\//) });

    // Once is enough: a second install writes nothing at all.
    const fs = watchedFs(() => {});
    const again = await install(t, { pack: packs.next, fs });
    expect(again.result.targets[0]!.roots[0]!.status).toBe("unchanged");
    expect(fs.writes()).toBe(0);

    // Uninstalling the new pack leaves exactly what is yours: your file, your settings, the backups.
    await uninstall(t, { pack: "newkit" });
    expect(files(root).filter((rel) => !rel.startsWith("bosun-backups/"))).toEqual(["oldkit/notes/mine.md", "settings.json"]);
    expect(settingsOf(t)).toMatchObject({ model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "echo mine" }] }] } });
    expect(JSON.stringify(settingsOf(t))).not.toMatch(/kit/);
  });

  it("a status line you changed is a question, as in any upgrade: kept when you say keep", async () => {
    const { t, packs } = await oldInstalled();
    const settings = settingsOf(t);
    settings.statusLine = { type: "command", command: "my-status" };
    writeFileSync(join(rootOf(t), "settings.json"), JSON.stringify(settings, null, 2));
    const outcome = await install(t, { pack: packs.next, resolve: "keep" });
    const asked = outcome.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.resolution !== undefined);
    expect(asked.map((action) => action.rel)).toEqual(["settings.json"]);
    expect(settingsOf(t).statusLine).toEqual({ type: "command", command: "my-status" });
    expect(Object.keys(manifestOf(t).packs)).toEqual(["newkit"]);
  });

  it("installing the old pack where the new one took its place is refused with one line, changing nothing; after an uninstall of the new one it installs", async () => {
    const { t, packs } = await oldInstalled();
    await install(t, { pack: packs.next });
    const before = snapshotTree(t.home);
    await expect(install(t, { pack: packs.old })).rejects.toThrow(PackSucceededError);
    const cli = await runCli(["install", packs.old, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim().split("\n")).toEqual([`bosun: pack oldkit is succeeded by newkit 2.0.0, which is installed in ${rootOf(t)}; nothing was changed. Install newkit to upgrade, or uninstall newkit there first to go back to oldkit`]);
    expect(snapshotTree(t.home)).toEqual(before);
    await uninstall(t, { pack: "newkit" });
    await install(t, { pack: packs.old });
    expect(Object.keys(manifestOf(t).packs)).toEqual(["oldkit"]);
  });

  it("runs again where the old pack came back after the new one left (another pack kept the folder's records): no file of either is blocked", async () => {
    const t = makeTempHome();
    const packs = successionPacks(join(t.root, "packs"));
    await install(t, { pack: packDir("demo-v1") });
    // The new pack first, where the old one never was: the succession is recorded, with nothing to do.
    await install(t, { pack: packs.next });
    await uninstall(t, { pack: "newkit" });
    await install(t, { pack: packs.old });
    editAsUser(t);
    const stateFile = join(rootOf(t), "bosun-install-state.json");
    const ranBefore = readInstallState(nodeFs, stateFile).state.appliedMigrations.filter((entry) => entry.id === SUCCESSION_ID);
    expect(ranBefore).toHaveLength(1);
    const outcome = await install(t, { pack: packs.next });
    const actions = outcome.result.targets[0]!.roots[0]!.plan.actions;
    expect(actions.filter((action) => action.blocked)).toEqual([]);
    expect(actions.find((action) => action.type === "succeed-pack")).toMatchObject({ rel: "oldkit", toRel: "newkit" });
    expect(Object.keys(manifestOf(t).packs).sort()).toEqual(["demo", "newkit"]);
    // Your edits and file stay as in any succession: the edited support file moved, backed up and replaced; yours left.
    expect(readFileSync(join(rootOf(t), "oldkit/notes/mine.md"), "utf8")).toBe("mine\n");
    const ran = readInstallState(nodeFs, stateFile).state.appliedMigrations.filter((entry) => entry.id === SUCCESSION_ID);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.journal).not.toBeNull();
    expect(ran[0]!.appliedAt).not.toBe(ranBefore[0]!.appliedAt);
    // Done: the next run has nothing to do.
    const again = await install(t, { pack: packs.next, trustSettled: false });
    expect(again.result.targets[0]!.roots[0]!.status).toBe("unchanged");
  });
});

describe("succeed-pack: bad input is one error naming the migration file, and nothing is written", () => {
  const cases: [string, Parameters<typeof successionPacks>[1], RegExp][] = [
    ["a pack that succeeds itself", { step: { type: "succeed-pack", from: "newkit" } }, /migrations\/2026-12-02-newkit-succeeds-oldkit\.json: steps: a pack cannot succeed itself: name the pack newkit takes the place of$/],
    ["a name that is not a pack name", { step: { type: "succeed-pack", from: "Old Kit" } }, /migrations\/2026-12-02-newkit-succeeds-oldkit\.json:\d+: steps\[0\]\.from: name a pack: lower-case letters, digits, '\.', '_' or '-'$/],
    ["a succession that says it is not destructive", { destructive: false }, /migrations\/2026-12-02-newkit-succeeds-oldkit\.json:\d+: destructive: its succeed-pack step moves and removes the old pack's files, so it must say destructive: true$/],
  ];
  it.each(cases)("%s", async (_label, options, expected) => {
    const { t } = await oldInstalled();
    const packs = successionPacks(join(t.root, "bad"), options);
    const before = snapshotTree(t.home);
    const result = await runCli(["install", packs.next, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(expected);
    expect(snapshotTree(t.home)).toEqual(before);
  });
});

// A fixed clock and run ids that differ per run, so two trees can be compared.
let runs = 0;
const fixed = { now: () => new Date("2026-12-02T00:00:00.000Z"), random: () => String(++runs % 2).padStart(8, "0") };

describe("succeed-pack: fault injection", () => {
  it("for every k, the k-th write of the upgrade fails: the tree is byte-identical to before, or the upgrade is complete", async () => {
    const prepared = async () => {
      const { t, packs } = await oldInstalled(fixed);
      editAsUser(t);
      return { t, packs };
    };
    const reference = await prepared();
    const counter = watchedFs(() => {});
    await install(reference.t, { pack: reference.packs.next, fs: counter, ...fixed });
    const writes = counter.writes();
    expect(writes).toBeGreaterThan(40);
    // Without bosun's records (times, stat keys); settings.json names the hook scripts by their path in each home.
    const done = (t: TempHome) =>
      Object.fromEntries(
        Object.entries(treeState(rootOf(t)))
          .filter(([path]) => !path.startsWith("bosun-journal") && path !== "bosun-manifest.json" && path !== "bosun-install-state.json")
          .map(([path, state]) => [path, path === "settings.json" ? readFileSync(join(rootOf(t), path), "utf8").replaceAll(t.home, "~") : state]),
      );
    const after = done(reference.t);
    let rolledBack = 0;
    for (let k = 1; k <= writes; k++) {
      const { t, packs } = await prepared();
      const before = treeState(t.root);
      const failed = await install(t, { pack: packs.next, fs: failingFs(k), ...fixed }).then(
        () => null,
        (error: unknown) => error,
      );
      if (failed) {
        expect(failed, `write ${k}`).toBeInstanceOf(InstallFailedError);
        expect((failed as InstallFailedError).failures, `write ${k}`).toEqual([]);
        expect(treeState(t.root), `write ${k} failed: the tree must be as before`).toEqual(before);
        rolledBack++;
      } else {
        const tree = done(t);
        // A folder whose removal came after the commit may stay, empty; nothing else differs.
        const empty = (path: string) => tree[path]?.startsWith("dir") && !Object.keys(tree).some((other) => other.startsWith(path + "/"));
        expect(Object.fromEntries(Object.entries(tree).filter(([path]) => !empty(path) || path in after)), `write ${k} hit after the commit: the upgrade must be complete`).toEqual(after);
      }
    }
    // Nearly every write comes before the commit; a backup's hard link that fails falls back to a copy, and the tidying after the commit may fail harmlessly.
    expect(rolledBack).toBeGreaterThan(writes * 0.8);
  }, 120_000);
});

const CHILD = fileURLToPath(new URL("../fixtures/install-crash-child.mjs", import.meta.url));

describe("succeed-pack: an upgrade killed with SIGKILL", () => {
  it("at seeded points: the next install rolls it back and completes it, your edits and files intact", async () => {
    const prepared = async () => {
      const { t, packs } = await oldInstalled();
      editAsUser(t);
      return { t, packs };
    };
    const child = (t: TempHome, pack: string, killAt: number) => spawnSync(process.execPath, [CHILD], { env: { ...t.env, CRASH_AFTER_WRITES: String(killAt), INSTALL_PACK: pack } as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
    // The finished upgrade, without what differs per run (journals, bosun's records, the backups' run id, paths in each home).
    const shape = (t: TempHome) =>
      Object.fromEntries(
        Object.entries(treeState(rootOf(t)))
          .filter(([path]) => !path.startsWith("bosun-journal") && path !== "bosun-manifest.json" && path !== "bosun-install-state.json")
          .map(([path, state]) => [path.replace(/^bosun-backups\/[^/]+/, "bosun-backups/<run>"), path === "settings.json" ? readFileSync(join(rootOf(t), path), "utf8").replaceAll(t.home, "~") : state]),
      );
    const reference = await prepared();
    const probe = child(reference.t, reference.packs.next, -1);
    expect(probe.stderr).toBe("");
    const total = (JSON.parse(probe.stdout) as { writes: number }).writes;
    const expected = shape(reference.t);
    const next = seededRandom(15);
    for (const killAt of Array.from({ length: 6 }, () => Math.floor(next() * total))) {
      const { t, packs } = await prepared();
      expect(child(t, packs.next, killAt).signal, `killed before change ${killAt}`).toBe("SIGKILL");
      await install(t, { pack: packs.next });
      expect(shape(t), `killed before change ${killAt}`).toEqual(expected);
      expect(readFileSync(join(rootOf(t), "oldkit/notes/mine.md"), "utf8")).toBe("mine\n");
      expect(Object.keys(manifestOf(t).packs)).toEqual(["newkit"]);
    }
  }, 120_000);
});
