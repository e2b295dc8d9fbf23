import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { legacyLayoutStep } from "../../src/startup/10_legacy_layout.js";
import { filesUnder } from "../fixtures/fs-snapshot.js";
import { crossDeviceFs, migrationContext, noHardLinksFs, runSteps } from "../fixtures/migration-context.js";
import { makeFifo, makeTempHome, type TempHome } from "../fixtures/temp-home.js";

function legacyTree(t: TempHome) {
  const legacy = t.paths.legacy;
  t.write(join(legacy, "settings.json"), '{ "plugins": {} }');
  t.write(join(legacy, "secrets.env"), "S=1\n");
  t.write(join(legacy, "auth.json"), '{"openai":"k"}');
  t.write(join(legacy, ".env"), "FROM_LEGACY=1\n");
  t.write(join(legacy, "sessions/a.jsonl"), "session a\n");
  t.write(join(legacy, "sessions/nested/b.jsonl"), "session b\n");
  t.write(join(legacy, "agents/rev/agent.json"), '{"name":"rev"}');
  t.write(join(legacy, "plugins/p/plugin.json"), '{"name":"p"}');
  t.write(join(legacy, "extensions/startup_migration/10_x.js"), "export default () => {}");
  t.write(join(legacy, "cache/models.json"), "new cache");
  t.write(join(legacy, "logs/old.log"), "old log");
  return legacy;
}

const MOVED = (t: TempHome) => ({
  [join(t.paths.config, "bosun.json")]: '{ "plugins": {} }',
  [join(t.paths.data, "secrets.env")]: "S=1\n",
  [join(t.paths.data, "auth.json")]: '{"openai":"k"}',
  [join(t.paths.data, ".env")]: "FROM_LEGACY=1\n",
  [join(t.paths.data, "sessions/a.jsonl")]: "session a\n",
  [join(t.paths.data, "sessions/nested/b.jsonl")]: "session b\n",
  [join(t.paths.data, "agents/rev/agent.json")]: '{"name":"rev"}',
  [join(t.paths.data, "plugins/p/plugin.json")]: '{"name":"p"}',
  [join(t.paths.config, "extensions/startup_migration/10_x.js")]: "export default () => {}",
  [join(t.paths.cache, "models.json")]: "new cache",
});

function expectMoved(t: TempHome) {
  for (const [file, content] of Object.entries(MOVED(t))) expect(readFileSync(file, "utf8"), file).toBe(content);
}

describe("10_legacy_layout", () => {
  it("moves every entry of the move table and removes the emptied legacy folder", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    const report = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expectMoved(t);
    expect(existsSync(legacy)).toBe(false);
    expect(report.changed).toBe(true);
    expect(report.steps[0]!.notes).toEqual([]);
    expect(statSync(t.paths.data).mode & 0o777).toBe(0o700);
    expect(statSync(t.paths.config).mode & 0o777).toBe(0o700);
  });

  it("plans nothing on a second run", async () => {
    const t = makeTempHome();
    legacyTree(t);
    await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(await legacyLayoutStep.plan(migrationContext(t))).toEqual({ actions: [], notes: [] });
  });

  it("merges into existing folders, keeps both copies of a conflicting file, and reports it", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    t.write(join(t.paths.data, "sessions/a.jsonl"), "newer session a\n");
    t.write(join(t.paths.data, "sessions/c.jsonl"), "session c\n");
    t.write(join(t.paths.config, "bosun.json"), "{}");
    const report = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(readFileSync(join(t.paths.data, "sessions/a.jsonl"), "utf8")).toBe("newer session a\n");
    expect(readFileSync(join(t.paths.data, "sessions/nested/b.jsonl"), "utf8")).toBe("session b\n");
    expect(readFileSync(join(t.paths.config, "bosun.json"), "utf8")).toBe("{}");
    // What could not move stays exactly where it was, with the folders that hold it.
    expect(filesUnder(legacy)).toEqual({ "sessions/a.jsonl": "session a\n", "settings.json": '{ "plugins": {} }' });
    const warnings = report.steps[0]!.notes.map((n) => n.message);
    expect(warnings).toEqual([
      expect.stringMatching(/kept ~\/\.bosun\/sessions\/a\.jsonl: .*sessions\/a\.jsonl already exists/),
      expect.stringMatching(/kept ~\/\.bosun\/settings\.json: .*bosun\.json already exists/),
    ]);
  });

  it("overwrites .env but keeps the replaced one as a backup, and overwrites cache entries", async () => {
    const t = makeTempHome();
    legacyTree(t);
    t.write(join(t.paths.data, ".env"), "OLD=1\n");
    t.write(join(t.paths.data, ".env.startup-migration-backup"), "OLDER=1\n");
    t.write(join(t.paths.cache, "models.json"), "old cache");
    t.write(join(t.paths.cache, "other.json"), "untouched");
    await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(readFileSync(join(t.paths.data, ".env"), "utf8")).toBe("FROM_LEGACY=1\n");
    expect(readFileSync(join(t.paths.data, ".env.startup-migration-backup"), "utf8")).toBe("OLDER=1\n");
    expect(readFileSync(join(t.paths.data, ".env.startup-migration-backup-2"), "utf8")).toBe("OLD=1\n");
    expect(readFileSync(join(t.paths.cache, "models.json"), "utf8")).toBe("new cache");
    expect(readFileSync(join(t.paths.cache, "other.json"), "utf8")).toBe("untouched");
  });

  it("leaves entries outside the table, and special files, where they are", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    t.write(join(legacy, "notes.txt"), "mine");
    makeFifo(join(legacy, "sessions/pipe"));
    mkdirSync(join(t.paths.data, "sessions"), { recursive: true });
    const report = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(readFileSync(join(legacy, "notes.txt"), "utf8")).toBe("mine");
    expect(lstatSync(join(legacy, "sessions/pipe")).isFIFO()).toBe(true);
    expect(report.steps[0]!.notes.map((n) => n.message)).toEqual([
      expect.stringContaining("~/.bosun/notes.txt is not in the move table"),
      expect.stringContaining("~/.bosun/sessions/pipe is not a file, folder or symlink"),
    ]);
    expect(readFileSync(join(t.paths.data, "sessions/a.jsonl"), "utf8")).toBe("session a\n");
  });

  it("copies, verifies and deletes across filesystems, keeping modes, times and symlinks", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    chmodSync(join(legacy, "secrets.env"), 0o600);
    utimesSync(join(legacy, "sessions/a.jsonl"), new Date("2024-01-02T03:04:05Z"), new Date("2024-01-02T03:04:05Z"));
    symlinkSync("nested/b.jsonl", join(legacy, "sessions/latest"));
    await runSteps(migrationContext(t, { fs: crossDeviceFs(legacy) }), [legacyLayoutStep]);
    expectMoved(t);
    expect(existsSync(legacy)).toBe(false);
    expect(statSync(join(t.paths.data, "secrets.env")).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.paths.data, "sessions/a.jsonl")).mtime.toISOString()).toBe("2024-01-02T03:04:05.000Z");
    expect(readlinkSync(join(t.paths.data, "sessions/latest"))).toBe("nested/b.jsonl");
    expect(Object.keys(filesUnder(t.home)).filter((f) => f.endsWith(".bosun-migrate.tmp"))).toEqual([]);
  });

  it("moves across filesystems onto one without hard links, where a copy is put in place by rename", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    await runSteps(migrationContext(t, { fs: noHardLinksFs(crossDeviceFs(legacy)) }), [legacyLayoutStep]);
    expectMoved(t);
    expect(existsSync(legacy)).toBe(false);
    expect(Object.keys(filesUnder(t.home)).filter((f) => f.endsWith(".bosun-migrate.tmp"))).toEqual([]);
  });

  it("leaves a FIFO inside a folder copied across filesystems, and the folder with it", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    makeFifo(join(legacy, "sessions/pipe"));
    const report = await runSteps(migrationContext(t, { fs: crossDeviceFs(legacy) }), [legacyLayoutStep]);
    expect(readFileSync(join(t.paths.data, "sessions/nested/b.jsonl"), "utf8")).toBe("session b\n");
    expect(lstatSync(join(legacy, "sessions/pipe")).isFIFO()).toBe(true);
    expect(report.steps[0]!.notes.map((n) => n.message)).toEqual([expect.stringContaining("kept ~/.bosun: it still holds entries")]);
    expect(Object.keys(filesUnder(t.home)).filter((f) => f.endsWith(".bosun-migrate.tmp"))).toEqual([]);
  });

  it("removes a source whose identical copy is already in place (a move cut short by a crash)", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    t.write(join(t.paths.data, "secrets.env"), "S=1\n");
    t.write(join(t.paths.data, "auth.json.bosun-migrate.tmp"), "partial");
    const plan = await legacyLayoutStep.plan(migrationContext(t));
    expect(plan.actions.map((a) => a.describe)).toContain("remove ~/.bosun/secrets.env (already moved to ~/.local/share/bosun/secrets.env)");
    expect(plan.actions.map((a) => a.describe)).toContain("remove ~/.local/share/bosun/auth.json.bosun-migrate.tmp left by an interrupted copy");
    await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(join(t.paths.data, "auth.json.bosun-migrate.tmp"))).toBe(false);
  });

  it("does nothing when the legacy folder is bosun's own home", async () => {
    const t = makeTempHome();
    const legacy = legacyTree(t);
    const env = { ...t.env, BOSUN_HOME: legacy };
    const paths = { ...t.paths, config: join(legacy, "config"), data: join(legacy, "data"), cache: join(legacy, "cache"), state: join(legacy, "state"), bosunHome: legacy };
    const plan = await legacyLayoutStep.plan(migrationContext({ ...t, env, paths }));
    expect(plan.actions).toEqual([]);
    expect(plan.notes[0]!.message).toContain("overlaps");
  });

  it("lists in a dry run exactly what a real run then does, and changes nothing", async () => {
    const t = makeTempHome();
    legacyTree(t);
    mkdirSync(join(t.paths.data, "sessions"), { recursive: true });
    const before = filesUnder(t.home);
    const dry = await runSteps(migrationContext(t), [legacyLayoutStep], true);
    expect(filesUnder(t.home)).toEqual(before);
    expect(dry.changed).toBe(false);
    const real = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(real.steps[0]!.actions).toEqual(dry.steps[0]!.actions);
  });
});
