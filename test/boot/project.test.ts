import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findProject, lookUpProject, type FolderFacts } from "../../src/boot/project.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("findProject", () => {
  it("finds the nearest folder with bosun.json from a subfolder", () => {
    const t = makeTempHome();
    t.write("home/work/app/bosun.json", "{}");
    const deep = join(t.home, "work/app/src/lib");
    mkdirSync(deep, { recursive: true });
    expect(findProject(deep, t.home)).toEqual({ project: { root: join(t.home, "work/app"), dotDir: join(t.home, "work/app/.bosun") }, warnings: [] });
  });

  it("accepts a .bosun folder as the marker", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, "proj/.bosun/extensions"), { recursive: true });
    expect(findProject(join(t.home, "proj"), t.home).project?.root).toBe(join(t.home, "proj"));
  });

  it("stops at a repository root", () => {
    const t = makeTempHome();
    t.write("home/outer/bosun.json", "{}");
    mkdirSync(join(t.home, "outer/repo/.git"), { recursive: true });
    mkdirSync(join(t.home, "outer/repo/src"), { recursive: true });
    expect(findProject(join(t.home, "outer/repo/src"), t.home).project).toBeNull();
  });

  it("never takes the home folder (whose .bosun is the legacy data folder) for a project", () => {
    const t = makeTempHome();
    mkdirSync(join(t.home, ".bosun"), { recursive: true });
    mkdirSync(join(t.home, "notes"), { recursive: true });
    expect(findProject(join(t.home, "notes"), t.home).project).toBeNull();
  });
});

describe("findProject's limits", () => {
  it("stops below the home folder: a marker in home or above it is no project", () => {
    const t = makeTempHome();
    t.write("bosun.json", "{}");
    mkdirSync(join(t.root, ".bosun"));
    t.write("home/bosun.json", "{}");
    mkdirSync(join(t.home, "work/app"), { recursive: true });
    expect(findProject(join(t.home, "work/app"), t.home)).toEqual({ project: null, warnings: [] });
    expect(findProject(t.home, t.home).project).toBeNull();
    expect(findProject(t.root, t.home).project).toBeNull();
  });

  it("finds a project outside the home folder, but not in a folder above home", () => {
    const t = makeTempHome();
    t.write("srv/app/bosun.json", "{}");
    mkdirSync(join(t.root, "srv/app/lib"), { recursive: true });
    expect(findProject(join(t.root, "srv/app/lib"), t.home).project?.root).toBe(join(t.root, "srv/app"));
  });

  it("does not use a shared .bosun/ owned by another user, and says why", () => {
    const t = makeTempHome();
    const shared = join(t.root, "shared");
    mkdirSync(join(shared, ".bosun/extensions"), { recursive: true });
    mkdirSync(join(shared, "someone/app"), { recursive: true });
    chownSync(join(shared, ".bosun"), 65534, 65534);
    expect(findProject(join(shared, "someone/app"), t.home, { uid: 0, gid: 0 })).toEqual({
      project: null,
      warnings: [
        {
          kind: "ignored-project",
          file: join(shared, ".bosun"),
          line: null,
          key: null,
          message: "project config not used: it belongs to user 65534, not to you (user 0); chown it to yourself if you trust it",
          suggestion: null,
        },
      ],
    });
  });

  it("does not use a project config that others, or a group not the user's own, can write", () => {
    const t = makeTempHome();
    const me = { uid: process.getuid!(), gid: process.getgid!() };
    const file = t.write("home/app/bosun.json", "{}");
    chmodSync(file, 0o666);
    const lookup = findProject(join(t.home, "app"), t.home);
    expect(lookup.project).toBeNull();
    expect(lookup.warnings.map((w) => [w.file, w.message])).toEqual([[file, "project config not used: it is writable by others (mode 0666); chmod go-w it if you trust it"]]);
    // umask 002 with a group of one's own (Debian's and Ubuntu's default): the user's file.
    chmodSync(file, 0o664);
    expect(findProject(join(t.home, "app"), t.home).project?.root).toBe(join(t.home, "app"));
    // A group someone else is in can change it.
    const nested = t.write("home/app2/.bosun/bosun.json", "{}");
    chownSync(nested, me.uid, 65534);
    chmodSync(nested, 0o620);
    expect(findProject(join(t.home, "app2"), t.home).warnings.map((w) => w.message)).toEqual([expect.stringContaining("writable by group 65534 (mode 0620)")]);
    chmodSync(nested, 0o600);
    expect(findProject(join(t.home, "app2"), t.home).project?.root).toBe(join(t.home, "app2"));
  });

  it("never takes a folder others may write in (like /tmp) for a project, nor climbs above one", () => {
    const t = makeTempHome();
    const drop = join(t.root, "drop");
    mkdirSync(join(drop, ".bosun"), { recursive: true });
    mkdirSync(join(drop, "someone/app"), { recursive: true });
    chmodSync(drop, 0o1777);
    expect(findProject(join(drop, "someone/app"), t.home)).toEqual({ project: null, warnings: [] });
    expect(findProject(drop, t.home)).toEqual({ project: null, warnings: [] });
    chmodSync(drop, 0o755);
    expect(findProject(join(drop, "someone/app"), t.home).project?.root).toBe(drop);
  });

  it("stops where the file system changes (rule with device ids as data)", () => {
    const folders: Record<string, FolderFacts> = {
      "/srv": { device: 1, shared: false, hasGit: false, markers: [{ path: "/srv/bosun.json", uid: 7, gid: 7, mode: 0o100644 }] },
      "/srv/disk": { device: 2, shared: false, hasGit: false, markers: [] },
      "/srv/disk/app": { device: 2, shared: false, hasGit: false, markers: [] },
      "/": { device: 1, shared: false, hasGit: false, markers: [] },
    };
    const facts = (dir: string) => folders[dir];
    expect(lookUpProject("/srv/disk/app", ["/home/me"], { uid: 7, gid: 7 }, facts).project).toBeNull();
    folders["/srv/disk"]!.device = 1;
    folders["/srv/disk/app"]!.device = 1;
    expect(lookUpProject("/srv/disk/app", ["/home/me"], { uid: 7, gid: 7 }, facts).project?.root).toBe("/srv");
  });

  it("stops where the file system changes (a real tmpfs mount)", () => {
    const t = makeTempHome();
    t.write("home/work/bosun.json", "{}");
    const disk = join(t.home, "work/disk");
    mkdirSync(join(disk, "app"), { recursive: true });
    expect(findProject(join(disk, "app"), t.home).project?.root).toBe(join(t.home, "work"));
    // mode=0755: a tmpfs root is 1777 by default, which the shared-folder rule would catch first.
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", disk]);
    try {
      mkdirSync(join(disk, "app"));
      expect(statSync(join(disk, "app")).dev).not.toBe(statSync(join(t.home, "work")).dev);
      expect(findProject(join(disk, "app"), t.home)).toEqual({ project: null, warnings: [] });
    } finally {
      execFileSync("umount", [disk]);
    }
  });
});
