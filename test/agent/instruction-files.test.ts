import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeInstructionText, findInstructionFiles, loadInstructions } from "../../src/agent/instruction-files.js";
import { currentFileUser } from "../../src/kernel/fs/file-trust.js";
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

const found = (workdir: string, configDir: string, maxBytes = 32_768) => {
  const result = findInstructionFiles({ workdir, configDir, home: join(dirname(configDir), "home") }, maxBytes);
  return { ...result, files: result.sources.map((s) => s.file), texts: result.sources.map((s) => s.text) };
};

describe("finding instruction files", () => {
  it("reads the user's file, then from the git root down to the working folder, AGENTS.md before CLAUDE.md, nothing above the repository", () => {
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

    const result = found(workdir, t.config);
    expect(result.root).toBe(t.repo);
    expect(result.files).toEqual([user, top, pkg, web]);
    expect(result.sources.map((s) => s.scope)).toEqual(["user", "project", "project", "project"]);
    expect(result.texts).toEqual(["my own rules\n", "repo rules\n", "pkg rules for claude\n", "web rules\n"]);
    expect(result.skipped).toEqual([]);

    const loaded = loadInstructions({ workdir, configDir: t.config, home: join(t.root, "home") }, { fileBytes: 1000, totalBytes: 1000 });
    expect(loaded.files.map((f) => [f.file, f.bytes, f.truncated])).toEqual([
      [user, 13, false],
      [top, 11, false],
      [pkg, 21, false],
      [web, 10, false],
    ]);
    expect(loaded.prompt.indexOf("my own rules")).toBeLessThan(loaded.prompt.indexOf("repo rules"));
    expect(loaded.prompt.indexOf("pkg rules")).toBeLessThan(loaded.prompt.indexOf("web rules"));
  });

  it("takes a .git file (a worktree) as the repository root too", () => {
    const t = tree();
    t.write("outside/repo/.git", "gitdir: /elsewhere/.git/worktrees/repo\n");
    const top = t.write("outside/repo/AGENTS.md", "worktree rules\n");
    expect((found(t.folder("outside/repo/a/b"), t.config)).files).toEqual([top]);
  });

  it("without git: from the bosun project root when the folder is inside one, else the working folder alone", () => {
    const t = tree();
    t.write("outside/AGENTS.md", "a folder above: never read below it\n");
    const top = t.write("outside/repo/AGENTS.md", "project rules\n");
    const here = t.write("outside/repo/sub/AGENTS.md", "sub rules\n");
    const workdir = join(t.repo, "sub");
    expect(found(workdir, t.config)).toMatchObject({ root: workdir, files: [here] });
    t.write("outside/repo/bosun.json", "{}");
    expect(found(workdir, t.config)).toMatchObject({ root: t.repo, files: [top, here] });
  });

  it("passes over a named pipe, a folder, a broken symlink and one leading out of the project, without hanging, and falls back to CLAUDE.md", () => {
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

    const result = found(workdir, t.config);
    expect(result.files).toEqual([rootClaude, join(workdir, "AGENTS.md")]);
    expect(result.texts).toEqual(["root claude rules\n", "shared rules\n"]);
    expect(result.skipped).toEqual([
      { file: join(t.config, "AGENTS.md"), reason: "is a symlink that leads nowhere" },
      { file: join(t.repo, "AGENTS.md"), reason: "is a FIFO (named pipe), not a regular file" },
      { file: join(t.repo, "a", "AGENTS.md"), reason: "is a folder, not a regular file" },
      { file: join(t.repo, "a", "CLAUDE.md"), reason: `is a symlink to ${secret}, outside the project` },
    ]);
  });

  it("reads only files that nobody but the user could have written: a group file only when the group is the user's own alone", () => {
    const t = tree();
    t.folder("outside/repo/.git");
    const groupWritable = t.write("outside/repo/AGENTS.md", "group rules\n");
    chmodSync(groupWritable, 0o664);
    const accounts = (group: string) => ({ passwd: t.write("accounts/passwd", "root:x:0:0:root:/root:/bin/sh\n"), group: t.write("accounts/group", group) });
    const search = (group: string) => findInstructionFiles({ workdir: t.repo, configDir: t.config, home: join(t.root, "home"), user: currentFileUser(accounts(group)) }, 1000);
    expect(search("root:x:0:\n").sources.map((s) => s.text)).toEqual(["group rules\n"]);
    expect(search("root:x:0:alice\n")).toMatchObject({
      sources: [],
      skipped: [{ file: groupWritable, reason: "is writable by your group 0, which is not yours alone (mode 0664); chmod go-w it if you trust it" }],
    });
    // The user's own file too: it goes into every project's prompt.
    chmodSync(t.write("config/AGENTS.md", "mine\n"), 0o646);
    expect(search("root:x:0:\n").skipped).toEqual([{ file: join(t.config, "AGENTS.md"), reason: "is writable by others (mode 0646); chmod go-w it if you trust it" }]);
  });

  it("follows the user's own file's symlink anywhere, and reads a file reached twice only once", () => {
    const t = tree();
    t.folder("outside/repo/.git");
    const dotfile = t.write("dotfiles/AGENTS.md", "from my dotfiles\n");
    symlinkSync(dotfile, join(t.config, "AGENTS.md"));
    const top = t.write("outside/repo/AGENTS.md", "repo rules\n");
    mkdirSync(join(t.repo, "pkg"));
    symlinkSync("../AGENTS.md", join(t.repo, "pkg", "AGENTS.md"));
    t.write("outside/repo/pkg/CLAUDE.md", "not read: the folder has an AGENTS.md\n");
    const result = found(join(t.repo, "pkg"), t.config);
    expect(result.files).toEqual([join(t.config, "AGENTS.md"), top]);
    expect(result.texts).toEqual(["from my dotfiles\n", "repo rules\n"]);
  });

  it("reads text in any encoding an editor writes, passes over binary files, and reads no more than the cap", () => {
    const t = tree();
    t.folder("outside/repo/.git");
    t.write("outside/repo/AGENTS.md", Buffer.from("Caf\xe9: use tabs\n", "latin1"));
    t.write("outside/repo/a/AGENTS.md", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("UTF-16 rules ✓\n", "utf16le")]));
    t.write("outside/repo/a/b/AGENTS.md", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("BOM rules ✓\n")]));
    t.write("outside/repo/a/b/c/AGENTS.md", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    // A sparse 5 GiB file: reading it whole would fail (larger than any Buffer) or take minutes.
    const huge = t.write("outside/repo/a/b/c/d/AGENTS.md", "first line\nsecond line\nthird line\nfourth line\n");
    truncateSync(huge, 5 * 1024 ** 3);
    const result = found(t.folder("outside/repo/a/b/c/d"), t.config, 40);
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
