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
    expect(findProject(join(shared, "someone/app"), t.home, 0)).toEqual({
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

  it("does not use a project config that group or others can write", () => {
    const t = makeTempHome();
    const file = t.write("home/app/bosun.json", "{}");
    chmodSync(file, 0o666);
    const lookup = findProject(join(t.home, "app"), t.home);
    expect(lookup.project).toBeNull();
    expect(lookup.warnings.map((w) => [w.file, w.message])).toEqual([
      [file, "project config not used: it is writable by group and others (mode 0666); chmod go-w it if you trust it"],
    ]);
    chmodSync(file, 0o644);
    const nested = t.write("home/app2/.bosun/bosun.json", "{}");
    chmodSync(nested, 0o620);
    expect(findProject(join(t.home, "app2"), t.home).warnings.map((w) => w.message)).toEqual([expect.stringContaining("writable by group (mode 0620)")]);
    expect(findProject(join(t.home, "app"), t.home).project?.root).toBe(join(t.home, "app"));
  });

  it("stops where the file system changes (rule with device ids as data)", () => {
    const folders: Record<string, FolderFacts> = {
      "/srv": { device: 1, hasGit: false, markers: [{ path: "/srv/bosun.json", uid: 7, mode: 0o100644 }] },
      "/srv/disk": { device: 2, hasGit: false, markers: [] },
      "/srv/disk/app": { device: 2, hasGit: false, markers: [] },
      "/": { device: 1, hasGit: false, markers: [] },
    };
    const facts = (dir: string) => folders[dir];
    expect(lookUpProject("/srv/disk/app", ["/home/me"], 7, facts).project).toBeNull();
    folders["/srv/disk"]!.device = 1;
    folders["/srv/disk/app"]!.device = 1;
    expect(lookUpProject("/srv/disk/app", ["/home/me"], 7, facts).project?.root).toBe("/srv");
  });

  it("stops where the file system changes (a real tmpfs mount)", () => {
    const t = makeTempHome();
    t.write("home/work/bosun.json", "{}");
    const disk = join(t.home, "work/disk");
    mkdirSync(join(disk, "app"), { recursive: true });
    expect(findProject(join(disk, "app"), t.home).project?.root).toBe(join(t.home, "work"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk]);
    try {
      mkdirSync(join(disk, "app"));
      expect(statSync(join(disk, "app")).dev).not.toBe(statSync(join(t.home, "work")).dev);
      expect(findProject(join(disk, "app"), t.home)).toEqual({ project: null, warnings: [] });
    } finally {
      execFileSync("umount", [disk]);
    }
  });
});
