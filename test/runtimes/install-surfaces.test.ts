// The install facet of each runtime: its roots (global with the override chain, local), where
// each artifact kind goes in its own format, what it skips, the skill folders it also reads,
// and its rows of the config contract registry.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/install/pack/frontmatter.js";
import { collectContractRows, getInstallRuntime, listInstallRuntimes, UnknownInstallRuntimeError } from "../../src/runtimes/registry.js";
import { describeGlobalRoot, resolveGlobalRoot, resolveLocalRoot } from "../../src/runtimes/kit/install-roots.js";
import { isSkip } from "../../src/runtimes/kit/install-types.js";
import { listRuntimes } from "../../src/runtimes/registry.js";
import { install, uninstall } from "../fixtures/install.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const IDS = ["claude", "codex", "gemini", "opencode", "cursor", "copilot", "windsurf", "qwen", "kilo", "cline", "augment", "codebuddy", "trae", "hermes", "antigravity", "pi"];

/** Every file under a folder, relative, sorted. */
function files(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

describe("the install registry", () => {
  it("lists the sixteen runtimes; bosun agents keeps its eight", () => {
    expect(listInstallRuntimes().map((runtime) => runtime.id)).toEqual(IDS);
    expect(listRuntimes().map((runtime) => runtime.id)).toEqual(["a0", "claude", "codex", "gemini", "opencode", "cursor", "hermes", "grok"]);
    expect(getInstallRuntime(" Kilo ").id).toBe("kilo");
    expect(() => getInstallRuntime("aider")).toThrow(UnknownInstallRuntimeError);
    expect(() => getInstallRuntime("grok")).toThrow(/bosun installs into: claude, codex/);
  });
});

describe("roots", () => {
  const ctx = (env: Record<string, string> = {}) => ({ env, home: "/home/me", cwd: "/work/app" });
  const global = (id: string, env: Record<string, string> = {}, configDir?: string) => resolveGlobalRoot(getInstallRuntime(id).installSurface.globalRoot, ctx(env), configDir, () => false).dir;

  it("defaults under the home folder", () => {
    const expected: Record<string, string> = {
      claude: ".claude",
      codex: ".codex",
      gemini: ".gemini",
      opencode: ".config/opencode",
      cursor: ".cursor",
      copilot: ".copilot",
      windsurf: ".codeium/windsurf",
      qwen: ".qwen",
      kilo: ".config/kilo",
      cline: ".cline",
      augment: ".augment",
      codebuddy: ".codebuddy",
      trae: ".trae",
      hermes: ".hermes",
      antigravity: ".gemini/antigravity",
      pi: ".pi/agent",
    };
    for (const id of IDS) expect(global(id), id).toBe(join("/home/me", expected[id]!));
  });

  it("the override chain: the first variable set wins; blank ones are skipped; ~ is expanded; relative is from the working folder", () => {
    expect(global("claude", { CLAUDE_CONFIG_DIR: "/etc/claude" })).toBe("/etc/claude");
    expect(global("claude", { CLAUDE_CONFIG_DIR: "  " })).toBe("/home/me/.claude");
    expect(global("codex", { CODEX_HOME: "~/codex-home" })).toBe("/home/me/codex-home");
    expect(global("codex", { CODEX_HOME: "rel" })).toBe("/work/app/rel");
    expect(global("gemini", { GEMINI_CLI_HOME: "/g" })).toBe("/g/.gemini");
    expect(global("opencode", { OPENCODE_CONFIG_DIR: "/oc", OPENCODE_CONFIG: "/x/opencode.json", XDG_CONFIG_HOME: "/xdg" })).toBe("/oc");
    expect(global("opencode", { OPENCODE_CONFIG: "/x/opencode.json", XDG_CONFIG_HOME: "/xdg" })).toBe("/x");
    expect(global("opencode", { XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/opencode");
    expect(global("opencode", { XDG_CONFIG_HOME: "relative" })).toBe("/home/me/.config/opencode");
    expect(global("kilo", { KILO_CONFIG: "/k/kilo.jsonc" })).toBe("/k");
    expect(global("copilot", { COPILOT_HOME: "/ch" })).toBe("/ch");
    expect(global("copilot", { COPILOT_CONFIG_DIR: "/cc", COPILOT_HOME: "/ch" })).toBe("/cc");
    for (const [id, name] of [["cursor", "CURSOR_CONFIG_DIR"], ["windsurf", "WINDSURF_CONFIG_DIR"], ["qwen", "QWEN_CONFIG_DIR"], ["cline", "CLINE_CONFIG_DIR"], ["augment", "AUGMENT_CONFIG_DIR"], ["codebuddy", "CODEBUDDY_CONFIG_DIR"], ["trae", "TRAE_CONFIG_DIR"], ["hermes", "HERMES_HOME"], ["antigravity", "ANTIGRAVITY_CONFIG_DIR"], ["pi", "PI_CODING_AGENT_DIR"]] as const) {
      expect(global(id, { [name]: "/over" }), id).toBe("/over");
    }
    expect(describeGlobalRoot(getInstallRuntime("opencode").installSurface.globalRoot)).toBe("$OPENCODE_CONFIG_DIR → dirname($OPENCODE_CONFIG) → $XDG_CONFIG_HOME/opencode → ~/.config/opencode");
  });

  it("--config-dir beats the environment", () => {
    expect(global("claude", { CLAUDE_CONFIG_DIR: "/etc/claude" }, "~/mine")).toBe("/home/me/mine");
  });

  it("Antigravity probes its three folder names: the one with bosun's manifest, else the first that exists", () => {
    const spec = getInstallRuntime("antigravity").installSurface.globalRoot;
    const at = (present: string[]) => resolveGlobalRoot(spec, ctx(), undefined, (path) => present.includes(path)).dir;
    expect(at(["/home/me/.gemini/antigravity-cli"])).toBe("/home/me/.gemini/antigravity-cli");
    expect(at(["/home/me/.gemini/antigravity-ide", "/home/me/.gemini/antigravity-cli", "/home/me/.gemini/antigravity-cli/bosun-manifest.json"])).toBe("/home/me/.gemini/antigravity-cli");
    expect(at([])).toBe("/home/me/.gemini/antigravity");
  });

  it("local roots are in the working folder (Cline's is the folder itself)", () => {
    expect(resolveLocalRoot(getInstallRuntime("copilot"), ctx())?.dir).toBe("/work/app/.github");
    expect(resolveLocalRoot(getInstallRuntime("antigravity"), ctx())?.dir).toBe("/work/app/.agents");
    expect(resolveLocalRoot(getInstallRuntime("cline"), ctx())?.dir).toBe("/work/app");
  });
});

describe("bosun's own pack in each runtime's format", () => {
  it("global: every artifact where the runtime loads it, skipped kinds said so", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { runtimes: IDS });
    const at = (path: string) => join(t.home, path);
    const refs = ["a0", "claude", "codex", "cursor", "gemini", "grok", "hermes", "opencode"].map((agent) => `skills/bosun-orchestrator/references/${agent}.md`);
    const skill = ["skills/bosun-orchestrator/SKILL.md", ...refs];
    expect(files(at(".claude")).filter((file) => !file.startsWith("bosun-"))).toEqual(["agents/bosun-reviewer.md", "commands/bosun-delegate.md", "commands/bosun-status.md", "settings.json", ...skill].sort());
    // Codex: skills under ~/.agents/skills; commands become skills in ~/.codex/skills; hooks in hooks.json (no Codex
    // is installed here, so it gets the newest contract: no hooks flag, see test/install/cli-contract.test.ts);
    // config.toml holds only bosun's MCP server.
    expect(files(at(".agents/skills"))).toEqual(["bosun-orchestrator/SKILL.md", ...refs.map((ref) => ref.replace("skills/", ""))].sort());
    expect(files(at(".codex")).filter((file) => !file.startsWith("bosun-"))).toEqual(["config.toml", "hooks.json", "skills/bosun-delegate/SKILL.md", "skills/bosun-status/SKILL.md"]);
    expect(readFileSync(at(".codex/config.toml"), "utf8")).toMatch(/^# >>> bosun: \[mcp_servers\.bosun\][^\n]*\n\[mcp_servers\.bosun\]\ncommand = "node"\nargs = \[[^\n]*"mcp", "serve"\]\n# <<< bosun: \[mcp_servers\.bosun\] <<<\n$/);
    const codexCommand = parseFrontmatter(readFileSync(at(".codex/skills/bosun-status/SKILL.md"), "utf8"), "x");
    expect(codexCommand.data).toEqual({ name: "bosun-status", description: expect.stringContaining("installed and signed in") });
    expect(codexCommand.body).not.toContain("$ARGUMENTS");
    // Gemini: TOML commands with {{args}}; its skills are skipped because it reads ~/.agents/skills.
    const gemini = parseToml(readFileSync(at(".gemini/commands/bosun-delegate.toml"), "utf8")) as { description: string; prompt: string };
    expect(gemini.description).toMatch(/Hand a task/);
    expect(gemini.prompt).toContain("{{args}}");
    expect(existsSync(at(".gemini/skills"))).toBe(false);
    expect(JSON.parse(readFileSync(at(".gemini/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].timeout).toBe(10_000);
    // OpenCode: its own skill copy (it lists a skill once, from its own folder), agents are sub-agents, no session-start hook;
    // bosun's MCP server in opencode.json.
    expect(files(at(".config/opencode")).filter((file) => !file.startsWith("bosun-"))).toEqual(["agents/bosun-reviewer.md", "commands/bosun-delegate.md", "commands/bosun-status.md", "opencode.json", ...skill].sort());
    expect(parseFrontmatter(readFileSync(at(".config/opencode/agents/bosun-reviewer.md"), "utf8"), "x").data).toMatchObject({ mode: "subagent" });
    // Cursor: commands are plain markdown.
    expect(readFileSync(at(".cursor/commands/bosun-status.md"), "utf8")).toMatch(/^# Show which coding agents/);
    expect(JSON.parse(readFileSync(at(".cursor/hooks.json"), "utf8"))).toMatchObject({ version: 1, hooks: { sessionStart: [{ command: expect.stringContaining("bosun-hook.mjs session-start") }] } });
    // Copilot: *.agent.md and a hooks file.
    expect(files(at(".copilot")).filter((file) => !file.startsWith("bosun-"))).toEqual(["agents/bosun-reviewer.agent.md", "hooks/bosun-session-start.json", ...skill].sort());
    expect(parseFrontmatter(readFileSync(at(".copilot/agents/bosun-reviewer.agent.md"), "utf8"), "x").data).toMatchObject({ name: "bosun-reviewer", tools: ["Read", "Grep", "Glob", "Bash"] });
    // Kilo's singular command/; Hermes's category folder; pi's prompts with $@.
    expect(files(at(".config/kilo/command"))).toEqual(["bosun-delegate.md", "bosun-status.md"]);
    expect(files(at(".hermes/skills"))).toEqual(["bosun/DESCRIPTION.md", ...skill.map((file) => file.replace("skills/", "bosun/"))].sort());
    expect(readFileSync(at(".pi/agent/prompts/bosun-delegate.md"), "utf8")).toContain("skill: $@");
    // What each runtime skipped, and why.
    const skipped = Object.fromEntries(outcome.result.targets.map(({ target }) => [target.runtime.id, (target.desired?.skipped ?? []).map((entry) => `${entry.kind} ${entry.name}`)]));
    expect(skipped.claude).toEqual([]);
    expect(skipped.codex).toEqual(["agent bosun-reviewer"]);
    expect(skipped.gemini).toEqual(["skill bosun-orchestrator"]);
    expect(skipped.opencode).toEqual(["hook bosun-session-start"]);
    // Runtimes bosun writes no MCP servers for skip bosun's own, with the reason.
    expect(skipped.windsurf).toEqual(["skill bosun-orchestrator", "command bosun-status", "command bosun-delegate", "hook bosun-session-start", "mcp server bosun"]);
    expect(skipped.trae).toEqual(["command bosun-status", "command bosun-delegate", "hook bosun-session-start", "mcp server bosun"]);
    for (const id of ["claude", "codex", "gemini", "opencode", "cursor", "qwen"]) expect(skipped[id], id).not.toContain("mcp server bosun");
    expect(outcome.result.targets.find(({ target }) => target.runtime.id === "codex")!.target.desired!.notes.join(" ")).toMatch(/only after you trust it/);
  });

  it("local: project folders, Gemini's trust note, Codex skipping what it reads from .agents/skills, Cline's state out of .clinerules", async () => {
    const t = makeTempHome();
    const project = join(t.root, "project");
    const outcome = await install(t, { runtimes: IDS, scope: "local", cwd: project });
    const at = (path: string) => join(project, path);
    expect(files(at(".claude")).some((file) => file === "settings.local.json")).toBe(true);
    expect(existsSync(at(".claude/settings.json"))).toBe(false);
    expect(files(at(".windsurf/workflows"))).toEqual(["bosun-delegate.md", "bosun-status.md"]);
    expect(files(at(".clinerules"))).toEqual(["workflows/bosun-delegate.md", "workflows/bosun-status.md"]);
    expect(existsSync(at(".bosun/cline/bosun-manifest.json"))).toBe(true);
    expect(existsSync(at(".agents/skills/bosun-orchestrator/SKILL.md"))).toBe(true);
    const codex = outcome.result.targets.find(({ target }) => target.runtime.id === "codex")!.target.desired!;
    expect(codex.skipped.map((entry) => entry.name)).toContain("bosun-orchestrator");
    expect(codex.notes.join(" ")).toMatch(/trusted project/);
    expect(outcome.result.targets.find(({ target }) => target.runtime.id === "gemini")!.target.desired!.notes.join(" ")).toMatch(/ignores a project's .* until the folder is trusted/);
    await uninstall(t, { runtimes: IDS, scope: "local", cwd: project });
    expect(existsSync(at(".bosun"))).toBe(false);
    expect(files(project)).toEqual([]);
  });

  it("a skill another runtime already has where this one reads is skipped; a note says where an installed runtime now has a duplicate", async () => {
    const t = makeTempHome();
    await install(t, { runtimes: ["codex"] });
    const gemini = await install(t, { runtimes: ["gemini"] });
    expect(gemini.result.targets[0]!.target.desired!.skipped[0]!.reason).toBe("Gemini CLI also reads ~/.agents/skills, where bosun installed it for codex");
    // GEMINI_CLI_HOME moves the shared folder Gemini reads: nothing there, so it keeps its own copy.
    const t2 = makeTempHome();
    const elsewhere = { ...t2.env, GEMINI_CLI_HOME: join(t2.root, "gemini-home") };
    await install(t2, { runtimes: ["codex"], env: elsewhere });
    await install(t2, { runtimes: ["gemini"], env: elsewhere });
    expect(existsSync(join(t2.root, "gemini-home/.gemini/skills/bosun-orchestrator/SKILL.md"))).toBe(true);
    const t3 = makeTempHome();
    await install(t3, { runtimes: ["gemini"] });
    const later = await install(t3, { runtimes: ["codex"] });
    expect(later.notes).toEqual(["Gemini CLI also reads ~/.agents/skills and has its own copy of bosun-orchestrator: run bosun install --runtime gemini --scope global to drop the duplicate"]);
    const again = await install(t3, { runtimes: ["gemini"] });
    expect(again.result.targets[0]!.roots[0]!.plan.actions.filter((action) => action.type === "remove-managed")).toHaveLength(9);
    // OpenCode lists a skill once whatever else has it: Claude Code's copy changes nothing for it.
    const t4 = makeTempHome();
    await install(t4, { runtimes: ["claude"] });
    const opencode = await install(t4, { runtimes: ["opencode"] });
    expect(opencode.result.targets[0]!.target.desired!.skipped.map((entry) => entry.kind)).toEqual(["hook"]);
  });
});

describe("the runtime config contract registry", () => {
  it("every runtime has rows, with an id of its own and every column filled", () => {
    const rows = collectContractRows();
    for (const id of IDS) expect(rows.some((row) => row.id.startsWith(`${id}.`)), id).toBe(true);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) for (const value of [row.surface, row.what, row.where.global, row.where.local, row.when, row.owner, row.why, row.checkedAgainst]) expect(value.trim(), row.id).not.toBe("");
  });

  it("every config edit a layout makes names a row, and every placed artifact kind has one", () => {
    const ids = new Set(collectContractRows().map((row) => row.id));
    for (const runtime of listInstallRuntimes()) {
      for (const scope of ["global", "local"] as const) {
        const layout = runtime.installSurface.layout(scope);
        if (!isSkip(layout.hooks)) {
          expect(ids.has(layout.hooks.register.contract), `${runtime.id} ${layout.hooks.register.contract}`).toBe(true);
          if (layout.hooks.toml) expect(ids.has(layout.hooks.toml.contract)).toBe(true);
        }
        for (const kind of ["skills", "commands", "agents"] as const) {
          if (isSkip(layout[kind])) continue;
          const row = kind === "commands" && !isSkip(layout.commands) && layout.commands.format === "skill" ? `${runtime.id}.skills` : `${runtime.id}.${kind}`;
          expect(ids.has(row), `${runtime.id} ${kind}`).toBe(true);
        }
      }
    }
  });
});
