// `bosun mcp sync`: the servers of bosun.json written into the agents installed here (global ones
// into their user config, a project's into the project) through the installer, settled when
// nothing changed, a server removed when it leaves bosun.json, every entry gone when none is left,
// and bad input refused in one line with nothing written. The real CLIs reading the result:
// test/real/mcp-real.test.ts.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
/** The home's files but bosun's own (its data, state and log): what the agents see. */
const agentFiles = (t: TempHome) => Object.fromEntries(Object.entries(snapshotTree(t.home)).filter(([rel]) => rel !== "." && rel !== ".local" && !rel.startsWith(".local/")));
const PROBE = { command: "probe-server", args: ["--stdio"], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}" } };

/** A home where Claude Code, Gemini CLI and OpenCode are installed (their folders exist), and a git project in it. */
function world(): { t: TempHome; project: string } {
  const t = makeTempHome();
  for (const dir of [".claude", ".gemini", ".config/opencode"]) mkdirSync(join(t.home, dir), { recursive: true });
  const project = join(t.home, "work/app");
  mkdirSync(join(project, ".git"), { recursive: true });
  return { t, project };
}

const globalConfig = (t: TempHome, value: unknown) => t.write(join(t.paths.config, "bosun.json"), JSON.stringify(value, null, 2));
const projectConfig = (t: TempHome, project: string, value: unknown) => t.write(join(project, ".bosun/bosun.json"), JSON.stringify(value, null, 2));

describe("bosun mcp sync", () => {
  it("writes the global servers into every installed agent with MCP, in each one's format; again it changes nothing; a server gone from bosun.json is removed, and with none left every entry bosun wrote goes", () => {
    const { t, project } = world();
    const mine = '{\n  "numStartups": 2,\n  "mcpServers": { "mine": { "type": "stdio", "command": "mine", "args": [], "env": {} } }\n}\n';
    t.write(join(t.home, ".claude.json"), mine);
    globalConfig(t, { mcp: { probe: PROBE, docs: { url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer {env:DOCS_TOKEN}" } } } });

    const dry = runBin(["mcp", "sync", "--dry-run"], t.env, project);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("+ mcp server probe in .claude.json starts probe-server --stdio (env PROBE_TOKEN)");
    expect(dry.stdout).toContain("+ mcp server docs in settings.json connects to https://docs.example.com/mcp");
    expect(readFileSync(join(t.home, ".claude.json"), "utf8"), "a dry run writes nothing").toBe(mine);

    const first = runBin(["mcp", "sync", "--yes"], t.env, project);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("global MCP servers of bosun.json (docs, probe) → claude, gemini, opencode");
    const claude = read(join(t.home, ".claude.json"));
    expect(claude.numStartups).toBe(2);
    expect(claude.mcpServers).toEqual({
      mine: { type: "stdio", command: "mine", args: [], env: {} },
      probe: { type: "stdio", command: "probe-server", args: ["--stdio"], env: { PROBE_TOKEN: "${PROBE_TOKEN}" } },
      docs: { type: "http", url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } },
    });
    expect(read(join(t.home, ".gemini/settings.json")).mcpServers.docs).toEqual({ httpUrl: "https://docs.example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } });
    expect(read(join(t.home, ".config/opencode/opencode.json")).mcp.probe).toEqual({ type: "local", command: ["probe-server", "--stdio"], environment: { PROBE_TOKEN: "{env:PROBE_TOKEN}" }, enabled: true });
    // Not installed here: no Cursor folder was made.
    expect(existsSync(join(t.home, ".cursor"))).toBe(false);

    const before = agentFiles(t);
    const again = runBin(["mcp", "sync", "--yes"], t.env, project);
    expect(again.code, again.stderr).toBe(0);
    expect(agentFiles(t), "a second sync changes nothing").toEqual(before);

    globalConfig(t, { mcp: { probe: PROBE } });
    expect(runBin(["mcp", "sync", "--yes"], t.env, project).code).toBe(0);
    expect(Object.keys(read(join(t.home, ".claude.json")).mcpServers)).toEqual(["mine", "probe"]);
    expect(read(join(t.home, ".gemini/settings.json")).mcpServers).toEqual({ probe: { command: "probe-server", args: ["--stdio"], env: { PROBE_TOKEN: "${PROBE_TOKEN}" } } });

    globalConfig(t, {});
    const removed = runBin(["mcp", "sync", "--yes", "--json"], t.env, project);
    expect(removed.code, removed.stderr).toBe(0);
    expect((JSON.parse(removed.stdout) as { runs: { scope: string; mode: string }[] }).runs.map((run) => `${run.scope} ${run.mode}`)).toEqual(["global uninstall"]);
    expect(readFileSync(join(t.home, ".claude.json"), "utf8"), "your file as it was").toBe(mine);
    expect(existsSync(join(t.home, ".gemini/settings.json")), "the file bosun created is gone").toBe(false);

    const nothing = runBin(["mcp", "sync"], t.env, project);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain("nothing to sync");
  });

  it("a project's servers go into the project (.mcp.json, .gemini/settings.json, opencode.json), from its subfolders too; a project entry of the same name as a global one is the project's", () => {
    const { t, project } = world();
    globalConfig(t, { mcp: { probe: PROBE } });
    projectConfig(t, project, { mcp: { probe: { command: "project-probe" }, tracker: { command: "tracker", args: ["--project", "{config-dir}"] } } });
    mkdirSync(join(project, "src/deep"), { recursive: true });
    const run = runBin(["mcp", "sync", "--yes", "--runtime", "claude,opencode", "--json"], t.env, join(project, "src/deep"));
    expect(run.code, run.stderr).toBe(0);
    const runs = (JSON.parse(run.stdout) as { runs: { scope: string; servers: string[] }[] }).runs;
    expect(runs.map((entry) => `${entry.scope}: ${entry.servers.join(",")}`)).toEqual(["global: probe", "local: probe,tracker"]);
    expect(read(join(t.home, ".claude.json")).mcpServers.probe.command).toBe("probe-server");
    expect(read(join(project, ".mcp.json")).mcpServers).toEqual({
      probe: { type: "stdio", command: "project-probe", args: [], env: {} },
      tracker: { type: "stdio", command: "tracker", args: ["--project", join(project, ".claude")], env: {} },
    });
    expect(read(join(project, "opencode.json")).mcp.tracker.command).toEqual(["tracker", "--project", join(project, ".opencode")]);
    expect(existsSync(join(project, "src/deep/.mcp.json"))).toBe(false);
    expect(existsSync(join(project, ".gemini")), "only the runtimes named").toBe(false);
  });

  it("a server of yours with the same name is a question: without a terminal nothing is written and the error says what to do", () => {
    const { t, project } = world();
    const mine = '{\n  "mcpServers": { "probe": { "type": "stdio", "command": "my-probe", "args": [], "env": {} } }\n}\n';
    t.write(join(t.home, ".claude.json"), mine);
    globalConfig(t, { mcp: { probe: PROBE } });
    const before = agentFiles(t);
    const run = runBin(["mcp", "sync", "--runtime", "claude"], t.env, project);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/needs your choice \(\.claude\.json\)/);
    expect(agentFiles(t)).toEqual(before);
  });

  it("bad input is one line naming what to fix, and nothing is written", () => {
    const cases: [unknown, string[], RegExp][] = [
      [{ mcp: { probe: { command: "x", env: { API_KEY: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345" } } } }, [], /bosun\.json:6: mcp\.probe\.env\.API_KEY: looks like a key or token in clear; write \{env:API_KEY\}/],
      [{ mcp: { probe: { command: "node", args: ["{pack-dir}/x.mjs"] } } }, [], /bosun\.json: mcp\.probe\.args\[0\]: \{pack-dir\} is a pack's support folder, and a server of bosun\.json has none: write the path itself/],
      [{ mcp: { bosun: { command: "{bosun}", args: ["mcp", "serve"] } } }, [], /bosun\.json: mcp\.bosun\.command: \{bosun\} is for packs \(bosun's own pack registers bosun mcp serve in every agent\); bosun run does not start bosun itself/],
      [{ mcp: { probe: { command: "x" } } }, ["--runtime", "windsurf"], /bosun writes no MCP servers for Windsurf; it does for claude, .*gemini/],
      [{ mcp: { probe: { command: "x" } } }, ["--runtime", "nope"], /unknown runtime.*nope|nope.*unknown/i],
      [{ mcp: { "bad name": { command: "x" } } }, [], /bosun\.json:\d+: mcp\.bad name: invalid name: use letters, digits, '-' and '_'/],
    ];
    for (const [config, flags, message] of cases) {
      const { t, project } = world();
      globalConfig(t, config);
      const before = agentFiles(t);
      const run = runBin(["mcp", "sync", "--yes", ...flags], t.env, project);
      expect(run.code, JSON.stringify(config)).toBe(1);
      expect(run.stderr.trim().split("\n").filter((line) => !line.startsWith("bosun: 40_private_folders")), run.stderr).toHaveLength(1);
      expect(run.stderr, JSON.stringify(config)).toMatch(message);
      expect(agentFiles(t)).toEqual(before);
    }
  });

  it("with no agent with MCP installed, it says so and names them", () => {
    const t = makeTempHome();
    globalConfig(t, { mcp: { probe: PROBE } });
    const run = runBin(["mcp", "sync", "--yes"], t.env, t.home);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no agent bosun writes MCP servers for is installed here \(claude, .*\); name one with --runtime/);
  });
});
