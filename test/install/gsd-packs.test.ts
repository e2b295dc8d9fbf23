// The anchors as bosun packs made by the real `bosun pack import` (scripts/anchor-packs.mjs, the
// built CLI) from each anchor installer's own Claude tree, installed into temp homes. For Claude
// Code the tree is the anchor's byte for byte, except the differences each anchor's KNOWN lists.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack, type AnchorPackPin } from "../../scripts/anchor-packs.mjs";
import { filePaths as files } from "../fixtures/fs-snapshot.js";
import { install } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

interface Known {
  /** The anchor's own bookkeeping and state: not imported (the import report lists each). */
  notImported: string[];
  /** Folders that are support files now, under the pack's folder (`hooks/…` → `gsd-core/hooks/…`). */
  movedUnder: Record<string, string>;
  /** Files whose text names a moved folder (`~/.claude/hooks/`): bosun's copy names where it went. */
  textNamesMovedFolder: string[];
}

/**
 * What bosun's copy of a text says where the anchor's differs: `$HOME/.claude…` and
 * `${HOME}/.claude…` are `~/.claude…` (bosun writes `{pack-dir}` and `{config-dir}` so in text;
 * a whole double-quoted path loses its quotes, so the shell still expands it), and a moved
 * folder's path names where it went.
 */
function asBosunWrites(text: string, movedUnder: Record<string, string>): string {
  // A $HOME form inside a longer quoted string (odd quotes before it on the line) stays.
  const inQuotes = (whole: string, offset: number) => (whole.slice(whole.lastIndexOf("\n", offset - 1) + 1, offset).match(/(?<!\\)"/g) ?? []).length % 2 === 1;
  let out = text
    .replace(/"(?:\$HOME|\$\{HOME\})(\/\.claude(?:\/[A-Za-z0-9._@+-]+)*)"/g, (match, path: string, offset: number, whole: string) => (/[A-Za-z0-9_.~/$-]/.test(whole[offset - 1] ?? "") || inQuotes(whole, offset) ? match : `~${path}`))
    .replace(/(?<![A-Za-z0-9_.~/$-])(?:\$HOME|\$\{HOME\}|"\$HOME")\/\.claude(?![A-Za-z0-9_-])/g, (match, offset: number, whole: string) => (inQuotes(whole, offset) ? match : "~/.claude"));
  for (const [from, to] of Object.entries(movedUnder)) out = out.replaceAll(`~/.claude/${from}`, `~/.claude/${to}`);
  return out;
}

/** Where bosun's tree differs from each anchor's, on purpose (besides bosun's own records, bosun-*). */
const KNOWN: Record<AnchorPackPin["id"], Known> = {
  "opengsd-gsd-core": {
    notImported: [".gsd-profile", ".gsd-source", ".gsd-staging/", "gsd-file-manifest.json", "gsd-install-state.json"],
    movedUnder: { "hooks/": "gsd-core/hooks/", "scripts/": "gsd-core/scripts/" },
    textNamesMovedFolder: ["hooks/managed-hooks-registry.cjs"],
  },
  "get-shit-done-cc": {
    // package.json is {"type":"commonjs"}, which is what Node assumes without it.
    notImported: [".gsd-profile", "gsd-file-manifest.json", "gsd-install-state.json", "package.json"],
    movedUnder: { "hooks/": "get-shit-done/hooks/" },
    textNamesMovedFolder: ["hooks/gsd-check-update-worker.js"],
  },
};

function anchorPack(pin: AnchorPackPin): { pack: string; claudeDir: string } {
  const found = findAnchorPack(pin.id);
  if (!found) throw new Error(`the anchor ${pin.pkg}@${pin.version} is not here: run node scripts/anchor-packs.mjs install`);
  return { pack: buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: join(makeTempHome().root, "packs") }), claudeDir: found.claudeDir };
}

type Group = { matcher?: string; hooks: { command: string; timeout?: number }[] };
/** Each event's hooks as matcher, timeout (bosun writes its default of 10 s where the anchor gave none) and the script run. */
const hookShape = (settings: { hooks: Record<string, Group[]> }, dir: string) =>
  Object.fromEntries(
    Object.entries(settings.hooks).map(([event, groups]) => [
      event,
      groups.flatMap((group) => group.hooks.map((hook) => ({ matcher: group.matcher ?? null, timeout: hook.timeout ?? 10, script: hook.command.replace(/.*["' ]([^"' ]+\.(?:js|sh))"?$/, "$1").replace(dir, "") }))).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ]),
  );

for (const pin of ANCHOR_PACKS) {
  const known = KNOWN[pin.id];
  const mapped = (rel: string) => Object.entries(known.movedUnder).reduce((path, [from, to]) => (path.startsWith(from) ? to + path.slice(from.length) : path), rel);

  describe(`${pin.pkg} ${pin.version} imported as a bosun pack`, () => {
    it("installs for Claude Code as the anchor's installer does, but for the listed differences", async () => {
      const { pack, claudeDir } = anchorPack(pin);
      const t = makeTempHome();
      const outcome = await install(t, { pack, runtimes: ["claude"] });
      expect(outcome.result.warnings).toEqual([]);
      const root = join(t.home, ".claude");
      const anchor = files(claudeDir).filter((rel) => !known.notImported.some((name) => rel === name || (name.endsWith("/") && rel.startsWith(name))) && rel !== "settings.json");
      const installed = files(root).filter((rel) => !rel.startsWith("bosun-") && rel !== "settings.json");
      expect(installed).toEqual(anchor.map(mapped).sort());
      const differ = anchor.filter((rel) => !readFileSync(join(root, mapped(rel))).equals(readFileSync(join(claudeDir, rel))));
      const homeForms = anchor.filter((rel) => /(?<![A-Za-z0-9_.~/$-])"?(?:\$HOME|\$\{HOME\})"?\/\.claude(?![A-Za-z0-9_-])/.test(readFileSync(join(claudeDir, rel), "utf8")));
      // Only files that name a moved folder or use a $HOME form differ, and each exactly as asBosunWrites says.
      expect(differ.filter((rel) => !known.textNamesMovedFolder.includes(rel) && !homeForms.includes(rel))).toEqual([]);
      for (const rel of known.textNamesMovedFolder) expect(differ).toContain(rel);
      for (const rel of differ) expect(readFileSync(join(root, mapped(rel)), "utf8"), rel).toBe(asBosunWrites(readFileSync(join(claudeDir, rel), "utf8"), known.movedUnder));
      const executable = anchor.filter((rel) => (statSync(join(claudeDir, rel)).mode & 0o111) !== 0);
      expect(executable.filter((rel) => (statSync(join(root, mapped(rel))).mode & 0o111) === 0)).toEqual([]);

      // settings.json: the same hooks per event (matchers, timeouts, scripts), status line and permissions.
      const mine = JSON.parse(readFileSync(join(root, "settings.json"), "utf8"));
      const theirs = JSON.parse(readFileSync(join(claudeDir, "settings.json"), "utf8"));
      let expected = JSON.stringify(hookShape(theirs, claudeDir));
      for (const [from, to] of Object.entries(known.movedUnder)) expected = expected.replaceAll(`"/${from}`, `"/${to}`);
      expect(hookShape(mine, root)).toEqual(JSON.parse(expected));
      expect(mine.statusLine.command).toContain(join(root, mapped("hooks/gsd-statusline.js")));
      expect(mine.permissions).toEqual(theirs.permissions);
    }, 120_000);

    it("installs into Codex and OpenCode, with its support files and hooks", async () => {
      const { pack } = anchorPack(pin);
      const codex = makeTempHome();
      await install(codex, { pack, runtimes: ["codex"] });
      expect(existsSync(join(codex.home, ".agents/skills/gsd-code-review/SKILL.md"))).toBe(true);
      const hooks = JSON.parse(readFileSync(join(codex.home, ".codex/hooks.json"), "utf8"));
      expect(JSON.stringify(hooks)).toContain(join(codex.home, `.codex/${pin.pack.name}/hooks/gsd-prompt-guard.js`));
      const opencode = makeTempHome();
      await install(opencode, { pack, runtimes: ["opencode"] });
      expect(readFileSync(join(opencode.home, ".config/opencode/agents/gsd-code-fixer.md"), "utf8")).toContain("mode: subagent");
      expect(readFileSync(join(opencode.home, ".config/opencode/skills/gsd-execute-phase/SKILL.md"), "utf8")).toContain(`~/.config/opencode/${pin.pack.name}/`);
    }, 120_000);
  });
}

describe("Gemini CLI and the anchors' packs", () => {
  it("installs get-shit-done's; refuses gsd-core's dotted agent names (gsd-planner.compact…) with the fix", async () => {
    const [core, legacy] = [ANCHOR_PACKS.find((pin) => pin.id === "opengsd-gsd-core")!, ANCHOR_PACKS.find((pin) => pin.id === "get-shit-done-cc")!];
    const t = makeTempHome();
    await install(t, { pack: anchorPack(legacy).pack, runtimes: ["gemini"] });
    expect(existsSync(join(t.home, ".gemini/skills/gsd-code-review/SKILL.md"))).toBe(true);
    expect(existsSync(join(t.home, ".gemini/agents/gsd-code-fixer.md"))).toBe(true);
    // gsd-core's `.compact` agents are variants of agents it also ships: Gemini (no dots in agent names) gets the base ones.
    const g = makeTempHome();
    const outcome = await install(g, { pack: anchorPack(core).pack, runtimes: ["gemini"] });
    expect(existsSync(join(g.home, ".gemini/agents/gsd-planner.md"))).toBe(true);
    expect(existsSync(join(g.home, ".gemini/agents/gsd-planner.compact.md"))).toBe(false);
    const skipped = outcome.result.targets[0]!.target.desired!.skipped.filter((skip) => skip.kind === "agent");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((skip) => skip.name.endsWith(".compact") && /Gemini CLI takes no dots in agent names; .* is a variant of agent gsd-[a-z-]+, which is installed/.test(skip.reason))).toBe(true);
  }, 120_000);
});
