// The real CLIs judge `bosun pack import` (offline): the pack made from a hand-made Claude Code
// setup loads in Codex 0.171.0 (its skill, and its command as a skill, in the model's prompt
// input) and OpenCode 1.18.33 (`debug skill`, `agent list`); gsd-core 1.14.0's pack, made from
// the anchor's Claude tree, loads in Claude Code (the stream-json init line lists its skills and
// agents) and in Codex.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack } from "../../scripts/anchor-packs.mjs";
import { runCli } from "../fixtures/cli.js";
import { stage } from "../fixtures/conformance.js";
import { claudeSetup } from "../fixtures/import-setup.js";
import { makeTempHome } from "../fixtures/temp-home.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The hand-made setup imported with the CLI (in its own home), as a pack folder. */
async function importedSetup(): Promise<string> {
  const source = makeTempHome();
  claudeSetup(source);
  const out = join(source.root, "my-setup");
  const result = await runCli(["pack", "import", "--runtime", "claude", "--out", out, "--files", "tools", "--files", "hooks"], source.env, source.root);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

function anchorPack(id: "opengsd-gsd-core" | "get-shit-done-cc"): string {
  const pin = ANCHOR_PACKS.find((entry) => entry.id === id)!;
  const found = findAnchorPack(id);
  if (!found) throw new Error(`the anchor ${pin.pkg}@${pin.version} is not here: run node scripts/anchor-packs.mjs install`);
  return buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: join(makeTempHome().root, "packs") });
}
const gsdPack = () => anchorPack("opengsd-gsd-core");

describe("an imported Claude Code setup in the real CLIs", () => {
  it("Codex lists its skill and its command", async () => {
    const s = stage("codex");
    const pack = await importedSetup();
    const installed = await s.bosun(["install", pack, "--runtime", "codex", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const run = await s.run(["debug", "prompt-input", "hello"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("\\n- review-notes: Write review notes (file: ");
    expect(run.stdout).toContain("\\n- ship: Ship the branch (file: ");
  }, 180_000);

  it("OpenCode lists its skill, command and agent", async () => {
    const s = stage("opencode");
    const pack = await importedSetup();
    const installed = await s.bosun(["install", pack, "--runtime", "opencode", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const skill = await s.run(["debug", "skill"]);
    expect(skill.code, skill.stderr).toBe(0);
    const text = skill.stdout.replace(ANSI, "");
    expect((JSON.parse(text.slice(text.indexOf("["))) as { name: string }[]).map((entry) => entry.name)).toContain("review-notes");
    const config = await s.run(["debug", "config"]);
    const parsed = JSON.parse(config.stdout.replace(ANSI, "")) as { command?: Record<string, unknown>; agent?: Record<string, { mode?: string }> };
    expect(Object.keys(parsed.command ?? {})).toContain("ship");
    expect(parsed.agent?.checker).toMatchObject({ mode: "subagent" });
  }, 180_000);
});

describe("gsd-core 1.14.0's imported pack in the real CLIs", () => {
  it("Claude Code's init line lists its skills and agents", async () => {
    const s = stage("claude");
    const pack = gsdPack();
    const installed = await s.bosun(["install", pack, "--runtime", "claude", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const run = await s.run(["-p", "--output-format", "stream-json", "--verbose", "hello"]);
    const init = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { type: string; subtype?: string; skills?: string[]; agents?: string[]; slash_commands?: string[] }).find((event) => event.subtype === "init");
    expect(init, run.stdout.slice(0, 300)).toBeDefined();
    expect(init!.agents).toEqual(expect.arrayContaining(["gsd-planner", "gsd-executor"]));
    expect(init!.skills).toEqual(expect.arrayContaining(["gsd-add-tests", "gsd-code-review"]));
    expect(init!.slash_commands).toEqual(expect.arrayContaining(["gsd-add-tests"]));
  }, 180_000);

  it("Codex shows the model its skills", async () => {
    const s = stage("codex");
    const installed = await s.bosun(["install", gsdPack(), "--runtime", "codex", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const run = await s.run(["debug", "prompt-input", "hello"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("\\n- gsd-add-tests: ");
  }, 180_000);
});

describe("get-shit-done 1.42.3's imported pack in Gemini CLI", () => {
  it("gemini skills list lists its skills, with no error", async () => {
    const s = stage("gemini");
    const installed = await s.bosun(["install", anchorPack("get-shit-done-cc"), "--runtime", "gemini", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const run = await s.run(["skills", "list"]);
    expect(run.code, run.stderr).toBe(0);
    const text = `${run.stdout}\n${run.stderr}`.replace(ANSI, "");
    const skills = [...text.matchAll(/^(\S+) \[(Enabled|Disabled)\]/gm)].map((match) => match[1]);
    expect(skills).toEqual(expect.arrayContaining(["gsd-code-review", "gsd-execute-phase"]));
    const problems = text.split("\n").filter((line) => !/^\s*Description:/.test(line) && /conflict|error|failed|invalid/i.test(line));
    expect(problems, problems.join("\n")).toEqual([]);
  }, 180_000);
});
