// bosun.lock's format (one JSON record per line, sorted, strict on read), the pack content
// digest, and the pure lock updates of install and uninstall.
import * as nodeFs from "node:fs";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockFileError } from "../../src/install/lock/lock-errors.js";
import { parseLock, serializeLock, type Lock, type LockedPack } from "../../src/install/lock/lock-file.js";
import { lockAfterInstall, lockAfterUninstall } from "../../src/install/lock/lock-update.js";
import { DigestCache, DIGEST_CACHE_FILE } from "../../src/install/lock/digest-cache.js";
import { byBytes, changedParts, packDigest } from "../../src/install/lock/pack-digest.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { install, packDir } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const D = (char: string) => `sha256:${char.repeat(64)}`;
const pack = (name: string, version = "1.0.0", digest = D("a")): LockedPack => ({ name, version, digest, parts: { "pack.json": "0123456789ab" } });
const FILE = "/p/bosun.lock";

function parseError(text: string): LockFileError {
  try {
    parseLock(text, FILE);
  } catch (error) {
    if (error instanceof LockFileError) return error;
    throw error;
  }
  throw new Error("parsed");
}

describe("bosun.lock: the format", () => {
  it("writes the format line, the packs by name, the installs by runtime, scope and pack: one per line, the same bytes for the same lock", () => {
    const lock: Lock = {
      packs: [pack("zeta"), pack("alpha", "2.0.0")],
      installs: [
        { runtime: "codex", scope: "local", pack: "zeta" },
        { runtime: "claude", scope: "local", pack: "alpha" },
        { runtime: "claude", scope: "global", pack: "zeta" },
      ],
    };
    const text = serializeLock(lock);
    expect(text.split("\n")).toEqual([
      `{"lockVersion":1}`,
      `{"pack":"alpha","version":"2.0.0","digest":"${D("a")}","parts":{"pack.json":"0123456789ab"}}`,
      `{"pack":"zeta","version":"1.0.0","digest":"${D("a")}","parts":{"pack.json":"0123456789ab"}}`,
      `{"install":"claude","scope":"global","pack":"zeta"}`,
      `{"install":"claude","scope":"local","pack":"alpha"}`,
      `{"install":"codex","scope":"local","pack":"zeta"}`,
      "",
    ]);
    const reversed = { packs: [...lock.packs].reverse(), installs: [...lock.installs].reverse() };
    expect(serializeLock(reversed)).toBe(text);
    expect(serializeLock(parseLock(text, FILE))).toBe(text);
  });

  it("reads the lines in any order (what a union merge leaves), blank lines and CRLF too", () => {
    const text = [`{"install":"claude","scope":"local","pack":"alpha"}`, "", `{"pack":"alpha","version":"2.0.0","digest":"${D("b")}","parts":{}}`, `{"lockVersion":1}`].join("\r\n");
    expect(parseLock(text, FILE)).toEqual({ packs: [{ name: "alpha", version: "2.0.0", digest: D("b"), parts: {} }], installs: [{ runtime: "claude", scope: "local", pack: "alpha" }] });
  });

  const header = `{"lockVersion":1}`;
  const alpha = `{"pack":"alpha","version":"1.0.0","digest":"${D("a")}","parts":{}}`;
  it.each([
    ["a line that is not JSON", `${header}\n${alpha}\n{"install":"claude",`, 3, null, /is not a JSON object on one line; restore the file from git/],
    ["a JSON value that is not an object", `${header}\n[1,2]`, 2, null, /is not a JSON object/],
    ["no lockVersion line", alpha, null, "lockVersion", /is missing/],
    ["a lockVersion that is not a whole number", `{"lockVersion":"1"}`, 1, "lockVersion", /must be a whole number/],
    ["a newer lockVersion (named before the lines it may not know)", `{"future":true}\n{"lockVersion":2}`, 2, "lockVersion", /is 2, from a newer bosun \(this one reads lockVersion 1\); upgrade bosun/],
    ["a version that is a number", `${header}\n{"pack":"alpha","version":1,"digest":"${D("a")}","parts":{}}`, 2, "version", /must be a string \(a semantic version\)/],
    ["a digest of another kind", `${header}\n{"pack":"alpha","version":"1.0.0","digest":"md5:00","parts":{}}`, 2, "digest", /must be sha256: and 64 hex digits/],
    ["parts that are a list", `${header}\n{"pack":"alpha","version":"1.0.0","digest":"${D("a")}","parts":[]}`, 2, "parts", /must be an object/],
    ["a scope that is neither", `${header}\n${alpha}\n{"install":"claude","scope":"project","pack":"alpha"}`, 3, "scope", /must be global or local, not "project"/],
    ["a scope of the wrong type", `${header}\n${alpha}\n{"install":"claude","scope":3,"pack":"alpha"}`, 3, "scope", /must be a string/],
    ["an unknown field", `${header}\n${alpha}\n{"install":"claude","scope":"local","pack":"alpha","at":"x"}`, 3, "at", /is not a field of this record/],
    ["an unknown record", `${header}\n{"runtime":"claude"}`, 2, null, /is not a record bosun writes/],
    ["one pack twice (both sides of a union merge)", `${header}\n${alpha}\n${alpha.replace("1.0.0", "1.1.0")}`, 3, "pack", /alpha is listed twice \(also line 2; a merge kept both sides\)/],
    ["an install of a pack with no pack line", `${header}\n{"install":"claude","scope":"local","pack":"beta"}`, 2, "pack", /beta has no pack line in the lock/],
    ["a git conflict marker", `${header}\n<<<<<<< HEAD\n${alpha}`, 2, null, /has a git merge conflict marker/],
  ])("%s → one LockFileError naming the file, line and field", (_name, text, line, field, message) => {
    const error = parseError(text);
    expect(error.file).toBe(FILE);
    expect(error.line).toBe(line);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${FILE}${line === null ? "" : `:${line}`}: `)).toBe(true);
    expect(error.message).not.toContain("\n");
  });
});

describe("bosun.lock: install and uninstall", () => {
  it("an install pins the pack at what was installed and adds one line per runtime; again, nothing changes", () => {
    const first = lockAfterInstall(null, pack("demo"), { runtimes: ["claude", "codex"], scope: "local" });
    expect(first.installs).toEqual([
      { runtime: "claude", scope: "local", pack: "demo" },
      { runtime: "codex", scope: "local", pack: "demo" },
    ]);
    const again = lockAfterInstall(first, pack("demo"), { runtimes: ["claude"], scope: "local" });
    expect(serializeLock(again)).toBe(serializeLock(first));
    const upgraded = lockAfterInstall(first, pack("demo", "2.0.0", D("c")), { runtimes: ["claude"], scope: "global" });
    expect(upgraded.packs).toEqual([pack("demo", "2.0.0", D("c"))]);
    expect(upgraded.installs).toHaveLength(3);
  });

  it("an uninstall takes its lines out, and the pack's line with its last install", () => {
    const lock = lockAfterInstall(lockAfterInstall(null, pack("demo"), { runtimes: ["claude", "codex"], scope: "local" }), pack("other"), { runtimes: ["claude"], scope: "global" });
    const one = lockAfterUninstall(lock, "demo", { runtimes: ["codex"], scope: "local" });
    expect(one.installs.map((install) => `${install.runtime} ${install.scope} ${install.pack}`)).toEqual(["claude local demo", "claude global other"]);
    expect(one.packs.map((entry) => entry.name)).toEqual(["demo", "other"]);
    const none = lockAfterUninstall(one, "demo", { runtimes: ["claude"], scope: "local" });
    expect(none.packs.map((entry) => entry.name)).toEqual(["other"]);
    // Another scope is not touched.
    expect(lockAfterUninstall(one, "other", { runtimes: ["claude"], scope: "local" })).toEqual(one);
  });
});

describe("the pack digest", () => {
  it("is the same for a copy elsewhere, ignores dot-files and files outside the pack's folders, and names the part that changed", () => {
    const t = makeTempHome();
    const a = join(t.root, "a");
    const b = join(t.root, "b");
    cpSync(packDir("demo-v1"), a, { recursive: true });
    cpSync(packDir("demo-v1"), b, { recursive: true });
    writeFileSync(join(b, "README.md"), "not installed\n");
    writeFileSync(join(b, ".DS_Store"), "x");
    mkdirSync(join(b, ".git"));
    writeFileSync(join(b, ".git", "HEAD"), "ref\n");
    const first = packDigest(a);
    expect(first.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(first.parts)).toEqual(["agents", "commands", "hooks", "pack.json", "skills"]);
    expect(packDigest(b)).toEqual(first);

    writeFileSync(join(b, "skills", "demo-skill", "references", "notes.md"), "changed\n");
    const edited = packDigest(b);
    expect(edited.digest).not.toBe(first.digest);
    expect(changedParts(first.parts, edited.parts)).toEqual(["skills"]);

    mkdirSync(join(b, "files"));
    writeFileSync(join(b, "files", "support.txt"), "support\n");
    const withSupport = packDigest(b);
    expect(changedParts(first.parts, withSupport.parts)).toEqual(["files", "skills"]);
    // Under files/ a dot-file is installed (files/.env.example, files/.config/…), so it counts.
    mkdirSync(join(b, "files", ".config"));
    writeFileSync(join(b, "files", ".config", "tool.json"), "{}\n");
    const withDot = packDigest(b);
    expect(changedParts(withSupport.parts, withDot.parts)).toEqual(["files"]);
    writeFileSync(join(b, "files", ".config", "tool.json"), '{"edited":true}\n');
    expect(changedParts(withDot.parts, packDigest(b).parts)).toEqual(["files"]);
  });

  it("a renamed file changes it (paths are part of it); a symlink counts by its target text", () => {
    const t = makeTempHome();
    const a = join(t.root, "a");
    cpSync(packDir("demo-v1"), a, { recursive: true });
    const before = packDigest(a).digest;
    cpSync(join(a, "commands", "demo-old.md"), join(a, "commands", "demo-new.md"));
    const added = packDigest(a).digest;
    expect(added).not.toBe(before);
    symlinkSync("../agents/demo-agent.md", join(a, "commands", "link.md"));
    expect(packDigest(a).digest).not.toBe(added);
  });
});

describe("the manifest records the digest a pack was installed from", () => {
  it("an install records it; a change of the pack's files records the new one, a README next to them does not count", async () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const recorded = () => readManifest(nodeFs, join(t.home, ".claude", "bosun-manifest.json")).manifest.packs.demo?.digest;
    const first = await install(t, { pack });
    expect(first.pack.digest).toBe(packDigest(pack).digest);
    expect(recorded()).toBe(packDigest(pack).digest);
    writeFileSync(join(pack, "README.md"), "about the pack\n");
    await install(t, { pack });
    expect(recorded()).toBe(first.pack.digest);
    writeFileSync(join(pack, "agents", "demo-agent.md"), "---\ndescription: changed\n---\nChanged.\n");
    await install(t, { pack });
    expect(recorded()).toBe(packDigest(pack).digest);
    expect(recorded()).not.toBe(first.pack.digest);
  });
});

/** A digest with the cache in `cacheDir`, saved afterwards (as an install does once it succeeded). */
function digestWith(pack: string, cacheDir: string, options?: Parameters<typeof DigestCache.open>[1]) {
  const cache = DigestCache.open(cacheDir, options);
  const digest = packDigest(pack, cache);
  cache.save();
  return digest;
}

describe("the digest cache", () => {
  it("hashes only files whose stat changed since the last digest; files changed just now are not kept; --check's read-only cache writes nothing", () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const cacheDir = join(t.root, "cache");
    const expected = packDigest(pack);
    // Just copied: too recent to trust its stat, so nothing is kept.
    expect(digestWith(pack, cacheDir)).toEqual(expected);
    expect(existsSync(join(cacheDir, DIGEST_CACHE_FILE))).toBe(false);
    const later = { write: true, now: () => Date.now() + 60_000 };
    expect(digestWith(pack, cacheDir, later)).toEqual(expected);
    const cached = JSON.parse(readFileSync(join(cacheDir, DIGEST_CACHE_FILE), "utf8"));
    expect(Object.keys(cached.packs[pack]).sort()).toEqual(["agents/demo-agent.md", "commands/demo-old.md", "hooks/demo-hook.json", "hooks/demo-hook/run.mjs", "pack.json", "skills/demo-skill/SKILL.md", "skills/demo-skill/references/deep/more.md", "skills/demo-skill/references/notes.md"]);

    // The cache is what is used: a wrong hash under the file's current stat shows in the digest...
    const rel = "agents/demo-agent.md";
    cached.packs[pack][rel] = cached.packs[pack][rel].replace(/ [0-9a-f]{64}$/, ` ${"0".repeat(64)}`);
    writeFileSync(join(cacheDir, DIGEST_CACHE_FILE), JSON.stringify(cached));
    expect(digestWith(pack, cacheDir, later).digest).not.toBe(expected.digest);
    // ...and any change of the file's stat (here only its time) makes it hashed again.
    utimesSync(join(pack, rel), new Date(), new Date(Date.now() - 5_000));
    expect(digestWith(pack, cacheDir, later)).toEqual(expected);

    const before = readFileSync(join(cacheDir, DIGEST_CACHE_FILE), "utf8");
    writeFileSync(join(pack, "commands", "demo-old.md"), "---\ndescription: edited\n---\nEdited.\n");
    utimesSync(join(pack, "commands", "demo-old.md"), new Date(), new Date(Date.now() - 5_000));
    expect(digestWith(pack, cacheDir, { write: false, now: later.now })).toEqual(packDigest(pack));
    expect(readFileSync(join(cacheDir, DIGEST_CACHE_FILE), "utf8")).toBe(before);
  });

  it("a damaged cache is an empty one", () => {
    const t = makeTempHome();
    const pack = join(t.root, "pack");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const cacheDir = join(t.root, "cache");
    mkdirSync(cacheDir);
    for (const text of ["{", "[]", `{"format":1,"packs":{"${pack}":{"pack.json":"nonsense"}}}`]) {
      writeFileSync(join(cacheDir, DIGEST_CACHE_FILE), text);
      expect(digestWith(pack, cacheDir, { write: false })).toEqual(packDigest(pack));
    }
  });
});

describe("byte order", () => {
  it("sorts as the UTF-8 bytes do, characters beyond U+FFFF (surrogates in JavaScript) after U+E000–U+FFFF too", () => {
    const parts = ["a", "b", "Z", "é", "\u{e000}", "\u{ffff}", "\u{10000}", "\u{1f600}", "/", "-", ".", "0", ""];
    const words: string[] = [];
    for (const x of parts) for (const y of parts) for (const z of ["", "a", "\u{1f600}"]) words.push(`${x}${y}${z}`);
    const sign = (n: number) => Math.sign(n);
    for (const a of words) for (const b of words) expect(sign(byBytes(a, b))).toBe(Buffer.compare(Buffer.from(a), Buffer.from(b)));
  });
});
