// `bosun pack import`: a small hand-made Claude Code setup (a skill with a file, a command, an
// agent, a hook with its script, a status line, permissions and an env with a key-shaped value,
// plus a file bosun itself installed) made into a pack, and that pack installed into Codex and
// OpenCode. Bad input is one line and writes nothing.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { install } from "../fixtures/install.js";
import { claudeSetup, KEY } from "../fixtures/import-setup.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

describe("bosun pack import", () => {
  it("makes a pack of a Claude Code setup that Codex and OpenCode install", async () => {
    const t = makeTempHome();
    claudeSetup(t);
    const out = join(t.root, "my-setup");
    const result = await runCli(["pack", "import", "--runtime", "claude", "--out", out, "--files", "tools", "--files", "hooks", "--json"], t.env, t.root);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.imported.skills).toEqual(["review-notes"]);
    expect(report.imported.commands).toEqual(["ship"]);
    expect(report.imported.agents).toEqual(["checker"]);
    expect(report.secrets).toEqual(["ANTHROPIC_API_KEY"]);
    expect(report.check.find((check: { runtime: string }) => check.runtime === "codex").ok).toBe(true);
    const whys = Object.fromEntries(report.skipped.map((skip: { what: string; why: string }) => [skip.what, skip.why]));
    expect(whys[".credentials.json"]).toMatch(/runtime's own state/);
    expect(whys["projects"]).toMatch(/runtime's own state/);
    expect(whys["settings.json: hooks.Notification[0].hooks[0]"]).toMatch(/not a command hook/);
    expect(whys["settings.json: permissions.defaultMode"]).toMatch(/allow, deny and ask/);

    const pack = JSON.parse(readFileSync(join(out, "pack.json"), "utf8"));
    expect(pack).toMatchObject({ name: "my-setup", version: "0.1.0", artifacts: { skills: ["review-notes"], commands: ["ship"], agents: ["checker"] } });
    expect(pack.settings.env).toEqual({ ANTHROPIC_API_KEY: "{env:ANTHROPIC_API_KEY}", LOG_LEVEL: "debug" });
    expect(readFileSync(join(out, "pack.json"), "utf8")).not.toContain(KEY);
    expect(pack.settings.statusLine.command).toBe("node {pack-dir}/hooks/guard.js");
    expect(pack.settings.permissions).toEqual({ allow: ["Bash(npm test:*)"] });
    // Text: `~/.claude/tools` (carried) is {pack-dir}/tools; the absolute folder elsewhere is {config-dir}.
    expect(readFileSync(join(out, "skills/review-notes/SKILL.md"), "utf8")).toContain("Read {pack-dir}/tools/notes.md first, and run {pack-dir}/tools/bin/lint.sh.");
    expect(readFileSync(join(out, "skills/review-notes/references/style.md"), "utf8")).toBe("Style guide; see {config-dir}/CLAUDE.md.\n");
    expect(statSync(join(out, "files/tools/bin/lint.sh")).mode & 0o111).not.toBe(0);
    const hooks = readdirSync(join(out, "hooks")).sort();
    expect(hooks).toEqual(["guard.json", "lint.json"]);
    expect(JSON.parse(readFileSync(join(out, "hooks/guard.json"), "utf8"))).toEqual({ event: "pre-tool", command: `"${process.execPath}" {pack-dir}/hooks/guard.js`, timeout: 30, matcher: "Bash" });
    expect(JSON.parse(readFileSync(join(out, "hooks/lint.json"), "utf8"))).toEqual({ event: "session-start", command: "bash {pack-dir}/tools/bin/lint.sh" });

    const opencode = makeTempHome();
    await install(opencode, { pack: out, runtimes: ["opencode"] });
    const openDir = join(opencode.home, ".config/opencode");
    expect(readFileSync(join(openDir, "agents/checker.md"), "utf8")).toContain("mode: subagent");
    expect(existsSync(join(openDir, "commands/ship.md"))).toBe(true);
    expect(existsSync(join(openDir, "my-setup/tools/bin/lint.sh"))).toBe(true);
    const codex = makeTempHome();
    await install(codex, { pack: out, runtimes: ["codex"] });
    expect(existsSync(join(codex.home, ".codex/skills/ship/SKILL.md"))).toBe(true);
    expect(readFileSync(join(codex.home, ".agents/skills/review-notes/SKILL.md"), "utf8")).toContain(`${join(codex.home, ".codex/my-setup")}`.replace(codex.home, "~"));
    const codexHooks = JSON.parse(readFileSync(join(codex.home, ".codex/hooks.json"), "utf8"));
    expect(codexHooks.hooks.PreToolUse[0].hooks[0].command).toBe(`"${process.execPath}" ${join(codex.home, ".codex/my-setup/hooks/guard.js")}`);
  });

  it("leaves out what bosun installed", async () => {
    const t = makeTempHome();
    claudeSetup(t);
    await install(t, { pack: join(import.meta.dirname, "../fixtures/packs/demo-v1"), runtimes: ["claude"] });
    const out = join(t.root, "mine");
    const result = await runCli(["pack", "import", "--runtime", "claude", "--out", out, "--json"], t.env, t.root);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.skipped.some((skip: { why: string }) => /installed by bosun \(pack demo\)/.test(skip.why) || /written by bosun/.test(skip.why))).toBe(true);
    expect(report.skipped.find((skip: { what: string }) => skip.what === "bosun-manifest.json")?.why).toMatch(/bosun's own record/);
    expect(report.imported.skills).toEqual(["review-notes"]);
  });

  const bad: [string, (t: TempHome) => string[], RegExp][] = [
    ["an unknown runtime", () => ["--runtime", "nope"], /^bosun: --runtime: unknown runtime "nope"/],
    ["a runtime import does not read", () => ["--runtime", "cursor"], /^bosun: --runtime cursor: bosun pack import reads claude, codex, gemini, opencode/],
    ["no such folder", () => ["--runtime", "gemini"], /there is no Gemini CLI folder at .*\.gemini/],
    ["--files escaping the folder", () => ["--runtime", "claude", "--files", "../elsewhere"], /--files "\.\.\/elsewhere": name a folder inside/],
    ["--files naming runtime state", () => ["--runtime", "claude", "--files", "projects"], /runtime's own state/],
    ["an out folder that is not empty", (t) => (t.write("full/x", "x"), ["--runtime", "claude", "--out", join(t.root, "full")]), /the folder is not empty/],
  ];
  for (const [what, args, message] of bad) {
    it(`refuses ${what} in one line, writing nothing`, async () => {
      const t = makeTempHome();
      claudeSetup(t);
      t.write("elsewhere/x", "x");
      const argv = args(t);
      const before = readdirSync(t.root).sort();
      const result = await runCli(["pack", "import", ...argv, "--name", "p"], t.env, t.root);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(message);
      expect(readdirSync(t.root).sort()).toEqual(before);
    });
  }
});
