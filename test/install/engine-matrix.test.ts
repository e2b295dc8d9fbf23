// The anchor installer's migration test matrix (reference §18), as behaviour of bosun's engine:
// baseline, planner and downgrade rules, apply with journal and rollback, bookkeeping,
// remove-empty-dir, the lock, and symlink safety.
import * as nodeFs from "node:fs";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockHeldError } from "../../src/kernel/fs/file-lock.js";
import { InstallFailedError, NeedsChoiceError } from "../../src/install/install-errors.js";
import { InstallStateError, readInstallState } from "../../src/install/records/install-state.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { MigrationAuthoringError, migrationChecksum } from "../../src/install/records/migration-record.js";
import { firstTimeBaseline } from "../../src/install/migrations/000-first-time-baseline.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { actionLines, record, runEngine, seedRoot, sha } from "../fixtures/engine.js";
import { treeState, watchedFs } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const EVIDENCE = "listed in bosun-manifest.json";
const state = (dir: string) => readInstallState(nodeFs, join(dir, "bosun-install-state.json")).state;

describe("first-time baseline scan", () => {
  it("records managed files, keeps yours without reading them, changes nothing on disk, and is recorded", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "skills/seed-skill/SKILL.md": "managed\n" }, files: { "skills/my-skill/SKILL.md": "mine\n", "hooks/custom-user-hook.js": "custom\n" } });
    const opened: string[] = [];
    const fs = watchedFs(() => {});
    const spy = { ...fs, openSync: (...args: Parameters<typeof nodeFs.openSync>) => (opened.push(String(args[0])), fs.openSync(...args)) } as typeof fs;
    const before = treeState(join(root.dir, "skills"));
    const { root: result } = await runEngine(root, { records: [firstTimeBaseline], fs: spy });
    expect(actionLines(result)).toEqual(["record-baseline skills/seed-skill/SKILL.md", "baseline-preserve-user hooks/custom-user-hook.js", "baseline-preserve-user skills/my-skill/SKILL.md"]);
    expect(result.plan.actions.find((action) => action.rel === "skills/my-skill/SKILL.md")?.classification).toBe("user-owned");
    expect(opened.filter((path) => path.includes("my-skill") || path.includes("custom-user-hook")), opened.join("\n")).toEqual([]);
    expect(result.plan.actions.some((action) => action.blocked !== undefined || action.type === "prompt-user")).toBe(false);
    expect(treeState(join(root.dir, "skills"))).toEqual(before);
    expect(state(root.dir).appliedMigrations.map((entry) => [entry.id, entry.journal])).toEqual([["2026-11-30-first-time-baseline-scan", null]]);
  });

  it("a bosun-looking file bosun has no record of needs your choice; without a terminal nothing is written", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "hooks/bosun-retired-hook.js": "old\n", "agents/bosun-old-agent.md": "old agent\n" } });
    const before = snapshotTree(t.home);
    await expect(runEngine(root, { records: [firstTimeBaseline] })).rejects.toThrow(NeedsChoiceError);
    await expect(runEngine(root, { records: [firstTimeBaseline] })).rejects.toThrow(/--resolve keep .* --resolve remove/);
    expect(snapshotTree(t.home)).toEqual(before);
    const dry = await runEngine(root, { records: [firstTimeBaseline], dryRun: true });
    expect(actionLines(dry.root)).toEqual(["prompt-user agents/bosun-old-agent.md", "prompt-user hooks/bosun-retired-hook.js"]);
    expect(dry.root.plan.actions[0]!.choices).toEqual(["keep", "remove"]);
  });

  it("--resolve keep records the choice and keeps the file; remove backs it up and removes it", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "hooks/bosun-a.js": "a\n", "commands/bosun-b.md": "b\n" } });
    await runEngine(root, { records: [firstTimeBaseline], resolve: "keep" });
    expect(readFileSync(join(root.dir, "hooks/bosun-a.js"), "utf8")).toBe("a\n");
    expect(state(root.dir).appliedMigrations).toHaveLength(1);
    const t2 = makeTempHome();
    const root2 = seedRoot(t2, { files: { "hooks/bosun-a.js": "a\n" } });
    const { root: result } = await runEngine(root2, { records: [firstTimeBaseline], resolve: "remove" });
    expect(existsSync(join(root2.dir, "hooks/bosun-a.js"))).toBe(false);
    expect(readFileSync(join(root2.dir, result.backups[0]!), "utf8")).toBe("a\n");
  });

  it("is idempotent: a second run plans nothing and writes nothing", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "commands/seed.md": "x\n" }, files: { "commands/mine.md": "mine\n" } });
    await runEngine(root, { records: [firstTimeBaseline] });
    const before = snapshotTree(t.home);
    const { root: again } = await runEngine(root, { records: [firstTimeBaseline] });
    expect(again.status).toBe("unchanged");
    expect(again.plan.actions).toEqual([]);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("scans only the runtime's own surfaces (OpenCode's plural commands/), and a record for one runtime is skipped for another", async () => {
    const t = makeTempHome();
    const opencode = seedRoot(t, { runtime: "opencode", managed: { "commands/seed.md": "s\n" }, files: { "commands/custom.md": "c\n", "commands/bosun-retired.md": "r\n", "elsewhere/bosun-x.md": "not a surface\n" } });
    const dry = await runEngine(opencode, { records: [firstTimeBaseline], dryRun: true });
    expect(actionLines(dry.root)).toEqual(["record-baseline commands/seed.md", "baseline-preserve-user commands/custom.md", "prompt-user commands/bosun-retired.md"]);
    const kilo = seedRoot(t, { runtime: "kilo", files: { "command/x.md": "x\n" } });
    const onlyOpencode = record("opencode-only", () => [{ type: "remove-managed", relPath: "command/x.md", ownershipEvidence: EVIDENCE }], { runtimes: ["opencode"] });
    const { root: result } = await runEngine(kilo, { records: [onlyOpencode] });
    expect(result.plan.pending).toEqual([]);
    expect(readFileSync(join(kilo.dir, "command/x.md"), "utf8")).toBe("x\n");
  });
});

describe("planner: classification and downgrade rules", () => {
  const remove = (relPath: string) => record("2026-12-01-remove", [{ type: "remove-managed", relPath, reason: "retired", ownershipEvidence: EVIDENCE }]);

  it("a pending migration on an unchanged managed file plans remove-managed with its hashes and a sha256 checksum", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/old.js": "old\n" } });
    const { root: result } = await runEngine(root, { records: [remove("hooks/old.js")], dryRun: true });
    const action = result.plan.actions[0]!;
    expect(action).toMatchObject({ type: "remove-managed", rel: "hooks/old.js", reason: "retired", classification: "managed-pristine", originalHash: sha("old\n"), currentHash: sha("old\n"), evidence: EVIDENCE });
    expect(action.origin).toMatchObject({ kind: "migration", id: "2026-12-01-remove" });
    expect(result.plan.pending[0]!.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("a modified managed file becomes backup-and-remove", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/old.js": "old\n" } });
    writeFileSync(join(root.dir, "hooks/old.js"), "edited\n");
    const { root: result } = await runEngine(root, { records: [remove("hooks/old.js")], dryRun: true });
    expect(result.plan.actions[0]).toMatchObject({ type: "backup-and-remove", requestedType: "remove-managed", classification: "managed-modified", originalHash: sha("old\n"), currentHash: sha("edited\n") });
  });

  it("remove-managed on a file bosun does not own becomes preserve-user and needs your choice", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "hooks/mine.js": "mine\n" } });
    const { root: result } = await runEngine(root, { records: [remove("hooks/mine.js")], dryRun: true });
    expect(result.plan.actions[0]).toMatchObject({ type: "preserve-user", requestedType: "remove-managed", classification: "unknown", choices: ["keep", "remove"] });
    await expect(runEngine(root, { records: [remove("hooks/mine.js")] })).rejects.toThrow(NeedsChoiceError);
  });

  it("a malformed install state stops the install, naming the file", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, {});
    writeFileSync(join(root.dir, "bosun-install-state.json"), "{ nope");
    await expect(runEngine(root, { records: [] })).rejects.toThrow(InstallStateError);
    await expect(runEngine(root, { records: [] })).rejects.toThrow(/bosun-install-state\.json: invalid installer migration state JSON/);
    writeFileSync(join(root.dir, "bosun-install-state.json"), JSON.stringify({ schemaVersion: 9, appliedMigrations: [] }));
    await expect(runEngine(root, { records: [] })).rejects.toThrow(/newer bosun \(schema 9\)/);
  });

  it("a newer or garbled manifest is read leniently: reported, never fatal", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "hooks/x.js": "x\n" } });
    writeFileSync(join(root.dir, "bosun-manifest.json"), JSON.stringify({ schemaVersion: 7, files: { "hooks/x.js": sha("x\n"), "../escape": sha("x\n"), bad: "nothex" }, packs: { seed: { version: "9", files: ["hooks/x.js"] } } }));
    const read = readManifest(nodeFs, join(root.dir, "bosun-manifest.json"));
    expect(read.newer).toBe(true);
    expect(Object.keys(read.manifest.files)).toEqual(["hooks/x.js"]);
    expect(read.problems.join(" ")).toMatch(/newer bosun \(schema 7\)/);
    const { root: result } = await runEngine(root, { records: [remove("hooks/x.js")], dryRun: true });
    expect(result.plan.actions[0]!.type).toBe("remove-managed");
    expect(result.plan.notes.join(" ")).toMatch(/schema 7/);
  });

  it("checksums cover the declared data, not code", () => {
    const a = record("r", () => [], { data: { paths: ["a"] } });
    const b = record("r", () => [{ type: "record-baseline", relPath: "x" }], { data: { paths: ["a"] } });
    const c = record("r", () => [], { data: { paths: ["b"] } });
    expect(migrationChecksum(a)).toBe(migrationChecksum(b));
    expect(migrationChecksum(a)).not.toBe(migrationChecksum(c));
    expect(migrationChecksum(record("r", [], { checksum: "sha256:pinned" }))).toBe("sha256:pinned");
  });

  it("a drifted checksum of an applied migration is tolerated: not run again, reported, reconciled on the next write", async () => {
    const t = makeTempHome();
    let called = 0;
    const applied = record("applied", () => (called++, []));
    const root = seedRoot(t, { managed: { "hooks/x.js": "x\n" }, applied: [{ id: "applied", source: "engine", checksum: "sha256:old", appliedAt: "2026-01-01T00:00:00.000Z", journal: null }] });
    const { root: result } = await runEngine(root, { records: [applied, remove("hooks/x.js")] });
    expect(called).toBe(0);
    expect(result.plan.drift).toEqual([{ id: "applied", source: "engine", stored: "sha256:old", current: migrationChecksum(applied) }]);
    const entries = state(root.dir).appliedMigrations;
    expect(entries[0]).toMatchObject({ id: "applied", checksum: migrationChecksum(applied), appliedAt: "2026-01-01T00:00:00.000Z" });
    expect(entries[1]!.id).toBe("2026-12-01-remove");
  });

  it("an applied codex-only record is not even looked at in a Claude run", async () => {
    const t = makeTempHome();
    let called = 0;
    const codexOnly = record("codex-only", () => (called++, []), { runtimes: ["codex"] });
    const root = seedRoot(t, { applied: [{ id: "codex-only", source: "engine", checksum: "sha256:whatever", appliedAt: "x", journal: null }] });
    const { root: result } = await runEngine(root, { records: [codexOnly], dryRun: true });
    expect(called).toBe(0);
    expect(result.plan.drift).toEqual([]);
  });

  it("a file over 1 MiB is hashed by streaming, never read whole", async () => {
    const t = makeTempHome();
    const big = "x".repeat(3 * 1024 * 1024);
    const root = seedRoot(t, { managed: { "skills/big/data.txt": big } });
    const reads: string[] = [];
    const fs = { ...nodeFs, readFileSync: (...args: Parameters<typeof nodeFs.readFileSync>) => (reads.push(String(args[0])), nodeFs.readFileSync(...args)) } as typeof nodeFs;
    const { root: result } = await runEngine(root, { records: [remove("skills/big/data.txt")], dryRun: true, fs });
    expect(result.plan.actions[0]!.currentHash).toBe(sha(big));
    expect(reads.filter((path) => path.endsWith("data.txt"))).toEqual([]);
  });
});

describe("apply, journal and rollback", () => {
  const remove = (relPath: string, id = "2026-12-01-remove") => record(id, [{ type: "remove-managed", relPath, ownershipEvidence: EVIDENCE }]);

  it("an unblocked apply removes the file, journals it, and records the migration with its journal", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/old.js": "old\n" } });
    const { root: result } = await runEngine(root, { records: [remove("hooks/old.js")] });
    expect(existsSync(join(root.dir, "hooks/old.js"))).toBe(false);
    expect(result.journal).toMatch(/^bosun-journal\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}\.jsonl$/);
    const lines = readFileSync(join(root.dir, result.journal!), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ op: "begin", runtime: "claude", scope: "global", pack: "test" });
    expect(lines.some((line) => line.op === "stash" && line.path === "hooks/old.js" && line.how === "rename")).toBe(true);
    expect(lines.at(-1).op).toBe("commit");
    expect(state(root.dir).appliedMigrations[0]).toMatchObject({ id: "2026-12-01-remove", journal: result.journal, checksum: expect.stringMatching(/^sha256:/) });
  });

  it("two runs in the same millisecond get different journals", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n", "hooks/b.js": "b\n" } });
    const now = () => new Date("2026-12-01T00:00:00.000Z");
    const first = await runEngine(root, { records: [remove("hooks/a.js", "one")], now });
    const second = await runEngine(root, { records: [remove("hooks/a.js", "one"), remove("hooks/b.js", "two")], now });
    expect(first.root.journal).not.toBe(second.root.journal);
    expect(readdirSync(join(root.dir, "bosun-journal")).filter((name) => name.endsWith(".jsonl"))).toHaveLength(2);
  });

  it("a backed-up edit keeps your bytes under bosun-backups/<run>/<path>", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/old.js": "old\n" } });
    writeFileSync(join(root.dir, "hooks/old.js"), "my edit\n");
    const { root: result } = await runEngine(root, { records: [remove("hooks/old.js")] });
    expect(result.backups).toEqual([expect.stringMatching(/^bosun-backups\/[^/]+\/hooks\/old\.js$/)]);
    expect(readFileSync(join(root.dir, result.backups[0]!), "utf8")).toBe("my edit\n");
  });

  it("an unsupported action type is refused when planning: nothing is written", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n" } });
    const before = snapshotTree(t.home);
    const bad = record("bad", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }, { type: "explode" as never, relPath: "hooks/a.js" }]);
    await expect(runEngine(root, { records: [bad] })).rejects.toThrow(/unsupported migration action type: explode/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it("a failure while applying rolls back every change in reverse and leaves no run artefacts", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n", "hooks/b.js": "b\n" } });
    writeFileSync(join(root.dir, "hooks/b.js"), "edited b\n");
    const before = treeState(t.root);
    let writes = 0;
    const fs = watchedFs((_n, call, args) => {
      if (call === "renameSync" && String(args[0]).endsWith("hooks/b.js") && ++writes === 1) throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
    });
    const error = await runEngine(root, { records: [record("two", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }, { type: "remove-managed", relPath: "hooks/b.js", ownershipEvidence: EVIDENCE }])], fs }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InstallFailedError);
    expect((error as InstallFailedError).message).toMatch(/rolled back; nothing changed: EIO: injected/);
    expect(treeState(t.root)).toEqual(before);
  });

  it("a rollback that cannot restore a path says which, keeps the journal, and the next run rolls it back first", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n", "hooks/b.js": "b\n" } });
    let failing = true;
    let stashed = 0;
    const fs = watchedFs((_n, call, args) => {
      const [from, to] = [String(args[0]), String(args[1] ?? "")];
      if (call === "renameSync" && from.endsWith("hooks/b.js")) throw Object.assign(new Error("EIO: apply"), { code: "EIO" });
      if (call === "renameSync" && from.includes("bosun-journal") && to.endsWith("hooks/a.js") && failing && ++stashed === 1) throw Object.assign(new Error("EACCES: restore"), { code: "EACCES" });
    });
    const error = (await runEngine(root, { records: [record("two", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }, { type: "remove-managed", relPath: "hooks/b.js", ownershipEvidence: EVIDENCE }])], fs }).catch((caught: unknown) => caught)) as InstallFailedError;
    expect(error).toBeInstanceOf(InstallFailedError);
    expect(error.failures.map(({ failure }) => failure)).toEqual([{ path: "hooks/a.js", error: "EACCES" }]);
    expect(error.message).toMatch(/could not be restored: .*hooks\/a\.js \(EACCES\); the journal is kept/);
    expect(existsSync(join(root.dir, "hooks/a.js"))).toBe(false);
    failing = false;
    const { root: next } = await runEngine(root, { records: [] });
    expect(next.recovered).toHaveLength(1);
    expect(readFileSync(join(root.dir, "hooks/a.js"), "utf8")).toBe("a\n");
    expect(readFileSync(join(root.dir, "hooks/b.js"), "utf8")).toBe("b\n");
  });
});

describe("bookkeeping", () => {
  it("an applied record is skipped without calling its plan", async () => {
    const t = makeTempHome();
    let called = 0;
    const once = record("once", () => (called++, []));
    const root = seedRoot(t, {});
    await runEngine(root, { records: [once] });
    called = 0;
    await runEngine(root, { records: [once] });
    expect(called).toBe(0);
  });

  it("every pending migration is recorded, those without actions too (journal null), in one run", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n" } });
    await runEngine(root, { records: [record("empty-1", []), record("removes", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }]), record("empty-2", [])] });
    const entries = state(root.dir).appliedMigrations;
    expect(entries.map((entry) => [entry.id, entry.journal === null])).toEqual([
      ["empty-1", true],
      ["removes", false],
      ["empty-2", true],
    ]);
  });

  it("relPaths outside the root are refused: absolute, .., ., empty segments", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, {});
    for (const relPath of ["hooks/../../outside.js", ".", "hooks/..", "/etc/passwd", "C:\\Windows", "a//b", ""]) {
      await expect(runEngine(root, { records: [record("bad", [{ type: "remove-managed", relPath, ownershipEvidence: EVIDENCE }])] }), relPath).rejects.toThrow(MigrationAuthoringError);
    }
    await expect(runEngine(root, { records: [record("bad", [{ type: "remove-managed", relPath: "hooks/../../x", ownershipEvidence: EVIDENCE }])] })).rejects.toThrow(/relPath must stay inside the root/);
    await expect(runEngine(root, { records: [record("bad", [{ type: "remove-managed", relPath: "bosun-manifest.json", ownershipEvidence: EVIDENCE }])] })).rejects.toThrow(/one of bosun's own files/);
  });

  it("Windows separators in a path are read as /", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/win/old.js": "w\n" } });
    const { root: result } = await runEngine(root, { records: [record("win", [{ type: "remove-managed", relPath: "hooks\\win\\old.js", ownershipEvidence: EVIDENCE }])] });
    expect(result.plan.actions[0]!.rel).toBe("hooks/win/old.js");
    expect(existsSync(join(root.dir, "hooks/win/old.js"))).toBe(false);
  });
});

describe("authoring guardrails", () => {
  const run = async (records: Parameters<typeof runEngine>[1]["records"]) => runEngine(seedRoot(makeTempHome(), { managed: { "hooks/a.js": "a\n" } }), { records, dryRun: true });

  it("refuse incomplete records and unsafe actions", async () => {
    await expect(run([{ ...record("x", []), title: "" }])).rejects.toThrow(/title must be a non-empty string/);
    await expect(run([{ ...record("x", []), scopes: [] }])).rejects.toThrow(/scopes must list global and\/or local/);
    await expect(run([{ ...record("x", []), runtimes: [] }])).rejects.toThrow(/\[\] is refused/);
    await expect(run([{ ...record("x", []), destructive: "yes" as never }])).rejects.toThrow(/destructive must be true or false/);
    await expect(run([record("x", [{ type: "remove-managed", relPath: "hooks/a.js" }])])).rejects.toThrow(/needs ownershipEvidence/);
    await expect(run([record("x", [{ type: "remove-empty-dir", relPath: "hooks" }])])).rejects.toThrow(/needs ownershipEvidence/);
    await expect(run([record("x", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }], { destructive: false })])).rejects.toThrow(/says destructive: false but plans remove-managed/);
    await expect(run([record("x", [{ type: "rewrite-json", relPath: "settings.json", text: "{}", ownershipEvidence: EVIDENCE }])])).rejects.toThrow(/must name its row of the config contract registry/);
    await expect(run([record("x", [{ type: "rewrite-json", relPath: "settings.json", text: "{}", ownershipEvidence: EVIDENCE, contract: "codex.hooks" }])])).rejects.toThrow(/not a row of claude/);
    await expect(run([record("x", [], { runtimeContracts: ["claude.nope"] })])).rejects.toThrow(/not a row of the config contract registry/);
    await expect(run([record("x", [{ type: "prompt-user", relPath: "hooks/a.js", choices: ["remove"] }])])).rejects.toThrow(/keep \(the default\)/);
  });

  it("a rewrite naming its contract row applies (JSONC edit of the runtime's config)", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "settings.json": '{\n  "keep": 1 // mine\n}\n' } });
    const rewrite = record("rewrite", [{ type: "rewrite-json", relPath: "settings.json", text: '{\n  "keep": 1 // mine\n, "x": 2}\n', ownershipEvidence: "test", contract: "claude.hooks" }], { runtimeContracts: ["claude.hooks"] });
    await runEngine(root, { records: [rewrite] });
    expect(readFileSync(join(root.dir, "settings.json"), "utf8")).toContain('"x": 2');
  });
});

describe("remove-empty-dir", () => {
  const removeDir = (relPath: string) => record("rmdir", [{ type: "remove-empty-dir", relPath, ownershipEvidence: "the pack's folder" }]);

  it("removes an empty folder, skips a non-empty one, leaves a symlinked one, and is fine when it is gone", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { files: { "skills/full/mine.md": "mine\n", "target/keep.md": "k\n" } });
    mkdirSync(join(root.dir, "skills/empty/inner"), { recursive: true });
    symlinkSync(join(root.dir, "target"), join(root.dir, "skills/linked"));
    const { root: result } = await runEngine(root, { records: [record("dirs", ["skills/empty/inner", "skills/empty", "skills/full", "skills/linked", "skills/gone"].map((relPath) => ({ type: "remove-empty-dir" as const, relPath, ownershipEvidence: "the pack's folder" })))] });
    const outcome = (rel: string) => {
      const action = result.plan.actions.find((candidate) => candidate.rel === rel)!;
      return `${action.type}:${result.outcomes.get(action.index) ?? ""}`;
    };
    expect(outcome("skills/empty/inner")).toBe("remove-empty-dir:removed");
    expect(outcome("skills/empty")).toBe("remove-empty-dir:removed");
    expect(outcome("skills/full")).toBe("remove-empty-dir:skipped-not-empty");
    expect(outcome("skills/linked")).toBe("baseline-preserve-user:kept");
    expect(outcome("skills/gone")).toBe("forget:kept");
    expect(readFileSync(join(root.dir, "skills/full/mine.md"), "utf8")).toBe("mine\n");
    expect(lstatSync(join(root.dir, "skills/linked")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root.dir, "target/keep.md"), "utf8")).toBe("k\n");
  });

  it("a folder behind a symlink that leaves the root is blocked, and an rmdir that fails (EACCES) leaves the folder in place", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, {});
    mkdirSync(join(t.home, "outside/empty"), { recursive: true });
    symlinkSync(join(t.home, "outside"), join(root.dir, "out"));
    await expect(runEngine(root, { records: [removeDir("out/empty")] })).rejects.toThrow(/symlink to a folder outside the root/);
    expect(existsSync(join(t.home, "outside/empty"))).toBe(true);
    mkdirSync(join(root.dir, "skills/stuck"), { recursive: true });
    const fs = watchedFs((_n, call) => {
      if (call === "rmdirSync") throw Object.assign(new Error("EACCES"), { code: "EACCES" });
    });
    const { root: result } = await runEngine(root, { records: [removeDir("skills/stuck")], fs });
    expect(result.outcomes.get(result.plan.actions[0]!.index)).toBe("left-in-place");
    expect(existsSync(join(root.dir, "skills/stuck"))).toBe(true);
  });
});

describe("the install lock", () => {
  it("a live holder makes the run wait, then fail with LockHeldError{pid, since}", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n" } });
    writeFileSync(join(root.dir, "bosun-install.lock"), JSON.stringify({ pid: process.pid, host: hostname(), acquiredAt: "2026-12-01T00:00:00.000Z" }));
    const error = (await runEngine(root, { records: [record("r", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }])], lockTimeoutMs: 0 }).catch((caught: unknown) => caught)) as LockHeldError;
    expect(error).toBeInstanceOf(LockHeldError);
    expect(error.pid).toBe(process.pid);
    expect(error.since).toBe("2026-12-01T00:00:00.000Z");
    expect(error.message).toMatch(/bosun-install\.lock is held by process \d+ on .* since 2026-12-01T00:00:00\.000Z/);
    expect(readFileSync(join(root.dir, "hooks/a.js"), "utf8")).toBe("a\n");
  });

  it("a lock whose process is dead, or an empty lock older than 5 s, is reclaimed; the run leaves no lock", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n", "hooks/b.js": "b\n" } });
    const lock = join(root.dir, "bosun-install.lock");
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), acquiredAt: "2026-01-01T00:00:00.000Z" }));
    await runEngine(root, { records: [record("r1", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }])] });
    expect(existsSync(lock)).toBe(false);
    writeFileSync(lock, "");
    const old = new Date(Date.now() - 10_000);
    nodeFs.utimesSync(lock, old, old);
    await runEngine(root, { records: [record("r2", [{ type: "remove-managed", relPath: "hooks/b.js", ownershipEvidence: EVIDENCE }])] });
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(root.dir, "hooks/b.js"))).toBe(false);
  });

  it("a garbled lock younger than 5 s is respected", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n" } });
    writeFileSync(join(root.dir, "bosun-install.lock"), "garbage");
    await expect(runEngine(root, { records: [record("r", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }])], lockTimeoutMs: 100 })).rejects.toThrow(/held by another process/);
  });

  it("a lock that cannot be released is reported as a warning (the install itself is complete)", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/a.js": "a\n" } });
    const lock = join(root.dir, "bosun-install.lock");
    // Someone replaces the lock while the run holds it: release refuses to remove a lock that is not its own.
    const fs = watchedFs((_n, call, args) => {
      if (call === "writeSync" && typeof args[1] === "string" && args[1].includes('"op":"commit"')) writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere", acquiredAt: "x" }));
    });
    const { result } = await runEngine(root, { records: [record("r", [{ type: "remove-managed", relPath: "hooks/a.js", ownershipEvidence: EVIDENCE }])], fs });
    expect(result.warnings.join(" ")).toMatch(/could not release .*bosun-install\.lock: .*taken over by another process/);
    expect(existsSync(join(root.dir, "hooks/a.js"))).toBe(false);
  });
});

describe("symlink safety", () => {
  it("a symlinked managed file is backed up and removed as the link itself; no copy of its target appears", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/link.js": "placeholder\n" } });
    t.write(join(t.home, "secret/id_rsa"), "PRIVATE KEY\n");
    nodeFs.unlinkSync(join(root.dir, "hooks/link.js"));
    symlinkSync(join(t.home, "secret/id_rsa"), join(root.dir, "hooks/link.js"));
    const { root: result } = await runEngine(root, { records: [record("r", [{ type: "remove-managed", relPath: "hooks/link.js", ownershipEvidence: EVIDENCE }])] });
    expect(result.plan.actions[0]!.type).toBe("backup-and-remove");
    expect(existsSync(join(root.dir, "hooks/link.js"))).toBe(false);
    const backup = join(root.dir, result.backups[0]!);
    expect(lstatSync(backup).isSymbolicLink()).toBe(true);
    expect(readlinkSync(backup)).toBe(join(t.home, "secret/id_rsa"));
    const everything = Object.entries(treeState(root.dir));
    expect(everything.filter(([, value]) => value.includes(sha("PRIVATE KEY\n")))).toEqual([]);
    expect(readFileSync(join(t.home, "secret/id_rsa"), "utf8")).toBe("PRIVATE KEY\n");
  });

  it("a failure after a symlink was moved away restores the symlink with its target", async () => {
    const t = makeTempHome();
    const root = seedRoot(t, { managed: { "hooks/link.js": "p\n", "hooks/b.js": "b\n" } });
    nodeFs.unlinkSync(join(root.dir, "hooks/link.js"));
    symlinkSync("../elsewhere.js", join(root.dir, "hooks/link.js"));
    const fs = watchedFs((_n, call, args) => {
      if (call === "renameSync" && String(args[0]).endsWith("hooks/b.js")) throw Object.assign(new Error("EIO"), { code: "EIO" });
    });
    await expect(
      runEngine(root, { records: [record("r", [{ type: "remove-managed", relPath: "hooks/link.js", ownershipEvidence: EVIDENCE }, { type: "remove-managed", relPath: "hooks/b.js", ownershipEvidence: EVIDENCE }])], fs }),
    ).rejects.toThrow(InstallFailedError);
    expect(lstatSync(join(root.dir, "hooks/link.js")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root.dir, "hooks/link.js"))).toBe("../elsewhere.js");
  });
});
