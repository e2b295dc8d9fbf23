import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planPrivateFolders, privateFoldersStep } from "../../src/migrations/40_private_folders.js";
import { runCli } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { migrationContext, runSteps } from "../fixtures/migration-context.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** Every folder the step looks after, as an older bosun under umask 022 left them. */
function ownFolders(t: TempHome): string[] {
  const { config, data, cache, state } = t.paths;
  return [
    config,
    data,
    join(data, "sessions"),
    join(data, "runtimes"),
    join(data, "runtimes", "codex"),
    join(data, "bin"),
    cache,
    join(cache, "models-dev"),
    join(cache, "status"),
    state,
    join(state, "logs"),
    join(state, "locks"),
  ];
}

function makeOpen(folders: string[]): void {
  for (const folder of folders) {
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
  }
}

const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8);

describe("40_private_folders", () => {
  it("plans nothing for a fresh home or one whose folders are private", () => {
    const t = makeTempHome();
    expect(planPrivateFolders(migrationContext(t))).toEqual({ actions: [], notes: [] });
    for (const folder of ownFolders(t)) mkdirSync(folder, { recursive: true, mode: 0o700 });
    expect(planPrivateFolders(migrationContext(t))).toEqual({ actions: [], notes: [] });
  });

  it("makes each of bosun's folders private, and then has nothing to do", async () => {
    const t = makeTempHome();
    const folders = ownFolders(t);
    makeOpen(folders);
    // What the user put in bosun's folders is private through the folder above it, and left as it is.
    makeOpen([join(t.paths.data, "plugins", "mine")]);
    const report = await runSteps(migrationContext(t), [privateFoldersStep]);
    expect(report.steps[0]!.actions.map((action) => action.describe)).toEqual(folders.map((folder) => `make ${folder.replace(t.home, "~")} private (755 → 700)`));
    expect(Object.fromEntries(folders.map((folder) => [folder, modeOf(folder)]))).toEqual(Object.fromEntries(folders.map((folder) => [folder, "700"])));
    expect(modeOf(join(t.paths.data, "plugins", "mine"))).toBe("755");
    expect(planPrivateFolders(migrationContext(t))).toEqual({ actions: [], notes: [] });
  });

  it("takes away only group and other bits", async () => {
    const t = makeTempHome();
    mkdirSync(t.paths.cache, { recursive: true });
    chmodSync(t.paths.cache, 0o1570);
    await runSteps(migrationContext(t), [privateFoldersStep]);
    expect(modeOf(t.paths.cache)).toBe("1500");
  });

  it("never follows a symlink: neither a linked folder's target nor anything under a linked root changes", () => {
    const t = makeTempHome();
    const elsewhere = join(t.root, "elsewhere");
    makeOpen([join(elsewhere, "sessions"), join(elsewhere, "state", "logs")]);
    mkdirSync(t.paths.data, { recursive: true, mode: 0o700 });
    symlinkSync(join(elsewhere, "sessions"), join(t.paths.data, "sessions"));
    mkdirSync(join(t.home, ".local", "state"), { recursive: true });
    symlinkSync(join(elsewhere, "state"), t.paths.state);
    expect(planPrivateFolders(migrationContext(t))).toEqual({ actions: [], notes: [] });
    expect([modeOf(join(elsewhere, "sessions")), modeOf(join(elsewhere, "state")), modeOf(join(elsewhere, "state", "logs"))]).toEqual(["755", "755", "755"]);
  });

  it("reports a folder that belongs to another user and leaves it as it is", async () => {
    const t = makeTempHome();
    const status = join(t.paths.cache, "status");
    makeOpen([status]);
    chmodSync(t.paths.cache, 0o700);
    chownSync(status, 4242, 4242);
    const report = await runSteps(migrationContext(t), [privateFoldersStep]);
    expect(report.changed).toBe(false);
    expect(report.steps[0]!.notes).toEqual([
      { level: "warn", message: `${status.replace(t.home, "~")} (755) is open to others but belongs to user 4242, not you; left alone: have its owner run chmod 700 on it` },
    ]);
    expect(modeOf(status)).toBe("755");
  });

  it("leaves a folder alone that was swapped for a symlink after planning", () => {
    const t = makeTempHome();
    makeOpen([t.paths.cache, join(t.root, "other")]);
    const [action] = planPrivateFolders(migrationContext(t)).actions;
    renameSync(t.paths.cache, join(t.root, "moved"));
    symlinkSync(join(t.root, "other"), t.paths.cache);
    expect(action!.apply()).toEqual([{ level: "warn", message: "~/.cache/bosun changed while bosun was making it private; left alone" }]);
    expect([modeOf(join(t.root, "other")), modeOf(join(t.root, "moved"))]).toEqual(["755", "755"]);
  });

  it("is announced and logged at start, shown by migrate --dry-run without changing anything", async () => {
    const t = makeTempHome();
    makeOpen([t.paths.data, t.paths.state, join(t.paths.state, "logs")]);
    const before = snapshotTree(t.root);
    const dry = await runCli(["migrate", "--dry-run"], t.env, t.home);
    expect(dry.stdout).toContain("would make ~/.local/share/bosun private (755 → 700)");
    expect(dry.stdout).toContain("would make ~/.local/state/bosun/logs private (755 → 700)");
    expect(snapshotTree(t.root)).toEqual(before);

    const status = await runCli(["status"], t.env, t.home);
    expect(status.stderr).toBe(
      [
        "bosun: 40_private_folders: make ~/.local/share/bosun private (755 → 700)",
        "bosun: 40_private_folders: make ~/.local/state/bosun private (755 → 700)",
        "bosun: 40_private_folders: make ~/.local/state/bosun/logs private (755 → 700)",
        "",
      ].join("\n"),
    );
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).toContain('"action":"make ~/.local/state/bosun/logs private (755 → 700)"');
    const settled = snapshotTree(t.root);
    expect((await runCli(["status"], t.env, t.home)).stderr).toBe("");
    expect(snapshotTree(t.root)).toEqual(settled);
  });
});
