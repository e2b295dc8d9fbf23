import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeInstructionText, findInstructionFiles, loadInstructions, projectRoot } from "../../src/agent/instruction-files.js";
import { makeFifo } from "../fixtures/temp-home.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp tree: `outside/` (above the project), `config/` (bosun's config folder) and `outside/repo/`. */
function tree() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-instr-")));
  made.push(root);
  const repo = join(root, "outside", "repo");
  const config = join(root, "config");
  mkdirSync(repo, { recursive: true });
  mkdirSync(config);
  const write = (path: string, content: string | Buffer) => {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };
  const folder = (path: string) => {
    mkdirSync(join(root, path), { recursive: true });
    return join(root, path);
  };
  return { root, repo, config, write, folder };
}

const found = async (workdir: string, configDir: string, bosunProjectRoot: string | null = null, maxBytes = 32_768) => {
  const result = await findInstructionFiles({ workdir, configDir, bosunProjectRoot }, maxBytes);
  return { ...result, files: result.sources.map((s) => s.file), texts: result.sources.map((s) => s.text) };
};

describe("finding instruction files", () => {
  it("reads the user's file, then from the git root down to the working folder, AGENTS.md before CLAUDE.md, nothing above the repository", async () => {
    const t = tree();
    t.folder("outside/repo/.git");
    t.write("outside/AGENTS.md", "above the repository\n");
    const user = t.write("config/AGENTS.md", "my own rules\n");
    const top = t.write("outside/repo/AGENTS.md", "repo rules\n");
    t.write("outside/repo/CLAUDE.md", "claude rules at the root, shadowed\n");
    const pkg = t.write("outside/repo/pkg/CLAUDE.md", "pkg rules for claude\n");
    const web = t.write("outside/repo/pkg/web/AGENTS.md", "web rules\n");
    t.write("outside/repo/pkg/web/CLAUDE.md", "shadowed\n");
    t.write("outside/repo/pkg/web/src/other/AGENTS.md", "a sibling folder: not on the way\n");
    const workdir = t.folder("outside/repo/pkg/web/src");

    const result = await found(workdir, t.config);
    expect(result.root).toBe(t.repo);
    expect(result.files).toEqual([user, top, pkg, web]);
    expect(result.sources.map((s) => s.scope)).toEqual(["user", "project", "project", "project"]);
    expect(result.texts).toEqual(["my own rules\n", "repo rules\n", "pkg rules for claude\n", "web rules\n"]);
    expect(result.skipped).toEqual([]);

    const loaded = await loadInstructions({ workdir, configDir: t.config, bosunProjectRoot: null }, { fileBytes: 1000, totalBytes: 1000 });
    expect(loaded.files.map((f) => [f.file, f.bytes, f.truncated])).toEqual([
      [user, 13, false],
      [top, 11, false],
      [pkg, 21, false],
      [web, 10, false],
    ]);
    expect(loaded.prompt.indexOf("my own rules")).toBeLessThan(loaded.prompt.indexOf("repo rules"));
    expect(loaded.prompt.indexOf("pkg rules")).toBeLessThan(loaded.prompt.indexOf("web rules"));
  });

  it("takes a .git file (a worktree) as the repository root too", async () => {
    const t = tree();
    t.write("outside/repo/.git", "gitdir: /elsewhere/.git/worktrees/repo\n");
    const top = t.write("outside/repo/AGENTS.md", "worktree rules\n");
    expect((await found(t.folder("outside/repo/a/b"), t.config)).files).toEqual([top]);
  });

  it("without git: from the bosun project root when the folder is inside it, else the working folder alone", async () => {
    const t = tree();
    t.write("outside/AGENTS.md", "a shared folder's file: never read below it\n");
    const top = t.write("outside/repo/AGENTS.md", "project rules\n");
    const here = t.write("outside/repo/sub/AGENTS.md", "sub rules\n");
    const workdir = join(t.repo, "sub");
    expect(await projectRoot(workdir, t.repo)).toBe(t.repo);
    expect((await found(workdir, t.config, t.repo)).files).toEqual([top, here]);
    expect((await found(workdir, t.config)).files).toEqual([here]);
    // A bosun project root that does not hold the working folder is not used.
    expect((await found(workdir, t.config, join(t.root, "config"))).files).toEqual([here]);
  });

  it("passes over a named pipe, a folder, a broken symlink and one leading out of the project, without hanging, and falls back to CLAUDE.md", async () => {
    const t = tree();
    t.folder("outside/repo/.git");
    makeFifo(join(t.repo, "AGENTS.md"));
    const rootClaude = t.write("outside/repo/CLAUDE.md", "root claude rules\n");
    t.folder("outside/repo/a/AGENTS.md");
    const secret = t.write("outside/secret.txt", "not for the model\n");
    symlinkSync(secret, join(t.repo, "a", "CLAUDE.md"));
    t.write("outside/repo/a/b/shared.md", "shared rules\n");
    symlinkSync("shared.md", join(t.repo, "a", "b", "AGENTS.md"));
    symlinkSync(join(t.root, "no-such-file.md"), join(t.config, "AGENTS.md"));
    const workdir = t.folder("outside/repo/a/b");

    const result = await found(workdir, t.config);
    expect(result.files).toEqual([rootClaude, join(workdir, "AGENTS.md")]);
    expect(result.texts).toEqual(["root claude rules\n", "shared rules\n"]);
    expect(result.skipped).toEqual([
      { file: join(t.config, "AGENTS.md"), reason: "is a symlink that leads nowhere" },
      { file: join(t.repo, "AGENTS.md"), reason: "is a named pipe, not a regular file" },
      { file: join(t.repo, "a", "AGENTS.md"), reason: "is a folder, not a regular file" },
      { file: join(t.repo, "a", "CLAUDE.md"), reason: `is a symlink to ${secret}, outside the project` },
    ]);
  });

  it("follows the user's own file's symlink anywhere, and reads a file reached twice only once", async () => {
    const t = tree();
    t.folder("outside/repo/.git");
    const dotfile = t.write("dotfiles/AGENTS.md", "from my dotfiles\n");
    symlinkSync(dotfile, join(t.config, "AGENTS.md"));
    const top = t.write("outside/repo/AGENTS.md", "repo rules\n");
    mkdirSync(join(t.repo, "pkg"));
    symlinkSync("../AGENTS.md", join(t.repo, "pkg", "AGENTS.md"));
    t.write("outside/repo/pkg/CLAUDE.md", "not read: the folder has an AGENTS.md\n");
    const result = await found(join(t.repo, "pkg"), t.config);
    expect(result.files).toEqual([join(t.config, "AGENTS.md"), top]);
    expect(result.texts).toEqual(["from my dotfiles\n", "repo rules\n"]);
  });

  it("reads text in any encoding an editor writes, passes over binary files, and reads no more than the cap", async () => {
    const t = tree();
    t.folder("outside/repo/.git");
    t.write("outside/repo/AGENTS.md", Buffer.from("Caf\xe9: use tabs\n", "latin1"));
    t.write("outside/repo/a/AGENTS.md", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("UTF-16 rules ✓\n", "utf16le")]));
    t.write("outside/repo/a/b/AGENTS.md", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("BOM rules ✓\n")]));
    t.write("outside/repo/a/b/c/AGENTS.md", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    // A sparse 5 GiB file: reading it whole would fail (larger than any Buffer) or take minutes.
    const huge = t.write("outside/repo/a/b/c/d/AGENTS.md", "first line\nsecond line\nthird line\nfourth line\n");
    truncateSync(huge, 5 * 1024 ** 3);
    const result = await found(t.folder("outside/repo/a/b/c/d"), t.config, null, 40);
    expect(result.texts).toEqual(["Café: use tabs\n", "UTF-16 rules ✓\n", "BOM rules ✓\n", "first line\nsecond line\nthird line\nfourth"]);
    expect(result.skipped).toEqual([{ file: join(t.repo, "a", "b", "c", "AGENTS.md"), reason: "looks binary (it has NUL bytes), not like text" }]);
    const big = result.sources.at(-1)!;
    expect(big).toMatchObject({ bytes: 5 * 1024 ** 3, complete: false });
  });
});

describe("decoding instruction text", () => {
  it("never misreads a character cut off at the end of what was read", () => {
    const bytes = Buffer.from("ok ✓");
    expect(decodeInstructionText(bytes.subarray(0, bytes.length - 1), false)).toBe("ok ");
    expect(decodeInstructionText(Buffer.from("plain"))).toBe("plain");
    expect(decodeInstructionText(Buffer.from([0xfe, 0xff, 0, 0x41, 0, 0x42]))).toBe("AB");
  });
});
