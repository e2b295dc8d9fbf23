// gsd-core 1.14.0 as a bosun pack made by the real `bosun pack import` (scripts/anchor-packs.mjs,
// the built CLI) from the anchor installer's own Claude tree, installed into temp homes. For
// Claude Code the tree is the anchor's byte for byte, except the differences listed in KNOWN.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack } from "../../scripts/anchor-packs.mjs";
import { install } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

/** Where bosun's tree differs from the anchor's, on purpose. */
const KNOWN = {
  /** The anchor's own bookkeeping and state: not imported (the import report lists each). */
  notImported: [".gsd-profile", ".gsd-source", ".gsd-staging/", "gsd-file-manifest.json", "gsd-install-state.json"],
  /** hooks/… and scripts/… are support files now: under the pack's folder, gsd-core/hooks/… and gsd-core/scripts/…. */
  movedUnder: { "hooks/": "gsd-core/hooks/", "scripts/": "gsd-core/scripts/" },
  /** bosun's own records in the folder. */
  /** Files whose text names a moved folder (`~/.claude/hooks/`): bosun's copy names where it went. */
  textNamesMovedFolder: ["hooks/managed-hooks-registry.cjs"],
  bosunFiles: ["bosun-manifest.json", "bosun-install-state.json"], // and bosun-journal/…
};

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();
}

describe("gsd-core 1.14.0 imported as a bosun pack", () => {
  const pin = ANCHOR_PACKS.find((entry) => entry.id === "opengsd-gsd-core")!;
  const found = findAnchorPack("opengsd-gsd-core");
  if (!found) throw new Error("the anchor @opengsd/gsd-core@1.14.0 is not here: run node scripts/anchor-packs.mjs install");

  it("installs for Claude Code as the anchor's installer does, but for the listed differences", async () => {
    const cache = makeTempHome();
    const pack = buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: join(cache.root, "packs") });
    const t = makeTempHome();
    const outcome = await install(t, { pack, runtimes: ["claude"] });
    expect(outcome.result.warnings).toEqual([]);
    const root = join(t.home, ".claude");
    const anchor = files(found.claudeDir).filter((rel) => !KNOWN.notImported.some((name) => rel === name || (name.endsWith("/") && rel.startsWith(name))) && rel !== "settings.json");
    const mapped = (rel: string) => Object.entries(KNOWN.movedUnder).reduce((path, [from, to]) => (path.startsWith(from) ? to + path.slice(from.length) : path), rel);
    const installed = files(root).filter((rel) => !KNOWN.bosunFiles.includes(rel) && !rel.startsWith("bosun-journal/") && rel !== "settings.json");
    expect(installed).toEqual(anchor.map(mapped).sort());
    // Byte for byte, but where the anchor's text names a moved folder: `~/.claude/hooks/` is `~/.claude/gsd-core/hooks/` now.
    const differ = anchor.filter((rel) => !readFileSync(join(root, mapped(rel))).equals(readFileSync(join(found.claudeDir, rel))));
    expect(differ).toEqual(KNOWN.textNamesMovedFolder);
    for (const rel of differ) {
      const moved = Object.entries(KNOWN.movedUnder).reduce((text, [from, to]) => text.replaceAll(`~/.claude/${from}`, `~/.claude/${to}`), readFileSync(join(found.claudeDir, rel), "utf8"));
      expect(readFileSync(join(root, mapped(rel)), "utf8"), rel).toBe(moved);
    }
    expect(statSync(join(root, "gsd-core/bin/gsd-tools.cjs")).mode & 0o111).not.toBe(0);

    // settings.json: the same hooks per event (matchers, timeouts, the same scripts), status line and permissions.
    const mine = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
    const theirs = JSON.parse(readFileSync(join(found.claudeDir, "settings.json"), "utf8"));
    type Group = { matcher?: string; hooks: { command: string; timeout?: number }[] };
    const shape = (settings: { hooks: Record<string, Group[]> }, dir: string) =>
      Object.fromEntries(Object.entries(settings.hooks).map(([event, groups]) => [event, groups.flatMap((group) => group.hooks.map((hook) => ({ matcher: group.matcher ?? null, timeout: hook.timeout ?? 10, script: hook.command.replace(/.*["' ]([^"' ]+\.(?:js|sh))"?$/, "$1").replace(dir, "") }))).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))]));
    // Differences: the scripts moved under gsd-core/, and a hook without a timeout gets bosun's default of 10 s.
    const theirShape = JSON.parse(JSON.stringify(shape(theirs, found.claudeDir)).replaceAll('"/hooks/', '"/gsd-core/hooks/'));
    expect(shape(mine, root)).toEqual(theirShape);
    expect(mine.statusLine.command).toContain(join(root, "gsd-core/hooks/gsd-statusline.js"));
    expect(mine.permissions).toEqual(theirs.permissions);
  }, 120_000);

  it("installs into Codex and OpenCode; Gemini CLI refuses its dotted agent names", async () => {
    const cache = makeTempHome();
    const pack = buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: join(cache.root, "packs") });
    const codex = makeTempHome();
    await install(codex, { pack, runtimes: ["codex"] });
    expect(existsSync(join(codex.home, ".agents/skills/gsd-add-tests/SKILL.md"))).toBe(true);
    expect(existsSync(join(codex.home, ".codex/gsd-core/bin/gsd-tools.cjs"))).toBe(true);
    const hooks = JSON.parse(readFileSync(join(codex.home, ".codex/hooks.json"), "utf8"));
    expect(JSON.stringify(hooks)).toContain(join(codex.home, ".codex/gsd-core/hooks/gsd-prompt-guard.js"));
    const opencode = makeTempHome();
    await install(opencode, { pack, runtimes: ["opencode"] });
    expect(readFileSync(join(opencode.home, ".config/opencode/agents/gsd-code-fixer.compact.md"), "utf8")).toContain("mode: subagent");
    expect(readFileSync(join(opencode.home, ".config/opencode/skills/gsd-add-tests/SKILL.md"), "utf8")).toContain("~/.config/opencode/gsd-core/");
    await expect(install(makeTempHome(), { pack, runtimes: ["gemini"] })).rejects.toThrow(/Gemini CLI refuses agent names/);
  }, 120_000);
});
