import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPackCache, packCachePath } from "../../src/install/pack/pack-cache.js";
import { loadPack } from "../../src/install/pack/load-pack.js";
import { PackError } from "../../src/install/pack/pack-error.js";
import { install, packDir, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A copy of the demo pack in the temp home (the tests edit it). */
function packCopy(t: TempHome): string {
  const dir = join(t.root, "pack");
  cpSync(packDir("demo-v1"), dir, { recursive: true });
  return dir;
}

/** Loads the pack through the cache of `t` (as bosun version `version`) and saves it; returns the load and its counts. */
function cachedLoad(t: TempHome, dir: string, version = "0.1.0") {
  const cache = openPackCache(t.paths.cache, dir, version);
  const pack = loadPack(dir, { cache });
  cache.save();
  return { pack, counts: { ...cache.counts } };
}

// What the demo pack's load parses: SKILL.md, the command, the agent, and the listings of the
// skill's three folders and the hook's folder.
const PARSED = 7;

describe("the pack cache", () => {
  it("parses every file once, then finds them all unchanged (the same pack as without a cache)", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    const first = cachedLoad(t, dir);
    expect(first.counts).toEqual({ hits: 0, misses: PARSED });
    expect(existsSync(packCachePath(t.paths.cache, dir))).toBe(true);
    const second = cachedLoad(t, dir);
    expect(second.counts).toEqual({ hits: PARSED, misses: 0 });
    expect(second.pack).toEqual(loadPack(dir));
  });

  it("parses again only the file that changed, and sees its new content", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    cachedLoad(t, dir);
    const agent = join(dir, "agents/demo-agent.md");
    writeFileSync(agent, `${readFileSync(agent, "utf8")}\nOne more instruction.\n`);
    const edited = cachedLoad(t, dir);
    expect(edited.counts).toEqual({ hits: PARSED - 1, misses: 1 });
    expect(edited.pack.agents[0]?.body).toContain("One more instruction.");
    expect(edited.pack).toEqual(loadPack(dir));
  });

  it("sees a file added to, or removed from, a folder whose listing it kept", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    cachedLoad(t, dir);
    writeFileSync(join(dir, "skills/demo-skill/references/deep/added.md"), "Added.\n");
    const added = cachedLoad(t, dir);
    expect(added.counts).toEqual({ hits: PARSED - 1, misses: 1 });
    expect(added.pack.skills[0]?.files.map((file) => file.rel)).toContain("references/deep/added.md");
    rmSync(join(dir, "skills/demo-skill/references/notes.md"));
    const removed = cachedLoad(t, dir);
    expect(removed.pack.skills[0]?.files.map((file) => file.rel)).not.toContain("references/notes.md");
    expect(removed.pack).toEqual(loadPack(dir));
  });

  it("still refuses a file that became bad (a cached good parse is never used for it)", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    cachedLoad(t, dir);
    writeFileSync(join(dir, "agents/demo-agent.md"), "---\nname: demo-agent\nbogus: 1\n---\n\nText.\n");
    expect(() => cachedLoad(t, dir)).toThrow(PackError);
  });

  it("ignores a corrupt cache and rebuilds it", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    cachedLoad(t, dir);
    const file = packCachePath(t.paths.cache, dir);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    // An entry changed behind bosun's back: the digest no longer matches, so nothing of it is used.
    const rel = Object.keys(stored.entries).find((key) => key.startsWith("agents/")) as string;
    stored.entries[rel].value.body = "Injected.\n";
    writeFileSync(file, JSON.stringify(stored));
    const tampered = cachedLoad(t, dir);
    expect(tampered.counts).toEqual({ hits: 0, misses: PARSED });
    expect(tampered.pack.agents[0]?.body).not.toContain("Injected.");
    // Not JSON at all: the same.
    writeFileSync(file, "{ truncated");
    expect(cachedLoad(t, dir).counts).toEqual({ hits: 0, misses: PARSED });
    // Rebuilt: the next load finds every file.
    expect(cachedLoad(t, dir).counts).toEqual({ hits: PARSED, misses: 0 });
  });

  it("ignores a cache written by another bosun version, or of another format version", () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    cachedLoad(t, dir, "0.1.0");
    expect(cachedLoad(t, dir, "0.2.0").counts).toEqual({ hits: 0, misses: PARSED });
    const file = packCachePath(t.paths.cache, dir);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), version: 99 }));
    expect(cachedLoad(t, dir, "0.2.0").counts).toEqual({ hits: 0, misses: PARSED });
  });
});

describe("an incremental reinstall", () => {
  it("a dry run reads the cache but writes none", async () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    await install(t, { pack: dir, cacheDir: t.paths.cache, dryRun: true });
    expect(existsSync(join(t.paths.cache, "pack-artifacts"))).toBe(false);
  });

  it("writes exactly the changed file, plus bosun's records", async () => {
    const t = makeTempHome();
    const dir = packCopy(t);
    await install(t, { pack: dir, cacheDir: t.paths.cache });
    const cacheFiles = readdirSync(join(t.paths.cache, "pack-artifacts"));
    expect(cacheFiles).toHaveLength(1);
    const agent = join(dir, "agents/demo-agent.md");
    writeFileSync(agent, `${readFileSync(agent, "utf8")}\nOne more instruction.\n`);
    const written = new Set<string>();
    const fs = watchedFs((_n, _call, args) => {
      if (typeof args[0] === "string") written.add(args[0]);
    });
    const outcome = await install(t, { pack: dir, cacheDir: t.paths.cache, fs });
    expect(outcome.settled).toBe(false);
    const claude = join(t.home, ".claude");
    const installed = [...written].filter((path) => path.startsWith(`${claude}/`)).map((path) => path.slice(claude.length + 1));
    const notRecords = installed.filter((rel) => !rel.split("/").some((part) => part.startsWith("bosun-")));
    // The agent's file is written through a temp file beside it, renamed into place.
    expect(new Set(notRecords.map((rel) => rel.replace(/\.bosun-[^/]*$/, "")))).toEqual(new Set(["agents/demo-agent.md"]));
    expect(readFileSync(join(claude, "agents/demo-agent.md"), "utf8")).toContain("One more instruction.");
  });
});
