import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedSkills, type InstalledArtifact } from "../../src/doctor/artifacts.js";
import { emptyManifest, type Manifest } from "../../src/install/records/manifest.js";
import { loadVerdict } from "../../src/doctor/loaded.js";
import { parseClaudeStream, claudeInitSeen } from "../../src/doctor/probes/claude.js";
import { codexAnswered, parseCodexAppServer } from "../../src/doctor/probes/codex.js";
import { parseGeminiSkills } from "../../src/doctor/probes/gemini.js";
import { parseOpencode } from "../../src/doctor/probes/opencode.js";

// Captured from the pinned real CLIs (claude 2.1.197, codex 0.171.0, gemini 0.61.0, opencode
// 1.18.33), run offline in a temp home after `bosun install --runtime claude,codex,gemini,opencode
// --scope global` (Claude's again after bosun's pack registered its MCP server, which Claude
// started and lists as connected); "broken" after replacing Gemini's agent file by one without frontmatter and
// adding a second bosun-status skill in ~/.gemini/skills.
const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), "utf8");
const HOME = "/root/.cache/doc-probe/home";
const HOME2 = "/root/.cache/doc-probe/home2";

const artifact = (kind: InstalledArtifact["kind"], name: string, file: string, extra: Partial<InstalledArtifact> = {}): InstalledArtifact => ({ kind, name, pack: "bosun", file, ...extra });

describe("Claude's stream-json init event", () => {
  const stdout = captured("claude-stream-global.jsonl");
  const listing = parseClaudeStream(stdout)!;

  it("lists the skills, commands and agents Claude loaded, and how its SessionStart hooks ran", () => {
    expect(claudeInitSeen(stdout)).toBe(true);
    expect(listing.skills!.map((item) => item.name)).toContain("bosun-orchestrator");
    expect(listing.commands!.map((item) => item.name)).toEqual(expect.arrayContaining(["bosun-status", "bosun-delegate"]));
    expect(listing.agents!.map((item) => item.name)).toContain("bosun-reviewer");
    expect(listing.hooks).toEqual([{ event: "SessionStart", ran: { ok: true, exitCode: 0, printedBosunLine: true } }]);
    expect(listing.mcpServers).toEqual([{ name: "bosun" }]);
  });

  it("matches bosun's artifacts by name, and says which are not there", () => {
    const place = (a: InstalledArtifact) => ({ artifact: a, scope: "global" as const, rootDir: `${HOME}/.claude` });
    expect(loadVerdict(place(artifact("skill", "bosun-orchestrator", "skills/bosun-orchestrator/SKILL.md")), listing, "claude").state).toBe("loaded");
    expect(loadVerdict(place(artifact("hook", "bosun-session-start", "settings.json", { event: "SessionStart" })), listing, "claude").state).toBe("loaded");
    expect(loadVerdict(place(artifact("skill", "bosun-gone", "skills/bosun-gone/SKILL.md")), listing, "claude")).toEqual({ state: "not-loaded", reason: "claude does not list it" });
  });

  it("judges another pack's hooks by how many on their event ran, and leaves other events unchecked", () => {
    const place = (a: InstalledArtifact, hooksOnEvent?: number) => ({ artifact: a, scope: "global" as const, rootDir: `${HOME}/.claude`, ...(hooksOnEvent ? { hooksOnEvent } : {}) });
    const gsd = (name: string, event: string) => artifact("hook", name, "settings.json", { pack: "gsd-core", event });
    const ran = (ok: boolean, bosun = false) => ({ event: "SessionStart", ran: { ok, exitCode: ok ? 0 : 2, printedBosunLine: bosun } });
    // bosun's own hook and two of gsd's ran (gsd's print nothing): all three are loaded.
    const three = { ...listing, hooks: [ran(true, true), ran(true), ran(true)] };
    expect(loadVerdict(place(gsd("gsd-session-state", "SessionStart"), 2), three, "claude")).toEqual({ state: "loaded" });
    expect(loadVerdict(place(artifact("hook", "bosun-session-start", "settings.json", { event: "SessionStart" })), three, "claude")).toEqual({ state: "loaded" });
    // One of gsd's two failed: Claude does not say whose run that was.
    const failed = { ...listing, hooks: [ran(true, true), ran(true), ran(false)] };
    expect(loadVerdict(place(gsd("gsd-session-state", "SessionStart"), 2), failed, "claude")).toEqual({ state: "not-loaded", reason: "a SessionStart hook ran and failed (exit 2); claude does not say which one" });
    expect(loadVerdict(place(gsd("gsd-session-state", "SessionStart"), 3), three, "claude")).toEqual({ state: "not-loaded", reason: "claude ran 2 of the 3 SessionStart hooks bosun registered" });
    // Claude runs no PreToolUse hook without a model, and lists none.
    expect(loadVerdict(place(gsd("gsd-prompt-guard", "PreToolUse")), listing, "claude")).toEqual({
      state: "unchecked",
      reason: "not checkable offline: claude lists no hooks, and runs only its SessionStart hooks before a model is asked",
    });
  });

  it("cannot tell an agent variant named after its base agent from that agent", () => {
    const variant = { artifact: artifact("agent", "bosun-reviewer.compact", "agents/bosun-reviewer.compact.md"), scope: "global" as const, rootDir: `${HOME}/.claude` };
    expect(loadVerdict({ ...variant, listedAs: "bosun-reviewer" }, listing, "claude")).toEqual({
      state: "unchecked",
      reason: "not checkable offline: its frontmatter names it bosun-reviewer, and claude lists an agent of that name without saying which file it took",
    });
    // Named after an agent Claude did not load: not loaded.
    expect(loadVerdict({ ...variant, listedAs: "bosun-gone" }, listing, "claude")).toEqual({ state: "not-loaded", reason: "claude does not list it" });
  });

  it("is null for output without an init event (garbage, a crash)", () => {
    expect(parseClaudeStream("Error: something\n{not json\n")).toBeNull();
    expect(claudeInitSeen('{"type":"system","subtype":"hook_started"}\n')).toBe(false);
  });
});

describe("Codex's app-server answers", () => {
  const stdout = captured("codex-app-server-global.jsonl");
  const listing = parseCodexAppServer(stdout)!;
  const place = (a: InstalledArtifact, scope: "global" | "local" = "global") => ({ artifact: a, scope, rootDir: `${HOME}/.agents` });

  it("lists each skill with the file it came from (commands are skills), and the hooks with their trust", () => {
    expect(codexAnswered(stdout)).toBe(true);
    expect(listing.commandsAsSkills).toBe(true);
    expect(listing.skills).toContainEqual({ name: "bosun-orchestrator", path: `${HOME}/.agents/skills/bosun-orchestrator/SKILL.md` });
    expect(listing.hooks).toEqual([{ event: "sessionStart", command: `node ${HOME}/.local/share/bosun/bin/bosun-hook.mjs session-start`, sourcePath: `${HOME}/.codex/hooks.json`, trusted: false, enabled: true }]);
  });

  it("gives loaded, waiting for trust, shadowed, and untrusted project", () => {
    expect(loadVerdict(place(artifact("command", "bosun-status", "skills/bosun-status/SKILL.md")), listing, "codex").state).toBe("loaded");
    const hook = artifact("hook", "bosun-session-start", "hooks.json", { event: "sessionStart", command: `node ${HOME}/.local/share/bosun/bin/bosun-hook.mjs session-start` });
    expect(loadVerdict({ ...place(hook), rootDir: `${HOME}/.codex` }, listing, "codex").state).toBe("waiting");
    // Another folder's copy of a skill of the same name is what Codex loaded.
    expect(loadVerdict({ artifact: artifact("skill", "bosun-orchestrator", "skills/bosun-orchestrator/SKILL.md"), scope: "local", rootDir: "/p/.agents" }, listing, "codex").reason).toBe(`shadowed by another skill of the same name (${HOME}/.agents/skills/bosun-orchestrator/SKILL.md)`);
    // The same file, when bosun put it there for another runtime: that is bosun's skill, loaded.
    const shared = `${HOME}/.agents/skills/bosun-orchestrator/SKILL.md`;
    expect(loadVerdict({ artifact: artifact("skill", "bosun-orchestrator", "skills/bosun-orchestrator/SKILL.md"), scope: "local", rootDir: "/p/.agents" }, listing, "codex", new Set([shared]))).toEqual({ state: "loaded", reason: `from bosun's copy at ${shared}` });
    const projectHook = { ...hook, command: "node /p/hook.mjs" };
    expect(loadVerdict({ artifact: projectHook, scope: "local", rootDir: "/p/.codex" }, listing, "codex").reason).toMatch(/^untrusted folder/);
  });

  it("takes a skill Codex refused, with its reason, and is null when the answer is missing", () => {
    const refused = '{"id":0,"result":{}}\n{"id":1,"result":{"data":[{"cwd":"/p","skills":[],"errors":[{"path":"/p/.agents/skills/x/SKILL.md","message":"missing YAML frontmatter delimited by ---"}]}]}}\n';
    const listed = parseCodexAppServer(refused)!;
    expect(loadVerdict({ artifact: artifact("skill", "x", "skills/x/SKILL.md"), scope: "local", rootDir: "/p/.agents" }, listed, "codex")).toEqual({ state: "not-loaded", reason: "missing YAML frontmatter delimited by ---" });
    expect(listed.hooks).toBeUndefined();
    expect(parseCodexAppServer('{"id":0,"result":{}}\n{"id":1,"error":{"message":"no"}}\n')).toBeNull();
  });
});

describe("gemini skills list", () => {
  it("lists the skills with their location, and notes an untrusted folder", () => {
    const listing = parseGeminiSkills(captured("gemini-skills-global.stdout"), captured("gemini-skills-global.stderr"))!;
    expect(listing.skills).toContainEqual({ name: "bosun-orchestrator", path: `${HOME}/.agents/skills/bosun-orchestrator/SKILL.md` });
    expect(listing.untrustedFolder).toBe(true);
    expect(listing.agents).toBeUndefined();
    const agent = { artifact: artifact("agent", "bosun-reviewer", "agents/bosun-reviewer.md"), scope: "global" as const, rootDir: `${HOME}/.gemini` };
    expect(loadVerdict(agent, listing, "gemini")).toEqual({ state: "unchecked", reason: "not checkable offline: gemini has no offline list of its agents" });
  });

  it("takes Gemini's own reasons: an agent file it could not load, a skill another one overrides", () => {
    const listing = parseGeminiSkills(captured("gemini-skills-broken.stdout"), captured("gemini-skills-broken.stderr"))!;
    const agent = { artifact: artifact("agent", "bosun-reviewer", "agents/bosun-reviewer.md"), scope: "global" as const, rootDir: `${HOME2}/.gemini` };
    const verdict = loadVerdict(agent, listing, "gemini");
    expect(verdict.state).toBe("not-loaded");
    expect(verdict.reason).toMatch(/^Invalid agent definition: Missing mandatory YAML frontmatter/);
    expect(verdict.reason!.length).toBeLessThanOrEqual(160);
    const skill = { artifact: artifact("skill", "bosun-status", "skills/bosun-status/SKILL.md"), scope: "global" as const, rootDir: `${HOME2}/.gemini` };
    expect(loadVerdict(skill, listing, "gemini")).toEqual({ state: "not-loaded", reason: `shadowed by another skill of the same name (${HOME2}/.agents/skills/bosun-status/SKILL.md)` });
  });

  it("is null for output that is no skill list", () => {
    expect(parseGeminiSkills("\u001b[31mboom\u001b[0m\n", "")).toBeNull();
  });
});

describe("opencode debug config / debug skill", () => {
  const listing = parseOpencode(captured("opencode-debug-config-global.json"), captured("opencode-debug-skill-global.json"))!;

  it("lists commands, agents and skills (with their location)", () => {
    expect(listing.commands!.map((item) => item.name)).toEqual(["bosun-delegate", "bosun-status"]);
    expect(listing.agents!.map((item) => item.name)).toEqual(["bosun-reviewer"]);
    expect(listing.skills).toContainEqual({ name: "bosun-orchestrator", path: `${HOME}/.agents/skills/bosun-orchestrator/SKILL.md` });
    expect(listing.errors).toEqual([]);
  });

  it("reports an agent whose frontmatter OpenCode could not read (it makes it a primary agent)", () => {
    const config = JSON.stringify({ agent: { "bosun-reviewer": { mode: "all", prompt: "---\nname: x\n  bad: [\n---\nbody" } }, command: {} });
    const broken = parseOpencode(`\u001b[0m${config}`, null)!;
    const place = { artifact: artifact("agent", "bosun-reviewer", "agents/bosun-reviewer.md"), scope: "global" as const, rootDir: "/h/.config/opencode" };
    expect(loadVerdict(place, broken, "opencode").reason).toMatch(/frontmatter did not parse/);
    expect(broken.skills).toBeUndefined();
    expect(parseOpencode("Error: Configuration is invalid", null)).toBeNull();
  });
});

describe("skills read from a shared folder", () => {
  const manifest = (packs: Record<string, string[]>, held: string[] = []): Manifest => {
    const m = emptyManifest();
    for (const [pack, files] of Object.entries(packs)) {
      m.packs[pack] = { version: "1.0.0", installedAt: "t", updatedAt: "t", files, ...(held.includes(pack) ? { heldFor: ["gemini global"] } : {}) };
      for (const file of files) m.files[file] = "sha256:x";
    }
    return m;
  };

  it("are the root's packs' skills in the shared root that the root has no copy of", () => {
    // Gemini's root: gsd-core's agents, no skill copies (Codex put them in ~/.agents/skills); bosun's pack with its own copy.
    const own = manifest({ "gsd-core": ["agents/gsd-planner.md"], bosun: ["skills/bosun-orchestrator/SKILL.md"] });
    const shared = manifest({ "gsd-core": ["skills/gsd-help/SKILL.md", "skills/gsd-help/references/x.md", "skills/gsd-ship/SKILL.md"], bosun: ["skills/bosun-orchestrator/SKILL.md"], other: ["skills/not-ours/SKILL.md"] });
    expect(sharedSkills(own, shared, "skills")).toEqual([
      { kind: "skill", name: "gsd-help", pack: "gsd-core", file: "skills/gsd-help/SKILL.md" },
      { kind: "skill", name: "gsd-ship", pack: "gsd-core", file: "skills/gsd-ship/SKILL.md" },
    ]);
    // A pack uninstalled from the root (its skills only held there for another runtime) has none.
    expect(sharedSkills(manifest({ "gsd-core": [] }, ["gsd-core"]), shared, "skills")).toEqual([]);
  });
});
