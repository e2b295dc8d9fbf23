import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findProject, lookUpProject, type FolderFacts } from "../../src/kernel/project.js";
import { currentFileUser, type FileUser } from "../../src/kernel/fs/file-trust.js";
import { makeTempHome } from "../fixtures/temp-home.js";

/** A user whose primary group `gid` is a group of their own. */
const user = (uid: number, gid: number): FileUser => ({ uid, gid, groupIsPrivate: () => true });

describe("findProject", () => {
  it("finds the nearest folder with bosun.json from a subfolder", () => {
    const t = makeTempHome();
    t.write("home/work/app/bosun.json", "{}");
    const deep = join(t.home, "work/app/src/lib");
    mkdirSync(deep, { recursive: true });
    expect(findProject(deep, t.home)).toEqual({
      project: { root: join(t.home, "work/app"), dotDir: join(t.home, "work/app/.bosun") },
      gitRoot: null,
      root: join(t.home, "work/app"),
      stop: { reason: "home", folder: t.home },
      warnings: [],
    });
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
    expect(findProject(join(t.home, "work/app"), t.home)).toMatchObject({ project: null, warnings: [] });
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
    expect(findProject(join(shared, "someone/app"), t.home, user(0, 0))).toMatchObject({
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
    expect(findProject(join(drop, "someone/app"), t.home)).toMatchObject({ project: null, warnings: [] });
    expect(findProject(drop, t.home)).toMatchObject({ project: null, warnings: [] });
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
    expect(lookUpProject("/srv/disk/app", ["/home/me"], user(7, 7), facts).project).toBeNull();
    folders["/srv/disk"]!.device = 1;
    folders["/srv/disk/app"]!.device = 1;
    expect(lookUpProject("/srv/disk/app", ["/home/me"], user(7, 7), facts).project?.root).toBe("/srv");
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
      expect(findProject(join(disk, "app"), t.home)).toMatchObject({ project: null, warnings: [] });
    } finally {
      execFileSync("umount", [disk]);
    }
  });
});

describe("the one walk: bosun project, git root, and the project root of sessions and instructions", () => {
  const walk = (cwd: string, folders: Record<string, Partial<FolderFacts>>) =>
    lookUpProject(cwd, ["/home/me"], user(7, 7), (dir) => (dir in folders ? { device: 1, shared: false, hasGit: false, markers: [], ...folders[dir] } : undefined));
  const marker = (path: string, mode = 0o100644) => ({ path, uid: 7, gid: 7, mode });

  it("goes on past the bosun project to the repository root, which is the project root", () => {
    const folders = { "/": {}, "/srv": {}, "/srv/repo": { hasGit: true }, "/srv/repo/pkg": { markers: [marker("/srv/repo/pkg/.bosun", 0o40755)] }, "/srv/repo/pkg/src": {} };
    expect(walk("/srv/repo/pkg/src", folders)).toEqual({
      project: { root: "/srv/repo/pkg", dotDir: "/srv/repo/pkg/.bosun" },
      gitRoot: "/srv/repo",
      root: "/srv/repo",
      stop: { reason: "git", folder: "/srv/repo" },
      warnings: [],
    });
    // A marker above the repository root is not this project's.
    expect(walk("/srv/repo", { ...folders, "/srv": { markers: [marker("/srv/bosun.json")] } })).toMatchObject({ project: null, root: "/srv/repo" });
  });

  it("without git: the bosun project, else the folder; never the home folder, a folder above it, or a shared one", () => {
    expect(walk("/home/me/notes/a", { "/home/me": { hasGit: true, markers: [marker("/home/me/bosun.json")] }, "/home/me/notes": {}, "/home/me/notes/a": {} })).toEqual({
      project: null,
      gitRoot: null,
      root: "/home/me/notes/a",
      stop: { reason: "home", folder: "/home/me" },
      warnings: [],
    });
    expect(walk("/home/me", { "/home/me": { hasGit: true } })).toMatchObject({ gitRoot: null, root: null, stop: { reason: "home", folder: "/home/me" } });
    expect(walk("/", { "/": { hasGit: true } })).toMatchObject({ root: null, stop: { reason: "home", folder: "/" } });
    const drop = { "/drop": { shared: true, hasGit: true, markers: [marker("/drop/bosun.json")] }, "/drop/app": { markers: [marker("/drop/app/.bosun", 0o40755)] }, "/drop/app/src": {} };
    expect(walk("/drop/app/src", drop)).toMatchObject({ project: { root: "/drop/app" }, gitRoot: null, root: "/drop/app", stop: { reason: "shared", folder: "/drop" } });
    expect(walk("/drop", drop)).toMatchObject({ project: null, root: null, stop: { reason: "shared", folder: "/drop" } });
    expect(walk("/srv/disk/app", { "/srv": { hasGit: true }, "/srv/disk": { device: 2 }, "/srv/disk/app": { device: 2 } })).toMatchObject({ gitRoot: null, root: "/srv/disk/app", stop: { reason: "device", folder: "/srv" } });
    expect(walk("/gone/app", { "/gone/app": {} })).toMatchObject({ root: "/gone/app", stop: { reason: "unreadable", folder: "/gone" } });
  });

  it("keeps the repository root as the project root when the bosun project's config is not used", () => {
    const folders = { "/srv": {}, "/srv/repo": { hasGit: true }, "/srv/repo/pkg": { markers: [marker("/srv/repo/pkg/bosun.json", 0o100666)] } };
    const lookup = walk("/srv/repo/pkg", folders);
    expect(lookup).toMatchObject({ project: null, gitRoot: "/srv/repo", root: "/srv/repo" });
    expect(lookup.warnings.map((w) => w.file)).toEqual(["/srv/repo/pkg/bosun.json"]);
  });

  it("stops at a home folder reached through a symlink", () => {
    const t = makeTempHome();
    const real = join(t.root, "real-home");
    mkdirSync(join(real, ".git"), { recursive: true });
    mkdirSync(join(real, "notes"));
    symlinkSync(real, join(t.root, "linked-home"));
    expect(findProject(join(real, "notes"), join(t.root, "linked-home"))).toMatchObject({ gitRoot: null, root: join(real, "notes"), stop: { reason: "home", folder: real } });
  });
});

describe("a project config only the user's group can write", () => {
  it("is the user's when the group is theirs alone (root's group 0 in this system's /etc/group), refused when others are in it", () => {
    const t = makeTempHome();
    const file = t.write("home/app/bosun.json", "{}");
    chmodSync(file, 0o664);
    expect(statSync(file).gid).toBe(process.getgid!());
    expect(findProject(join(t.home, "app"), t.home, currentFileUser()).project?.root).toBe(join(t.home, "app"));

    const accounts = (passwd: string, group: string) => ({ passwd: t.write("etc/passwd", passwd), group: t.write("etc/group", group) });
    const root = "root:x:0:0:root:/root:/bin/bash\n";
    const refused = [expect.objectContaining({ file, message: "project config not used: it is writable by your group 0, which is not yours alone (mode 0664); chmod go-w it if you trust it" })];
    // Another member listed, another user with it as primary group, a name not the user's.
    for (const [passwd, group] of [
      [root, "root:x:0:alice\n"],
      [root + "alice:x:1000:0::/home/alice:/bin/sh\n", "root:x:0:\n"],
      [root, "wheel:x:0:\n"],
    ] as const) {
      expect(findProject(join(t.home, "app"), t.home, currentFileUser(accounts(passwd, group)))).toMatchObject({ project: null, warnings: refused });
    }
    expect(findProject(join(t.home, "app"), t.home, currentFileUser(accounts(root, "root:x:0:root\n"))).project?.root).toBe(join(t.home, "app"));
  });
});
