// More than a thousand hostile action paths (absolute, .., encoded, backslashes, NUL, long,
// unicode, symlink escapes): whatever a migration returns, nothing outside the root is written,
// read or deleted.
import * as nodeFs from "node:fs";
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import type { InstallFs } from "../../src/install/apply/install-fs.js";
import type { MigrationAction } from "../../src/install/records/migration-record.js";
import { normalizeRelPath, UnsafePathError } from "../../src/install/plan/safe-path.js";
import { record, runEngine, seedRoot } from "../fixtures/engine.js";
import { runCli } from "../fixtures/cli.js";
import { treeState } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { seededRandom } from "../fixtures/random.js";

const PATH_ARGS: Record<string, number[]> = {
  lstatSync: [0],
  statSync: [0],
  readFileSync: [0],
  readdirSync: [0],
  readlinkSync: [0],
  realpathSync: [0],
  openSync: [0],
  renameSync: [0, 1],
  linkSync: [0, 1],
  symlinkSync: [1],
  unlinkSync: [0],
  mkdirSync: [0],
  rmdirSync: [0],
  copyFileSync: [0, 1],
  chmodSync: [0],
};

/** node:fs that records every path it is asked about. */
function recordingFs(paths: string[]): InstallFs {
  const fs: Record<string, unknown> = { ...nodeFs };
  for (const [name, positions] of Object.entries(PATH_ARGS)) {
    const real = (nodeFs as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    fs[name] = (...args: unknown[]) => {
      for (const position of positions) if (typeof args[position] === "string") paths.push(args[position] as string);
      return real(...args);
    };
  }
  return fs as unknown as InstallFs;
}

const SEGMENTS = [
  "..",
  ".",
  "",
  "...",
  "%2e%2e",
  "%2e%2e%2f",
  "..%2f",
  "%252e%252e",
  "\u2024\u2024",
  "\uff0e\uff0e",
  "..\\..",
  "a\\..\\..",
  "C:",
  "c:\\windows",
  "\\\\server\\share",
  "a\u0000b",
  "\u0007bell",
  "line\nbreak",
  "\u202eevil",
  "ü",
  "日本",
  "🙂",
  "x".repeat(300),
  "out",
  "out/secret.txt",
  "linkfile",
  "loop",
  "hooks",
  "skills",
  "bosun-manifest.json",
  "bosun-journal",
  " ",
  "~",
  "$HOME",
  "safe",
];

function hostilePaths(count: number): string[] {
  const next = seededRandom(42);
  const fixed = ["/etc/passwd", "/", "//server/share/x", "C:\\Windows\\x", "c:/x", "\\\\?\\C:\\x", "../outside.txt", "a/../../outside.txt", "hooks/../../outside.txt", "out/secret.txt", "out/sub/new.txt", "linkfile", "linkfile/x", "loop/x", "x".repeat(2000), ".", "..", "", "a//b", "a/", "/a"];
  const paths = [...fixed];
  while (paths.length < count) {
    const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => SEGMENTS[Math.floor(next() * SEGMENTS.length)]!);
    const joiner = next() < 0.2 ? "\\" : "/";
    paths.push((next() < 0.1 ? "/" : "") + parts.join(joiner));
  }
  return paths;
}

function actionsFor(path: string, variant: number): MigrationAction[] {
  const evidence = "hostile test";
  switch (variant % 5) {
    case 0:
      return [{ type: "remove-managed", relPath: path, ownershipEvidence: evidence }];
    case 1:
      return [{ type: "backup-and-remove", relPath: path, ownershipEvidence: evidence }];
    case 2:
      return [{ type: "move-managed", relPath: "safe/file.txt", toRelPath: path, ownershipEvidence: evidence }];
    case 3:
      return [{ type: "remove-empty-dir", relPath: path, ownershipEvidence: evidence }];
    default:
      return [{ type: "rewrite-json", relPath: path, text: '{"pwned": true}\n', contract: "claude.hooks", ownershipEvidence: evidence }];
  }
}

describe("hostile action paths", () => {
  it("relative POSIX paths only: every hostile form is refused or stays inside", () => {
    for (const path of hostilePaths(1000)) {
      let normalized: string;
      try {
        normalized = normalizeRelPath(path, "test");
      } catch (error) {
        expect(error).toBeInstanceOf(UnsafePathError);
        continue;
      }
      expect(normalized.startsWith("/")).toBe(false);
      expect(normalized.split("/")).not.toContain("..");
      expect(normalized).not.toMatch(/[\u0000-\u001f\\]/);
    }
  });

  it("over 1,000 generated paths through real installs: nothing outside the root is read, written or deleted", async () => {
    const t = makeTempHome();
    const outside = join(t.root, "outside");
    t.write(join(outside, "secret.txt"), "secret\n");
    t.write(join(outside, "sub/keep.txt"), "keep\n");
    mkdirSync(join(outside, "empty"));
    t.write(join(t.root, "outside.txt"), "outside file\n");
    const root = seedRoot(t, { managed: { "safe/file.txt": "safe\n" }, files: { "hooks/mine.js": "mine\n" } });
    symlinkSync(outside, join(root.dir, "out"));
    symlinkSync(join(outside, "secret.txt"), join(root.dir, "linkfile"));
    symlinkSync("loop", join(root.dir, "loop"));
    const outsideBefore = treeState(outside);
    const realRoot = realpathSync(root.dir);
    const touched: string[] = [];
    const fs = recordingFs(touched);

    const paths = hostilePaths(1000);
    let variant = 0;
    let refused = 0;
    for (const path of paths) {
      for (let i = 0; i < 2; i++) {
        try {
          await runEngine(root, { records: [record(`hostile-${variant}`, actionsFor(path, variant))], fs, resolve: "remove", lockTimeoutMs: 0 });
        } catch {
          refused++;
        }
        variant++;
      }
    }
    expect(variant).toBeGreaterThanOrEqual(2000);
    expect(refused).toBeGreaterThan(1000);
    expect(treeState(outside)).toEqual(outsideBefore);
    expect(nodeFs.readFileSync(join(t.root, "outside.txt"), "utf8")).toBe("outside file\n");
    // Every path the installer touched is inside the root, and never below a symlink that leaves it.
    for (const path of new Set(touched)) {
      if (path === root.dir || path.startsWith(t.paths.state)) continue;
      expect(path.startsWith(root.dir + sep), path).toBe(true);
      const parent = realParent(path);
      expect(parent === realRoot || parent.startsWith(realRoot + sep), `${path} resolves to ${parent}`).toBe(true);
    }
  }, 120_000);
});

describe("an interrupted run's journal in a cloned repository", () => {
  const RUN = "2026-12-01T00-00-00-000Z-0badf00d";
  const begin = { op: "begin", runId: RUN, startedAt: "2026-12-01T00:00:00.000Z", pid: 1, host: "h", runtime: "claude", scope: "local", pack: "bosun", bosunVersion: "0.1.0" };
  // One undo step of each kind whose path goes through skills/link, a symlink to a folder out of the
  // project (with what it would do there): every one is refused, and nothing out there changes.
  const steps: [string, Record<string, unknown>][] = [
    ["create (would delete precious.txt)", { op: "create", path: "skills/link/precious.txt" }],
    ["intent (would delete precious.txt and empty/)", { op: "intent", dirs: ["skills/link/empty"], files: ["skills/link/precious.txt"] }],
    ["mkdir (would remove empty/)", { op: "mkdir", path: "skills/link/empty" }],
    ["rmdir (would make new/)", { op: "rmdir", path: "skills/link/new", mode: 0o755 }],
    ["stash (would overwrite precious.txt)", { op: "stash", path: "skills/link/precious.txt", n: 1, how: "rename" }],
    ["move back from (would take precious.txt)", { op: "move", from: "commands/mine.md", to: "skills/link/precious.txt" }],
    ["move back to (would write moved.md)", { op: "move", from: "skills/link/moved.md", to: "commands/mine.md" }],
  ];

  it.each(steps)("%s: refused with the path named, the journal kept, nothing outside the project changed", async (_name, step) => {
    const t = makeTempHome();
    const outside = join(t.root, "elsewhere");
    t.write(join(outside, "precious.txt"), "precious\n");
    mkdirSync(join(outside, "empty"));
    const project = join(t.home, "clone");
    const claude = join(project, ".claude");
    mkdirSync(join(project, ".git"), { recursive: true });
    t.write(join(claude, "commands/mine.md"), "mine\n");
    mkdirSync(join(claude, "skills"));
    symlinkSync(outside, join(claude, "skills/link"));
    t.write(join(claude, `bosun-journal/${RUN}/1`), "planted\n");
    const journal = join(claude, `bosun-journal/${RUN}.jsonl`);
    writeFileSync(journal, [begin, step].map((line) => JSON.stringify(line)).join("\n") + "\n");
    const before = treeState(outside);

    const result = await runCli(["install", "--runtime", "claude", "--scope", "local", "--yes"], t.env, project);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`could not be restored: ${claude}/skills/link/\\S+ \\(skills/link is a symlink to a folder outside the root \\(${realpathSync(outside)}\\)\\).*; the journal is kept`));
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(treeState(outside)).toEqual(before);
    expect(existsSync(journal)).toBe(true);
    expect(nodeFs.readFileSync(join(claude, "commands/mine.md"), "utf8")).toBe("mine\n");
  });
});

/** The real path of the deepest existing folder holding `path` (the path itself is not followed). */
function realParent(path: string): string {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      return realpathSync(dir);
    } catch {
      if (dirname(dir) === dir) return dir;
    }
  }
}
