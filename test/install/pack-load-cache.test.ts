// The pack loader's cache of parsed files (load-cache.ts): a re-load parses only the files whose
// bytes changed, gives the same pack as a cold load (warnings included), and a damaged,
// other-version or unwritable cache, or a stat that cannot prove the bytes yet, changes nothing.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIGEST_CACHE_FILE, DigestCache } from "../../src/install/lock/digest-cache.js";
import { packDigest } from "../../src/install/lock/pack-digest.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { LOAD_CACHE_FILE, LoadCache } from "../../src/install/pack/load-cache.js";
import { loadPack, type LoadedPack, type PackFile } from "../../src/install/pack/load-pack.js";
import { PackChangedError, renderedSource } from "../../src/install/plan/rendered-copy.js";
import { install, packDir, treeState } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const VERSION = "0.1.0";
/** A clock a minute ahead: every file is old enough for its stat to prove its bytes. */
const later = () => Date.now() + 60_000;

/**
 * demo-v1 with what each kind of parse gives: a warning (a frontmatter key no runtime knows,
 * YAML beyond plain `key: text`), a template, path variables, a support folder.
 */
function richPack(t: TempHome): string {
  const dir = join(t.root, "pack");
  cpSync(packDir("demo-v1"), dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...json, templates: ["files/*.tpl.md", "agents/*.md"] }, null, 2));
  writeFileSync(join(dir, "skills", "demo-skill", "SKILL.md"), "---\nname: demo-skill\ndescription: A demo skill used by the installer tests.\nmystery-key: 3\n---\n\nUse the demo skill; its notes are in {pack-dir}/guide.md.\n");
  writeFileSync(join(dir, "agents", "demo-agent.md"), "---\nname: demo-agent\ndescription: A demo agent.\ntools: [Read, Grep]\nodd-key: yes\n---\n\nYou are the demo agent for {{runtime.title}}; see {config-dir}/agents.\n");
  mkdirSync(join(dir, "files"));
  writeFileSync(join(dir, "files", "guide.md"), "The guide lives in {pack-dir}; your agent's folder is {config-dir}.\n");
  writeFileSync(join(dir, "files", "about.tpl.md"), "Installed for {{runtime.id}} by bosun {{bosun.version}}.\n");
  writeFileSync(join(dir, "files", "plain.txt"), "no variables here\n");
  return dir;
}

/**
 * What a load made of the pack, apart from the bytes it kept for the install (`PackFile.loaded`:
 * a file parsed from the cache was not read, so it has none).
 */
function parsedPart(pack: LoadedPack): unknown {
  const files = (list: PackFile[]) => list.map(({ loaded: _loaded, ...file }) => file);
  return { ...pack, files: files(pack.files), skills: pack.skills.map((skill) => ({ ...skill, files: files(skill.files) })), hooks: pack.hooks.map((hook) => ({ ...hook, files: files(hook.files) })) };
}

function cached(cacheDir: string, now: () => number = later) {
  const digests = DigestCache.open(cacheDir, { write: true, now });
  return LoadCache.open(cacheDir, { bosunVersion: VERSION, write: true, digests });
}

/** A load with the cache in `cacheDir`, saved afterwards (as an install does once it succeeded); what it parsed. */
function loadWith(dir: string, cacheDir: string, now?: () => number) {
  const cache = cached(cacheDir, now);
  const pack = loadPack(dir, { cache });
  cache.save();
  return { pack, parsed: [...cache.parsed].sort() };
}

describe("the pack load cache", () => {
  it("gives the same pack as a cold load, warnings included, and parses nothing the second time", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    const cold = loadPack(dir);
    expect(cold.warnings).toHaveLength(2);
    const first = loadWith(dir, cacheDir);
    expect(parsedPart(first.pack)).toEqual(parsedPart(cold));
    expect(first.parsed).toContain("skill skills/demo-skill/SKILL.md");
    expect(existsSync(join(cacheDir, LOAD_CACHE_FILE))).toBe(true);
    // The cold load kept what it read, hashed, for the install; the warm one read nothing.
    const kept = cold.files.find((file) => file.rel === "plain.txt")?.loaded;
    expect(kept?.bytes.toString("utf8")).toBe("no variables here\n");
    expect(kept?.sha256).toBe(createHash("sha256").update("no variables here\n").digest("hex"));
    const second = loadWith(dir, cacheDir);
    expect(second.parsed).toEqual([]);
    expect([...second.pack.files, ...second.pack.skills.flatMap((skill) => skill.files)].filter((file) => file.loaded !== null)).toEqual([]);
    expect(parsedPart(second.pack)).toEqual(parsedPart(cold));
    expect(second.pack.warnings).toEqual(cold.warnings);
  });

  it("parses again only the file that changed, and gives what a cold load of the changed pack gives", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    loadWith(dir, cacheDir);
    const skill = join(dir, "skills", "demo-skill", "SKILL.md");
    writeFileSync(skill, readFileSync(skill, "utf8").replace("mystery-key: 3\n", "mystery-key: 3\nother-key: 4\n"));
    writeFileSync(join(dir, "files", "guide.md"), "Now without variables.\n");
    const { pack, parsed } = loadWith(dir, cacheDir);
    expect(parsed).toEqual(["file files/guide.md", "file skills/demo-skill/SKILL.md", "skill skills/demo-skill/SKILL.md"]);
    const cold = loadPack(dir);
    expect(parsedPart(pack)).toEqual(parsedPart(cold));
    expect(cold.warnings).toHaveLength(3);
    expect(pack.files.find((file) => file.rel === "guide.md")?.pathVars).toBeNull();
  });

  it("reads a command or agent every time (it is installed from its text), and parses it again only when its bytes differ", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    loadWith(dir, cacheDir);
    const agent = join(dir, "agents", "demo-agent.md");
    // Same size and the modification time put back: the bytes read decide.
    const before = statSync(agent);
    writeFileSync(agent, readFileSync(agent, "utf8").replace("agent for", "agent FOR"));
    utimesSync(agent, before.atime, before.mtime);
    const { pack, parsed } = loadWith(dir, cacheDir);
    expect(parsed).toEqual(["markdown agents/demo-agent.md"]);
    expect(parsedPart(pack)).toEqual(parsedPart(loadPack(dir)));
    expect(pack.agents[0]?.body).toContain("agent FOR");
  });

  it("does not trust the stat of a file changed just before it was parsed: an edit of the same size and time in that window is caught", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    const guide = join(dir, "files", "guide.md");
    // Parsed with the real clock: every file changed just now, so no stat is kept as proof.
    loadWith(dir, cacheDir, Date.now);
    const digests = join(cacheDir, DIGEST_CACHE_FILE);
    expect(existsSync(digests) ? Object.keys(JSON.parse(readFileSync(digests, "utf8")).packs[dir] ?? {}) : []).not.toContain("files/guide.md");
    const before = statSync(guide);
    writeFileSync(guide, "The guide lives in {pack-DIR}; your agent's folder is {config-dir}.\n");
    utimesSync(guide, before.atime, before.mtime);
    expect(statSync(guide).size).toBe(before.size);
    const { pack, parsed } = loadWith(dir, cacheDir, Date.now);
    expect(parsed).toContain("file files/guide.md");
    expect(parsedPart(pack)).toEqual(parsedPart(loadPack(dir)));
    expect(pack.files.find((file) => file.rel === "guide.md")?.pathVars?.vars).toEqual(["{config-dir}"]);
  });

  it("a template glob that changes makes a file parse again", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    loadWith(dir, cacheDir);
    const json = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
    writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...json, templates: ["files/*.md"] }));
    const { pack, parsed } = loadWith(dir, cacheDir);
    expect(parsed).toEqual(["file files/guide.md", "markdown agents/demo-agent.md"]);
    expect(parsedPart(pack)).toEqual(parsedPart(loadPack(dir)));
  });

  it("ignores a damaged cache, a cache of another bosun version or format, and a wrong value in it, and writes a good one", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    const cold = loadPack(dir);
    const file = join(cacheDir, LOAD_CACHE_FILE);
    loadWith(dir, cacheDir);
    const good = JSON.parse(readFileSync(file, "utf8"));
    const damaged = [
      "{not json",
      "",
      JSON.stringify({ ...good, bosun: "9.9.9" }),
      JSON.stringify({ ...good, format: 99 }),
      JSON.stringify({ ...good, packs: { [dir]: Object.fromEntries(Object.entries(good.packs[dir] as Record<string, [string, unknown]>).map(([key, [hash]]) => [key, [hash, { template: "x" }]])) } }),
      JSON.stringify({ ...good, packs: { [dir]: Object.fromEntries(Object.keys(good.packs[dir]).map((key) => [key, ["nothash", null]])) } }),
    ];
    for (const text of damaged) {
      writeFileSync(file, text);
      const { pack, parsed } = loadWith(dir, cacheDir);
      expect(parsedPart(pack)).toEqual(parsedPart(cold));
      expect(parsed.length).toBeGreaterThan(0);
      expect(loadWith(dir, cacheDir).parsed).toEqual([]);
    }
    // Another version's cache is not used, and is replaced.
    const other = LoadCache.open(cacheDir, { bosunVersion: "0.2.0", write: true, digests: DigestCache.open(cacheDir, { write: true, now: later }) });
    expect(parsedPart(loadPack(dir, { cache: other }))).toEqual(parsedPart(cold));
    expect(other.parsed.length).toBeGreaterThan(0);
  });

  it("a cache folder that cannot be made or written: the load works, says nothing, and leaves nothing behind", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cold = loadPack(dir);
    // A file where the cache folder goes, and a cache folder under a file: neither can be written (by root either).
    const blocked = t.write("cache", "not a folder\n");
    for (const cacheDir of [blocked, join(blocked, "bosun")]) {
      const { pack } = loadWith(dir, cacheDir);
      expect(parsedPart(pack)).toEqual(parsedPart(cold));
      expect(readFileSync(blocked, "utf8")).toBe("not a folder\n");
    }
    const readOnly = join(t.root, "read-only");
    mkdirSync(readOnly, { mode: 0o500 });
    expect(parsedPart(loadWith(dir, readOnly).pack)).toEqual(parsedPart(cold));
    expect(readdirSync(readOnly).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a read-only cache (a dry run) writes nothing; a load that fails saves nothing", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    const readOnly = LoadCache.open(cacheDir, { bosunVersion: VERSION, write: false, digests: DigestCache.open(cacheDir, { write: false, now: later }) });
    loadPack(dir, { cache: readOnly });
    readOnly.save();
    expect(existsSync(cacheDir)).toBe(false);
    writeFileSync(join(dir, "agents", "demo-agent.md"), "no frontmatter\n");
    const cache = cached(cacheDir);
    expect(() => loadPack(dir, { cache })).toThrow(/missing frontmatter/);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("shares its hashes with the pack digest: the digest after a load reads nothing again and is the same", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const cacheDir = join(t.root, "cache");
    const digests = DigestCache.open(cacheDir, { write: true, now: later });
    const cache = LoadCache.open(cacheDir, { bosunVersion: VERSION, write: true, digests });
    loadPack(dir, { cache });
    expect(packDigest(dir, digests)).toEqual(packDigest(dir));
  });

  it("takes the load's folder listings too: the digest after a load is of the pack as loaded, not of a file added since", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const digests = DigestCache.open(null);
    const loaded = packDigest(dir);
    loadPack(dir, { cache: LoadCache.open(null, { bosunVersion: VERSION, write: false, digests }) });
    writeFileSync(join(dir, "files", "added-after-the-load.md"), "new\n");
    expect(packDigest(dir, digests)).toEqual(loaded);
    // Without the load's listings, the digest sees the folder as it is now.
    expect(packDigest(dir).digest).not.toBe(loaded.digest);
  });
});

describe("bosun install with the load cache", () => {
  it("after one pack file changed installs what a cold install of the changed pack installs", async () => {
    const warm = makeTempHome();
    const dir = richPack(warm);
    const cacheDir = warm.paths.cache;
    // Cached as if the pack had been there a while (a real clock would keep nothing just after the copy).
    loadWith(dir, cacheDir);
    const first = await install(warm, { pack: dir, cacheDir });
    expect(first.result.warnings).toEqual(loadPack(dir).warnings);
    const skill = join(dir, "skills", "demo-skill", "SKILL.md");
    writeFileSync(skill, readFileSync(skill, "utf8").replace("Use the demo skill", "Use the edited demo skill"));
    const again = await install(warm, { pack: dir, cacheDir });
    expect(again.result.warnings).toEqual(first.result.warnings);

    const cold = makeTempHome();
    const coldRun = await install(cold, { pack: dir });
    const claude = (t: TempHome) => treeState(join(t.home, ".claude"));
    const strip = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([rel]) => !rel.split("/").some((part) => part.startsWith("bosun-"))));
    // settings.json names each home's own folder in its hook commands.
    const settings = (t: TempHome) => readFileSync(join(t.home, ".claude", "settings.json"), "utf8").replaceAll(t.home, "~");
    expect(settings(warm)).toBe(settings(cold));
    const { "settings.json": _warm, ...warmTree } = strip(claude(warm));
    const { "settings.json": _cold, ...coldTree } = strip(claude(cold));
    expect(warmTree).toEqual(coldTree);
    expect(again.pack.digest).toBe(coldRun.pack.digest);
    expect(readFileSync(join(warm.home, ".claude", "skills", "demo-skill", "SKILL.md"), "utf8")).toContain("edited demo skill");
  });

  it("a rewritten pack file is made again when what it is rewritten with changes, even with its stat unchanged", async () => {
    const t = makeTempHome();
    const dir = richPack(t);
    await install(t, { pack: dir, cacheDir: t.paths.cache });
    const about = join(t.home, ".claude", "demo", "about.tpl.md");
    expect(readFileSync(about, "utf8")).toBe("Installed for claude by bosun 0.1.0.\n");
    await install(t, { pack: dir, cacheDir: t.paths.cache, bosunVersion: "0.2.0" });
    expect(readFileSync(about, "utf8")).toBe("Installed for claude by bosun 0.2.0.\n");
    const manifest = readManifest(nodeFs, join(t.home, ".claude", "bosun-manifest.json")).manifest;
    expect(manifest.files["demo/about.tpl.md"]).toBe(createHash("sha256").update("Installed for claude by bosun 0.2.0.\n").digest("hex"));
  });

  it("a fresh install writes the bytes the load read: no pack file is opened again to be copied or rewritten", async () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const opened: string[] = [];
    const fs = { ...nodeFs, openSync: ((path: nodeFs.PathLike, ...rest: unknown[]) => (opened.push(String(path)), (nodeFs.openSync as (...args: unknown[]) => number)(path, ...rest))) as typeof nodeFs.openSync };
    await install(t, { pack: dir, cacheDir: t.paths.cache, fs });
    expect(opened.filter((path) => path.startsWith(`${dir}/`))).toEqual([]);
    const claude = join(t.home, ".claude");
    expect(readFileSync(join(claude, "demo", "plain.txt"), "utf8")).toBe("no variables here\n");
    expect(readFileSync(join(claude, "demo", "guide.md"), "utf8")).toBe("The guide lives in ~/.claude/demo; your agent's folder is ~/.claude.\n");
    const manifest = readManifest(nodeFs, join(claude, "bosun-manifest.json")).manifest;
    expect(manifest.files["demo/plain.txt"]).toBe(createHash("sha256").update("no variables here\n").digest("hex"));
  });

  it("a rewritten file whose pack file changed after the load is not made from the new bytes: made from what was loaded, or the run stops", () => {
    const t = makeTempHome();
    const dir = richPack(t);
    const guide = loadPack(dir).files.find((file) => file.rel === "guide.md")!;
    const paths = { "{pack-dir}": "~/.claude/demo", "{config-dir}": "~/.claude" };
    const made = "The guide lives in ~/.claude/demo; your agent's folder is ~/.claude.\n";
    expect(renderedSource(guide, new Map(), paths, []).bytes().toString("utf8")).toBe(made);
    const fromLoad = renderedSource(guide, new Map(), paths, []);
    // The same file as a load that took its parse from the cache has it: not read, so read when made.
    const fromPack = renderedSource({ ...guide, loaded: null }, new Map(), paths, []);
    writeFileSync(guide.path, "Changed after the load, {pack-dir}.\n");
    expect(fromLoad.bytes().toString("utf8")).toBe(made);
    expect(() => fromPack.bytes()).toThrow(PackChangedError);
  });
});
