// bosun.lock with real git and the real bin: two branches that add different runtimes or packs
// merge without a conflict (the lock is one record per line, with `merge=union` from the
// .gitattributes bosun adds), and a CI-like run: a committed lock, a fresh clone and HOME,
// `install --frozen --yes`, then `install --check` (0, then 1 after an edit, listing it).
import { cpSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLock } from "../../src/install/lock/lock-file.js";
import { runBin } from "../fixtures/cli.js";
import { packDir } from "../fixtures/install.js";
import { git, lockLines } from "../fixtures/lock-project.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

function bosun(t: TempHome, cwd: string, ...argv: string[]) {
  const result = runBin(argv, t.env, cwd);
  if (result.code !== 0) throw new Error(`bosun ${argv.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}

/** A git repository with bosun's own pack in Claude (local), lock committed on main. */
function repository(t: TempHome): string {
  const repo = join(t.root, "repo");
  git(t.root, t.env, "init", "-q", repo);
  bosun(t, repo, "install", "--runtime", "claude", "--scope", "local", "--yes", "--no-verify");
  git(repo, t.env, "add", "bosun.lock", ".gitattributes");
  git(repo, t.env, "commit", "-qm", "lock");
  return repo;
}

/** A second pack (the demo pack under another name), so two branches can each add a pack. */
function otherPack(t: TempHome): string {
  const dir = join(t.root, "other-pack");
  cpSync(packDir("demo-v1"), dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...json, name: "other" }));
  return dir;
}

/** Commits the lock on a new branch from main after `change` ran. */
function branch(t: TempHome, repo: string, name: string, change: () => void): void {
  git(repo, t.env, "checkout", "-q", "-b", name, "main");
  change();
  git(repo, t.env, "commit", "-qam", name);
}

/** Each test runs a dozen bosun and git processes: more than the default 20 s on a busy machine. */
const SLOW = 90_000;

describe("bosun.lock in git", () => {
  it("two branches that add different runtimes, or different packs, merge without a conflict", () => {
    const t = makeTempHome();
    const repo = repository(t);
    branch(t, repo, "add-codex", () => bosun(t, repo, "install", "--runtime", "codex", "--scope", "local", "--yes", "--no-verify"));
    branch(t, repo, "add-gemini", () => bosun(t, repo, "install", "--runtime", "gemini", "--scope", "local", "--yes", "--no-verify"));
    git(repo, t.env, "merge", "-q", "--no-edit", "add-codex");
    const merged = readFileSync(join(repo, "bosun.lock"), "utf8");
    const lock = parseLock(merged, "bosun.lock");
    expect(lock.installs.map((install) => `${install.runtime} ${install.scope}`).sort()).toEqual(["claude local", "codex local", "gemini local"]);

    // Two packs, each added on its own branch (the same place in the sorted file).
    const demo = join(t.root, "demo");
    cpSync(packDir("demo-v1"), demo, { recursive: true });
    const other = otherPack(t);
    branch(t, repo, "add-demo", () => bosun(t, repo, "install", demo, "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"));
    branch(t, repo, "add-other", () => bosun(t, repo, "install", other, "--runtime", "codex", "--scope", "global", "--yes", "--no-verify"));
    git(repo, t.env, "merge", "-q", "--no-edit", "add-demo");
    const both = parseLock(readFileSync(join(repo, "bosun.lock"), "utf8"), "bosun.lock");
    expect(both.packs.map((pack) => pack.name).sort()).toEqual(["bosun", "demo", "other"]);
    expect(both.installs.map((install) => `${install.runtime} ${install.scope} ${install.pack}`).sort()).toEqual(["claude global demo", "claude local bosun", "codex global other"]);
    // bosun writes it back sorted at the next change; the merge result reads the same.
    expect(git(repo, t.env, "status", "--porcelain", "--", "bosun.lock")).toBe("");
  }, SLOW);

  it("without the merge attribute the same two branches conflict (why bosun adds it); two upgrades of one pack leave both lines, which bosun names", () => {
    const t = makeTempHome();
    const repo = repository(t);
    git(repo, t.env, "rm", "-q", ".gitattributes");
    git(repo, t.env, "commit", "-qm", "no attribute");
    branch(t, repo, "add-codex", () => bosun(t, repo, "install", "--runtime", "codex", "--scope", "local", "--yes", "--no-verify"));
    branch(t, repo, "add-gemini", () => bosun(t, repo, "install", "--runtime", "gemini", "--scope", "local", "--yes", "--no-verify"));
    expect(() => git(repo, t.env, "merge", "-q", "--no-edit", "add-codex")).toThrow();
    expect(git(repo, t.env, "diff", "--name-only", "--diff-filter=U")).toBe("bosun.lock\n");
    const conflicted = runBin(["install", "--check"], t.env, repo);
    expect(conflicted.code).toBe(1);
    expect(conflicted.stderr).toMatch(/bosun\.lock:\d+: has a git merge conflict marker; .* or add `bosun\.lock merge=union` to \.gitattributes; nothing was changed/);
    git(repo, t.env, "merge", "--abort");

    // With the attribute, two branches that change the same pack line keep both: bosun says so.
    git(repo, t.env, "checkout", "-q", "main");
    writeFileSync(join(repo, ".gitattributes"), "bosun.lock merge=union\n");
    git(repo, t.env, "add", ".gitattributes");
    git(repo, t.env, "commit", "-qm", "attribute");
    const demo = join(t.root, "demo");
    cpSync(packDir("demo-v1"), demo, { recursive: true });
    bosun(t, repo, "install", demo, "--runtime", "claude", "--scope", "global", "--yes", "--no-verify");
    git(repo, t.env, "commit", "-qam", "demo");
    const pin = (version: string) => () => {
      const lines = lockLines(repo).map((line) => (line.includes(`"pack":"demo","version"`) ? line.replace(`"version":"1.0.0"`, `"version":"${version}"`) : line));
      writeFileSync(join(repo, "bosun.lock"), `${lines.join("\n")}\n`);
    };
    branch(t, repo, "demo-1.1", pin("1.1.0"));
    branch(t, repo, "demo-1.2", pin("1.2.0"));
    git(repo, t.env, "merge", "-q", "--no-edit", "demo-1.1");
    const twice = runBin(["install", "--check"], t.env, repo);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/bosun\.lock:\d+: pack: demo is listed twice \(also line \d+; a merge kept both sides\); keep the one you want/);
  }, SLOW);

  it("CI: a committed lock, a fresh clone and HOME: install --frozen --yes, then --check exits 0; an edited file makes it exit 1, naming the file", () => {
    const dev = makeTempHome();
    const repo = repository(dev);
    bosun(dev, repo, "install", "--runtime", "claude", "--scope", "global", "--yes", "--no-verify");
    git(repo, dev.env, "commit", "-qam", "claude global too");

    const ci = makeTempHome();
    const clone = join(ci.root, "clone");
    git(ci.root, ci.env, "clone", "-q", repo, clone);
    const before = runBin(["install", "--check"], ci.env, clone);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/missing +claude global: pack bosun is not installed/);
    bosun(ci, clone, "install", "--frozen", "--yes");
    expect(git(clone, ci.env, "status", "--porcelain", "--", "bosun.lock", ".gitattributes")).toBe("");
    const clean = bosun(ci, clone, "install", "--check");
    expect(clean.stdout).toMatch(/1 pack, 2 installs {2}matches/);

    writeFileSync(join(clone, ".claude", "commands", "bosun-status.md"), "edited in CI\n");
    unlinkSync(join(ci.home, ".claude", "agents", "bosun-reviewer.md"));
    const drift = runBin(["install", "--check", "--json"], ci.env, clone);
    expect(drift.code).toBe(1);
    expect(JSON.parse(drift.stdout).drift.map((entry: { kind: string; runtime: string; scope: string; path: string }) => `${entry.kind} ${entry.runtime} ${entry.scope} ${entry.path}`)).toEqual([
      "deleted claude global agents/bosun-reviewer.md",
      "edited claude local commands/bosun-status.md",
    ]);
  }, SLOW);
});
