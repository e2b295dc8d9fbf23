// The anchor as a bosun pack: a few real gsd-core 1.14.0 files (two skills, two agents, one of
// them a dotted `.compact` variant, support files under gsd-core/, a hook script with its lib/
// and package.json) made into a pack at test time, installed for Claude Code: every installed
// file is byte for byte the anchor installer's own copy. The pack names its folder `{pack-dir}`
// where the anchor's text says `~/.claude/gsd-core`; the hook script moves from hooks/ into the
// pack's support folder (gsd-core/hooks/), with its lib/ and package.json beside it.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findAnchorPack } from "../../scripts/anchor-packs.mjs";
import { install } from "../fixtures/install.js";
import { writePackFile } from "../fixtures/support-pack.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const SKILLS = ["gsd-add-tests", "gsd-code-review"];
const AGENTS = ["gsd-planner", "gsd-code-fixer.compact"];
const SUPPORT = ["references/checkpoints.md", "templates/summary.md", "workflows/add-tests.md", "bin/gsd-tools.cjs"];
/** The hook script, its package.json and all of hooks/lib/ (its helpers require each other). */
const hookFiles = (claudeDir: string) => ["hooks/gsd-context-monitor.js", "hooks/package.json", ...readdirSync(join(claudeDir, "hooks/lib")).sort().map((name) => `hooks/lib/${name}`)];

function anchor(): { packageDir: string; claudeDir: string } {
  const found = findAnchorPack("opengsd-gsd-core");
  if (!found) throw new Error("the anchor package @opengsd/gsd-core@1.14.0 and its Claude install are not here: run node scripts/anchor-packs.mjs install");
  return found;
}

/** The anchor's installed text with its support folder named by the variable (what a converter writes). */
const asPackText = (bytes: Buffer) => Buffer.from(bytes.toString("utf8").replaceAll("~/.claude/gsd-core", "{pack-dir}"));

function copyInto(pack: string, from: string, rel: string, to: string): void {
  writePackFile(pack, to, asPackText(readFileSync(join(from, rel))), (statSync(join(from, rel)).mode & 0o111) !== 0);
}

describe("gsd-core 1.14.0 as a bosun pack", () => {
  it("installs for Claude Code byte for byte as the anchor's installer does", async () => {
    const { packageDir, claudeDir } = anchor();
    const version = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version as string;
    expect(version).toBe("1.14.0");
    const t = makeTempHome();
    const pack = join(t.root, "gsd-pack");
    writePackFile(pack, "pack.json", JSON.stringify({ name: "gsd-core", version, artifacts: { skills: SKILLS, agents: AGENTS } }));
    for (const skill of SKILLS) copyInto(pack, claudeDir, `skills/${skill}/SKILL.md`, `skills/${skill}/SKILL.md`);
    for (const agent of AGENTS) copyInto(pack, claudeDir, `agents/${agent}.md`, `agents/${agent}.md`);
    for (const rel of SUPPORT) copyInto(pack, join(claudeDir, "gsd-core"), rel, `files/${rel}`);
    const HOOK = hookFiles(claudeDir);
    for (const rel of HOOK) copyInto(pack, claudeDir, rel, `files/${rel}`);
    // The support files bosun copies are the package's own where the anchor's installer left them alone.
    expect(readFileSync(join(pack, "files/references/checkpoints.md")).equals(readFileSync(join(packageDir, "gsd-core/references/checkpoints.md")))).toBe(true);

    const outcome = await install(t, { pack });
    expect(outcome.result.warnings).toEqual([]);
    expect(outcome.result.targets[0]!.target.desired!.notes.filter((note) => note.includes("frontmatter"))).toEqual([]);
    const root = join(t.home, ".claude");
    const same = (installed: string, original: string) => expect(readFileSync(join(root, installed)).equals(readFileSync(join(claudeDir, original))), installed).toBe(true);
    for (const skill of SKILLS) same(`skills/${skill}/SKILL.md`, `skills/${skill}/SKILL.md`);
    for (const agent of AGENTS) same(`agents/${agent}.md`, `agents/${agent}.md`);
    for (const rel of SUPPORT) same(`gsd-core/${rel}`, `gsd-core/${rel}`);
    for (const rel of HOOK) same(`gsd-core/${rel}`, rel);
    expect(statSync(join(root, "gsd-core/bin/gsd-tools.cjs")).mode & 0o111).not.toBe(0);
    // The variable was used: the planner names the support folder many times.
    expect(readFileSync(join(pack, "agents/gsd-planner.md"), "utf8")).toContain("{pack-dir}/");

    // The hook script's relative require of lib/ still resolves where bosun put it.
    const hook = spawnSync(process.execPath, [join(root, "gsd-core/hooks/gsd-context-monitor.js")], { input: "{}", env: { PATH: process.env.PATH, HOME: t.home }, encoding: "utf8", timeout: 15_000 });
    expect(hook.stderr).not.toMatch(/Cannot find module/);
    expect(hook.status).toBe(0);
  });
});
