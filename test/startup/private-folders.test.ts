import * as nodeFs from "node:fs";
import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planPrivateFolders, privateFoldersStep } from "../../src/startup/40_private_folders.js";
import type { StartupFs } from "../../src/startup/types.js";
import { runBinAsync, runCli } from "../fixtures/cli.js";
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

  it("leaves a folder on a read-only mount as it is, and every command still works (a read-only tmpfs in a mount namespace of its own)", async () => {
    const t = makeTempHome();
    mkdirSync(t.paths.config, { recursive: true, mode: 0o700 });
    const readOnly = { wrapper: ["unshare", "-m"], setup: `mount -t tmpfs -o ro,mode=755 tmpfs ${t.paths.config}`, cwd: t.home, timeoutMs: 30_000 };
    const note = "~/.config/bosun (755) is open to others but on a read-only file system; left as it is: make it private where it is mounted from";
    for (const argv of [["agents"], ["status"]]) {
      const result = await runBinAsync(argv, t.env, readOnly);
      expect(result.code, result.stderr).toBe(0);
      // Nothing it could do: no announcement, no lock, at every start.
      expect(result.stderr, argv.join(" ")).toBe("");
      if (argv[0] === "status") expect(result.stdout).toContain(`! ${note}`);
    }
    const migrate = await runBinAsync(["migrate", "--json"], t.env, readOnly);
    const step = JSON.parse(migrate.stdout).steps.find((s: { id: string }) => s.id === "40_private_folders");
    expect(step).toMatchObject({ actions: [], notes: [{ level: "warn", message: note }] });
  }, 60_000);

  it("turns a change the file system refuses (EROFS, EPERM, EACCES) into a warning, not a failed start", async () => {
    for (const code of ["EROFS", "EPERM", "EACCES"]) {
      const t = makeTempHome();
      makeOpen([t.paths.cache]);
      const refusing: StartupFs = {
        ...nodeFs,
        fchmodSync: () => {
          throw Object.assign(new Error(`${code}: refused, fchmod`), { code });
        },
      };
      const report = await runSteps(migrationContext(t, { fs: refusing }), [privateFoldersStep]);
      expect(report.steps[0]!.notes, code).toEqual([{ level: "warn", message: `left as it is: ~/.cache/bosun could not be made private (${code}: refused, fchmod)` }]);
      expect(modeOf(t.paths.cache)).toBe("755");
    }
  });

  it("does not list a runtimes/ folder that is not yours (left by sudo bosun agents login), nor fail on one it cannot list", async () => {
    const user = 4242;
    const asUser = { wrapper: ["setpriv", `--reuid=${user}`, `--regid=${user}`, "--clear-groups"], timeoutMs: 30_000 };
    const runtimes = (t: TempHome) => join(t.paths.data, "runtimes");
    const homeOf = (t: TempHome, runtimesOwner: number, runtimesMode: number) => {
      mkdirSync(join(runtimes(t), "codex"), { recursive: true, mode: 0o700 });
      chmodSync(join(runtimes(t), "codex"), 0o755);
      for (const dir of [t.root, t.home, join(t.home, ".local"), join(t.home, ".local", "share"), t.paths.data, runtimes(t), join(runtimes(t), "codex")]) chownSync(dir, user, user);
      chmodSync(t.paths.data, 0o700);
      chownSync(runtimes(t), runtimesOwner, runtimesOwner);
      chmodSync(runtimes(t), runtimesMode);
      return t;
    };

    // sudo left runtimes/ root's and private: the user cannot list it, and bosun does not try.
    const sudo = homeOf(makeTempHome(), 0, 0o700);
    const status = await runBinAsync(["status"], sudo.env, { ...asUser, cwd: sudo.home });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("! ~/.local/share/bosun/runtimes belongs to user 0, not you; the folders in it were not checked");
    expect(modeOf(join(runtimes(sudo), "codex"))).toBe("755");

    // The user's own runtimes/ without read access: listing fails with EACCES, which is a note.
    const unreadable = homeOf(makeTempHome(), user, 0o300);
    const again = await runBinAsync(["status"], unreadable.env, { ...asUser, cwd: unreadable.home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/! ~\/\.local\/share\/bosun\/runtimes cannot be listed \(EACCES: permission denied, scandir '[^']+'\); the folders in it were not checked/);
    expect(modeOf(join(runtimes(unreadable), "codex"))).toBe("755");
  }, 60_000);
});

