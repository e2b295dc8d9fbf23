import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { asFolderError, FolderError, inspectFolder } from "../../../src/kernel/fs/folder-error.js";
import { ensurePrivateDir, ensurePrivateDirs } from "../../../src/kernel/fs/private-dir.js";
import { openRegularFileForWriting, readFileStart, readRegularFile, UnusableFileError, type RegularFileFs } from "../../../src/kernel/fs/regular-file.js";
import { makeFifo, makeTempHome } from "../../fixtures/temp-home.js";

describe("readRegularFile and readFileStart", () => {
  it("read regular files (through a symlink too), bounded, and refuse FIFOs, folders and oversized files", () => {
    const t = makeTempHome();
    const file = t.write("a.txt", "hello");
    symlinkSync(file, join(t.root, "link.txt"));
    expect(readRegularFile(join(t.root, "link.txt"), 5).toString()).toBe("hello");
    expect(readFileStart(file, 3).data.toString()).toBe("hel");
    expect(() => readRegularFile(file, 4)).toThrow(new UnusableFileError(file, "is larger than 4 bytes", "too-large"));
    expect(() => readRegularFile(file, 4)).toThrow(`${file} is larger than 4 bytes: move it away`);
    const fifo = join(t.root, "pipe");
    makeFifo(fifo);
    expect(() => readRegularFile(fifo, 10)).toThrow(`${fifo} is a FIFO (named pipe), not a regular file: move it away`);
    expect(() => readFileStart(fifo, 10)).toThrow(UnusableFileError);
    expect(() => readRegularFile(t.root, 10)).toThrow(`${t.root} is a folder, not a regular file: move it away`);
    // Missing stays the usual error, for callers that treat it as "absent".
    expect(() => readRegularFile(join(t.root, "none"), 10)).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("a socket where a file should be", () => {
  it("is named a socket by the readers and the writer (open() says ENXIO, as for a FIFO nobody reads)", async () => {
    const t = makeTempHome();
    const socket = join(t.root, "agent.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const refused = `${socket} is a socket, not a regular file: move it away`;
      expect(() => readRegularFile(socket, 10)).toThrow(refused);
      expect(() => readFileStart(socket, 10)).toThrow(refused);
      expect(() => openRegularFileForWriting(socket)).toThrow(refused);
      expect(() => openRegularFileForWriting(socket, { append: true })).toThrow(expect.objectContaining({ kind: "socket", reason: "not-regular" }));
      // Through a symlink: the readers follow it to the socket.
      symlinkSync(socket, join(t.root, "link.sock"));
      expect(() => readRegularFile(join(t.root, "link.sock"), 10)).toThrow(`${join(t.root, "link.sock")} is a socket, not a regular file: move it away`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the readers' file-system calls", () => {
  it("go through the fs passed in (the installer's, for fault injection), and refuse a symlink when asked not to follow one", () => {
    const t = makeTempHome();
    const file = t.write("a.txt", "hello");
    const calls: string[] = [];
    const fs: RegularFileFs = {
      openSync: (...args: Parameters<typeof openSync>) => (calls.push("open"), openSync(...args)),
      fstatSync: ((fd: number) => (calls.push("fstat"), fstatSync(fd))) as RegularFileFs["fstatSync"],
      readSync: ((...args: Parameters<typeof readSync>) => (calls.push("read"), readSync(...args))) as RegularFileFs["readSync"],
      closeSync: (fd: number) => (calls.push("close"), closeSync(fd)),
      statSync,
      lstatSync,
    };
    expect(readRegularFile(file, 10, { fs }).toString()).toBe("hello");
    expect(calls).toEqual(["open", "fstat", "read", "read", "close"]);
    const failing: RegularFileFs = { ...fs, readSync: () => { throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" }); } };
    expect(() => readRegularFile(file, 10, { fs: failing })).toThrow(expect.objectContaining({ code: "EIO" }));
    symlinkSync(file, join(t.root, "link.txt"));
    expect(() => readRegularFile(join(t.root, "link.txt"), 10, { followSymlinks: false })).toThrow(`${join(t.root, "link.txt")} is a symlink, not a regular file: move it away`);
  });
});

describe("openRegularFileForWriting", () => {
  it("creates 0600, empties or appends, and refuses a FIFO, a symlink or a folder in the file's place", () => {
    const t = makeTempHome();
    const file = join(t.root, "out.txt");
    for (const [options, text] of [[{}, "one"], [{ append: true }, "two"], [{}, "three"]] as const) {
      const fd = openRegularFileForWriting(file, options);
      writeSync(fd, text);
      closeSync(fd);
    }
    expect(readFileSync(file, "utf8")).toBe("three");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const fifo = join(t.root, "pipe");
    makeFifo(fifo);
    expect(() => openRegularFileForWriting(fifo)).toThrow(`${fifo} is a FIFO (named pipe), not a regular file: move it away`);
    symlinkSync(file, join(t.root, "link"));
    expect(() => openRegularFileForWriting(join(t.root, "link"))).toThrow("is a symlink, not a regular file");
    expect(() => openRegularFileForWriting(t.root)).toThrow(`${t.root} is a folder, not a regular file: move it away`);
    expect(() => openRegularFileForWriting(join(file, "below"))).toThrow(new FolderError(file, "file"));
  });
});

describe("bosun's folders", () => {
  it("ensurePrivateDirs makes the root and everything below it 0700, and refuses a file in the way", () => {
    const t = makeTempHome();
    const root = join(t.root, "x", "bosun");
    expect(ensurePrivateDirs(root, join("a", "b"))).toBe(join(root, "a", "b"));
    expect([root, join(root, "a"), join(root, "a", "b")].map((dir) => statSync(dir).mode & 0o777)).toEqual([0o700, 0o700, 0o700]);
    const file = t.write("file", "");
    expect(() => ensurePrivateDir(file)).toThrow(new FolderError(file, "file"));
    expect(() => ensurePrivateDir(join(file, "deeper", "bosun"))).toThrow(new FolderError(file, "file"));
    symlinkSync(join(t.root, "nowhere"), join(t.root, "dangling"));
    expect(() => ensurePrivateDir(join(t.root, "dangling"))).toThrow(new FolderError(join(t.root, "dangling"), "not-a-folder"));
    // A symlink to a folder is a folder.
    symlinkSync(root, join(t.root, "linked"));
    expect(() => ensurePrivateDir(join(t.root, "linked"))).not.toThrow();
  });

  it("asFolderError turns only folder problems into FolderError, and inspectFolder finds them by reading", () => {
    const t = makeTempHome();
    const file = t.write("file", "");
    const errno = (code: string, syscall: string, path: string) => Object.assign(new Error(code), { code, syscall, path });
    // A file that exists (open with O_EXCL) says nothing about the folder.
    const exists = errno("EEXIST", "open", file);
    expect(asFolderError(exists, t.root)).toBe(exists);
    expect(asFolderError(errno("EROFS", "open", join(t.root, "new.txt")), t.root)).toEqual(new FolderError(t.root, "read-only"));
    expect(asFolderError(errno("ENOSPC", "write", join(t.root, "new.txt")), t.root)).toEqual(new FolderError(t.root, "full"));
    expect(asFolderError(errno("EACCES", "mkdir", join(t.root, "a", "b")), join(t.root, "a", "b"))).toEqual(new FolderError(t.root, "not-writable"));
    const other = errno("EMFILE", "open", file);
    expect(asFolderError(other, t.root)).toBe(other);

    expect(inspectFolder(join(t.root, "missing", "bosun"))).toBeNull();
    expect(inspectFolder(join(file, "bosun"))).toEqual(new FolderError(file, "file"));
    mkdirSync(join(t.root, "dir"));
    writeFileSync(join(t.root, "dir", "bosun"), "");
    expect(inspectFolder(join(t.root, "dir", "bosun"))?.message).toBe(`${join(t.root, "dir", "bosun")} is a file, not a folder: move it away`);
    expect(new FolderError(file, "file").withVariables(["XDG_DATA_HOME", "XDG_STATE_HOME", "BOSUN_HOME"]).message).toBe(
      `${file} is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME, XDG_STATE_HOME or BOSUN_HOME`,
    );
  });
});
