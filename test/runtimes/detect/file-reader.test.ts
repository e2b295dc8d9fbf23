import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { locateBinary } from "../../../src/runtimes/kit/detect/binary.js";
import { CredentialReadError, MAX_CREDENTIAL_BYTES, presentFile, presentText } from "../../../src/runtimes/kit/detect/file-reader.js";
import { nodeFileReader as files } from "../../../src/runtimes/kit/detect/node-file-reader.js";
import { makeDetection } from "../../fixtures/detection.js";
import { makeFifo } from "../../fixtures/temp-home.js";

describe("the file reader", () => {
  it("reads a regular file as UTF-8 and reports what a path is", () => {
    const t = makeDetection();
    const file = t.put("a.json", '{"a":1}');
    expect(files.readText(file, 100)).toBe('{"a":1}');
    chmodSync(file, 0o640);
    expect(files.stat(file)).toEqual({ kind: "file", size: 7, uid: process.getuid!(), mode: 0o100640 });
    expect(files.stat(t.home)).toMatchObject({ kind: "directory" });
    expect(files.stat(join(t.home, "missing"))).toBeUndefined();
    expect(files.stat(join(file, "below-a-file"))).toBeUndefined();
  });

  it("follows a symlink and gives its real path", () => {
    const t = makeDetection();
    const real = t.put("store/real.json", "{}");
    const link = join(t.home, "link.json");
    symlinkSync(real, link);
    expect(files.stat(link)).toMatchObject({ kind: "file", size: 2, realPath: real });
    expect(presentFile(files, link)).toEqual({ shownPath: real });
    expect(files.readText(link, 100)).toBe("{}");
  });

  it("treats a broken symlink and a symlink loop as nothing there", () => {
    const t = makeDetection();
    const broken = join(t.home, "broken.json");
    symlinkSync(join(t.home, "nowhere.json"), broken);
    const loop = join(t.home, "loop.json");
    symlinkSync(loop, loop);
    expect(files.stat(broken)).toBeUndefined();
    expect(files.stat(loop)).toBeUndefined();
    expect(presentText(files, broken)).toBeUndefined();
  });

  it("never opens a FIFO: stat says 'other' and readText refuses at once", () => {
    const t = makeDetection();
    const fifo = join(t.home, "fifo.json");
    makeFifo(fifo);
    expect(files.stat(fifo)).toMatchObject({ kind: "other" });
    expect(presentText(files, fifo)).toBeUndefined();
    expect(() => files.readText(fifo, 100)).toThrow(/is not a regular file/);
  });

  it("refuses a folder, and files that are too large or not UTF-8, with a display-safe reason", () => {
    const t = makeDetection();
    const dir = join(t.home, "dir.json");
    mkdirSync(dir);
    const big = t.put("big.json", "");
    truncateSync(big, 50 * 1024 * 1024);
    const latin = t.put("latin.json", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(presentText(files, dir)).toBeUndefined();
    expect(() => files.readText(dir, 100)).toThrow(CredentialReadError);
    expect(() => presentText(files, big)).toThrow(`cannot read ${big}: is larger than 1 MiB`);
    expect(() => presentText(files, latin)).toThrow(`cannot read ${latin}: is not UTF-8 text`);
  });

  it("reads at most the limit even from a file that grows", () => {
    const t = makeDetection();
    const file = t.put("exact.json", "x".repeat(MAX_CREDENTIAL_BYTES));
    expect(files.readText(file, MAX_CREDENTIAL_BYTES)).toHaveLength(MAX_CREDENTIAL_BYTES);
    expect(() => files.readText(file, MAX_CREDENTIAL_BYTES - 1)).toThrow(/larger than/);
  });

  it("treats empty files as absent", () => {
    const t = makeDetection();
    expect(presentFile(files, t.put("empty.json", ""))).toBeUndefined();
  });

  it("lists a folder sorted and answers [] for a missing one", () => {
    const t = makeDetection();
    t.put("d/b", "1");
    t.put("d/a", "1");
    expect(files.list(join(t.home, "d"))).toEqual(["a", "b"]);
    expect(files.list(join(t.home, "none"))).toEqual([]);
    expect(files.list(t.put("f", "1"))).toEqual([]);
  });
});

describe("finding a binary without running it", () => {
  it("looks a bare name up on PATH, skipping empty entries and non-executables", () => {
    const t = makeDetection();
    const other = join(t.root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "tool"), "not executable");
    const tool = t.fakeBinary("tool");
    t.ctx.env.PATH = `:${other}:${t.binDir}`;
    expect(locateBinary("tool", t.ctx)).toBe(tool);
    expect(locateBinary("absent", t.ctx)).toBeUndefined();
  });

  it("takes an absolute path as is: an executable regular file only", () => {
    const t = makeDetection();
    const tool = t.fakeBinary("tool");
    expect(locateBinary(tool, t.ctx)).toBe(tool);
    chmodSync(tool, 0o644);
    expect(locateBinary(tool, t.ctx)).toBeUndefined();
    expect(locateBinary(t.binDir, t.ctx)).toBeUndefined();
    expect(locateBinary("", t.ctx)).toBeUndefined();
  });

  it("resolves a relative path with a slash against the working folder", () => {
    const t = makeDetection();
    const tool = t.fakeBinary("tool");
    expect(locateBinary("./bin/tool", t.ctx)).toBe(tool);
  });
});
