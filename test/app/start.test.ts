import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/kernel/config/config-error.js";
import { startBosun } from "../../src/app/start.js";
import { ExtensionError } from "../../src/extensions/extension-error.js";
import { LockHeldError } from "../../src/kernel/fs/file-lock.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const boot = (t: TempHome, extra: Parameters<typeof startBosun>[0] = {}) =>
  startBosun({ env: { ...t.env }, cwd: t.home, spawnDetached: () => "", ...extra });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** A startup_migration extension that plans writing one file until it exists. */
function markerMigration(t: TempHome, root: string, name: string, marker: string) {
  t.write(
    join(root, "extensions/startup_migration", name),
    `import { existsSync, writeFileSync } from "node:fs";
     export default ({ paths }) => {
       const file = paths.data + "/${marker}";
       if (existsSync(file)) return [];
       return [{ kind: "write", describe: "write ${marker}", apply: () => writeFileSync(file, "${name}") }];
     };`,
  );
}

describe("startBosun", () => {
  it("writes nothing at all on a second start", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/s.jsonl"), "s");
    t.write(join(t.paths.legacy, ".env"), "FROM_ENV_FILE=yes\n");
    t.write(join(t.paths.legacy, "agents/a/agent.json"), '{"name":"a"}');
    t.write(join(t.paths.legacy, "logs/x.log"), "x");
    t.write(join(t.paths.legacy, "stray.txt"), "stays");
    t.write(join(t.paths.data, "bin/bosun-hook.mjs"), "old helper");
    t.write(join(t.paths.data, "agents/broken/agent.json"), "{");
    markerMigration(t, t.paths.config, "50_marker.mjs", "marker.txt");
    const first = await boot(t);
    expect(first.migrations.changed).toBe(true);
    expect(readFileSync(join(t.paths.data, "marker.txt"), "utf8")).toBe("50_marker.mjs");

    const before = snapshotTree(t.root);
    const second = await boot(t);
    expect(snapshotTree(t.root)).toEqual(before);
    expect(second.migrations.changed).toBe(false);
    expect(second.migrations.steps.flatMap((s) => s.actions)).toEqual([]);
  });

  it("reloads .env after the migrations moved it into place", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, ".env"), "LEGACY_KEY=moved\n");
    const started = await boot(t);
    expect(started.env.LEGACY_KEY).toBe("moved");
    expect(started.dotenv).toMatchObject({ found: true, applied: ["LEGACY_KEY"] });
  });

  it("runs startup_migration extensions after the built-in steps, in file-name order", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), "{}");
    t.write(
      join(t.paths.config, "extensions/startup_migration/05_sees_builtins.mjs"),
      `import { existsSync } from "node:fs";
       export default ({ paths }) => ({ actions: [], notes: [{ level: "info", message: "settings moved: " + existsSync(paths.config + "/bosun.json") }] });`,
    );
    markerMigration(t, join(t.home, "proj/.bosun"), "20_project.mjs", "project.txt");
    t.write(join(t.home, "proj/bosun.json"), "{}");
    const started = await startBosun({ env: { ...t.env }, cwd: join(t.home, "proj"), spawnDetached: () => "" });
    expect(started.migrations.steps.map((s) => s.id)).toEqual([
      "10_legacy_layout",
      "20_agents_json_to_yaml",
      "30_runtime_helper_sync",
      "40_private_folders",
      "05_sees_builtins",
      "20_project",
    ]);
    expect(started.migrations.steps[4]!.notes).toEqual([{ level: "info", message: "settings moved: true" }]);
    expect(existsSync(join(t.paths.data, "project.txt"))).toBe(true);
  });

  it("runs the migrations of a plugin that the legacy move just brought into place", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "plugins/old/plugin.json"), '{"name":"old"}');
    markerMigration(t, join(t.paths.legacy, "plugins/old"), "60_old_plugin.mjs", "old-plugin.txt");
    const started = await boot(t);
    expect(readFileSync(join(t.paths.data, "old-plugin.txt"), "utf8")).toBe("60_old_plugin.mjs");
    expect(started.plugins.map((p) => p.name)).toEqual(["old"]);
  });

  it("does not run a disabled plugin's migrations", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "plugins/off/plugin.json"), "{}");
    markerMigration(t, join(t.paths.data, "plugins/off"), "10_off.mjs", "off.txt");
    t.write(join(t.paths.config, "bosun.json"), '{ "plugins": { "off": { "enabled": false } } }');
    await boot(t);
    expect(existsSync(join(t.paths.data, "off.txt"))).toBe(false);
  });

  it("plans extension migrations in a dry run without applying them", async () => {
    const t = makeTempHome();
    markerMigration(t, t.paths.config, "50_marker.mjs", "marker.txt");
    t.write(join(t.paths.legacy, "sessions/s.jsonl"), "s");
    const started = await boot(t, { dryRunMigrations: true, skipConfig: true });
    expect(started.migrations.steps.find((s) => s.id === "50_marker")!.actions).toEqual([{ kind: "write", describe: "write marker.txt" }]);
    expect(existsSync(join(t.paths.data, "marker.txt"))).toBe(false);
    expect(existsSync(join(t.paths.legacy, "sessions/s.jsonl"))).toBe(true);
  });

  it("stops the start with the file name of a throwing migration, before config is read", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "extensions/startup_migration/10_boom.mjs"), "export default () => { throw new Error('cannot migrate'); };");
    markerMigration(t, t.paths.config, "20_after.mjs", "after.txt");
    t.write(join(t.paths.config, "bosun.json"), `{ "plugins": 1 }`);
    const error = await rejection(boot(t));
    expect(error).toBeInstanceOf(ExtensionError);
    expect((error as Error).message).toMatch(/10_boom\.mjs \(startup_migration\): threw: cannot migrate/);
    expect(existsSync(join(t.paths.data, "after.txt"))).toBe(false);
    expect(existsSync(join(t.paths.state, "startup-migrations.lock"))).toBe(false);
  });

  it("refuses a migration that returns a promise or a malformed plan", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "extensions/startup_migration/10_async.mjs"), "export default async () => [];");
    expect(String(await rejection(boot(t)))).toContain("returned a promise at a synchronous point");
    const u = makeTempHome();
    u.write(join(u.paths.config, "extensions/startup_migration/10_bad.mjs"), "export default () => [{ describe: 'x' }];");
    expect(String(await rejection(boot(u)))).toContain("returned an invalid plan: action 0 has no apply function");
  });

  it("gives the migration pass start and end points that plugins can hook", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "plugins/watch/plugin.json"), "{}");
    t.write(
      join(t.paths.data, "plugins/watch/extensions/run_startup_migrations/end/10_after.mjs"),
      `import { writeFileSync } from "node:fs";
       export default ({ call }) => { writeFileSync(${JSON.stringify(join(t.root, "watched.txt"))}, call.result.steps.map((s) => s.id).join(",")); };`,
    );
    const watch = join(t.root, "watched.txt");
    await boot(t);
    expect(readFileSync(watch, "utf8")).toBe("10_legacy_layout,20_agents_json_to_yaml,30_runtime_helper_sync,40_private_folders");
  });

  it("waits for a migrations lock held by a live process, then gives up naming it", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/s.jsonl"), "s");
    const holder = { pid: process.pid, host: hostname(), acquiredAt: "2026-01-01T00:00:00.000Z" };
    t.write(join(t.paths.state, "startup-migrations.lock"), JSON.stringify(holder));
    const error = await rejection(boot(t, { lockTimeoutMs: 150 }));
    expect(error).toBeInstanceOf(LockHeldError);
    expect((error as Error).message).toContain(`held by process ${process.pid}`);
    expect(existsSync(join(t.paths.legacy, "sessions/s.jsonl"))).toBe(true);
  });

  it("reclaims a migrations lock left by a dead process", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions/s.jsonl"), "s");
    t.write(join(t.paths.state, "startup-migrations.lock"), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), acquiredAt: "x" }));
    await boot(t);
    expect(existsSync(join(t.paths.data, "sessions/s.jsonl"))).toBe(true);
    expect(existsSync(join(t.paths.state, "startup-migrations.lock"))).toBe(false);
  });

  it("reads config only after migrations, and fails with the config's line when it is invalid", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), '{\n  "defaultModel": "a/b"\n}');
    expect((await boot(t)).config?.value.model).toBe("a/b");
    // A moved file that would stop every start is kept aside instead (10_legacy_layout); one the user wrote stops it.
    const u = makeTempHome();
    u.write(join(u.paths.config, "bosun.json"), '{\n  "plugins": 1\n}');
    const error = await rejection(boot(u));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`${join(u.paths.config, "bosun.json")}:2: plugins: expected record, received number`);
  });

  it("creates no folder at all on a fresh machine: the helper is synced only where one is installed", async () => {
    const t = makeTempHome();
    const before = snapshotTree(t.root);
    const started = await boot(t);
    expect(snapshotTree(t.root)).toEqual(before);
    expect(started.migrations.steps[2]!.notes[0]!.message).toContain("runtime helper not found");
  });
});
