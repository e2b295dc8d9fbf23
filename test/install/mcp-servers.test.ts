// A pack's MCP servers (`mcp/<name>.json`) as entries of each agent's MCP file, in its own format
// and secret syntax: added and recorded, settled on a reinstall, replaced on an upgrade, a server
// of yours of the same name a question, one you edited left on uninstall, another pack's server a
// refusal, and an uninstall that gives back your file byte for byte. The real CLIs reading what
// bosun wrote: test/real/mcp-real.test.ts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InstallBlockedError, NeedsChoiceError } from "../../src/install/install-errors.js";
import { PackError } from "../../src/install/pack/pack-error.js";
import { mcpEntry } from "../../src/install/plan/mcp-entry.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { buildInstallReport } from "../../src/install/report.js";
import type { McpServer } from "../../src/mcp/server-schema.js";
import { runBin } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, PACKAGE_ROOT, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A pack named `name` with the given servers (`mcp/<server>.json`) and, with `files`, a support file. */
function writePack(t: TempHome, servers: Record<string, unknown>, options: { name?: string; version?: string; files?: boolean; dir?: string } = {}): string {
  const dir = join(t.root, options.dir ?? "pack");
  const name = options.name ?? "tools";
  t.write(join(dir, "pack.json"), JSON.stringify({ name, version: options.version ?? "1.0.0", artifacts: { mcp: Object.keys(servers) } }, null, 2));
  for (const [server, value] of Object.entries(servers)) t.write(join(dir, "mcp", `${server}.json`), typeof value === "string" ? value : JSON.stringify(value, null, 2));
  if (options.files) t.write(join(dir, "files/server.mjs"), "// the server\n");
  return dir;
}

const PROBE = { command: "node", args: ["{pack-dir}/server.mjs", "--config", "{config-dir}"], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}", MODE: "fast" } };
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const settingPaths = (manifestFile: string) =>
  readManifest(nodeFs, manifestFile)
    .manifest.config.filter((record) => record.kind === "setting")
    .map((record) => (record.kind === "setting" ? `${record.pack} ${record.path.join(".")}` : ""));

describe("an MCP server in each runtime's own format", () => {
  const stdio: McpServer = { command: "npx", args: ["-y", "probe"], env: { TOKEN: "{env:PROBE_TOKEN}", AUTH: "Bearer {env:API_KEY}" } };
  it("stdio: Claude Code and Gemini CLI write ${NAME}, Cursor ${env:NAME}, OpenCode its own {env:NAME} and a command list", () => {
    expect(mcpEntry(stdio, "claude", "Claude Code")).toEqual({ value: { type: "stdio", command: "npx", args: ["-y", "probe"], env: { TOKEN: "${PROBE_TOKEN}", AUTH: "Bearer ${API_KEY}" } } });
    expect(mcpEntry({ ...stdio, callTimeout: 90 }, "gemini", "Gemini CLI")).toEqual({ value: { command: "npx", args: ["-y", "probe"], env: { TOKEN: "${PROBE_TOKEN}", AUTH: "Bearer ${API_KEY}" }, timeout: 90000 } });
    expect(mcpEntry(stdio, "cursor", "Cursor")).toEqual({ value: { command: "npx", args: ["-y", "probe"], env: { TOKEN: "${env:PROBE_TOKEN}", AUTH: "Bearer ${env:API_KEY}" } } });
    expect(mcpEntry(stdio, "opencode", "OpenCode")).toEqual({ value: { type: "local", command: ["npx", "-y", "probe"], environment: { TOKEN: "{env:PROBE_TOKEN}", AUTH: "Bearer {env:API_KEY}" }, enabled: true } });
  });

  it("remote: each runtime's url key and headers; a {file:} secret only where the runtime reads files (OpenCode), else the server is skipped with the reason", () => {
    const remote: McpServer = { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer {file:~/.tokens/mcp}" } };
    expect(mcpEntry(remote, "opencode", "OpenCode")).toEqual({ value: { type: "remote", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer {file:~/.tokens/mcp}" }, enabled: true } });
    expect(mcpEntry(remote, "claude", "Claude Code")).toEqual({ skip: "Claude Code cannot read a secret from a file ({file:~/.tokens/mcp} in Authorization); use {env:NAME} for it" });
    const byEnv: McpServer = { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer {env:MCP_TOKEN}" } };
    expect(mcpEntry(byEnv, "claude", "Claude Code")).toEqual({ value: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${MCP_TOKEN}" } } });
    expect(mcpEntry(byEnv, "gemini", "Gemini CLI")).toEqual({ value: { httpUrl: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${MCP_TOKEN}" } } });
  });

  it("a working folder only where the runtime has one (Gemini CLI); a disabled server only where the runtime can say so (OpenCode)", () => {
    expect(mcpEntry({ command: "serve", cwd: "/srv" }, "gemini", "Gemini CLI")).toEqual({ value: { command: "serve", cwd: "/srv" } });
    expect(mcpEntry({ command: "serve", cwd: "/srv" }, "claude", "Claude Code")).toEqual({ skip: "Claude Code has no working folder setting for a server (cwd /srv); start it from a script that changes folder" });
    expect(mcpEntry({ command: "serve", enabled: false }, "opencode", "OpenCode")).toEqual({ value: { type: "local", command: ["serve"], enabled: false } });
    expect(mcpEntry({ command: "serve", enabled: false }, "claude", "Claude Code")).toMatchObject({ skip: expect.stringContaining("disabled") });
  });
});

describe("MCP servers installed into Claude Code", () => {
  it("global: added to ~/.claude.json beside your own servers and keys, with {pack-dir}/{config-dir} resolved and ${NAME} references; a reinstall writes nothing; the uninstall gives the file back byte for byte", async () => {
    const t = makeTempHome();
    const claudeJson = join(t.home, ".claude.json");
    const mine = '{\n  "numStartups": 4,\n  "mcpServers": {\n    "mine": { "type": "stdio", "command": "my-server", "args": [], "env": {} }\n  }\n}\n';
    t.write(claudeJson, mine);
    const pack = writePack(t, { probe: PROBE }, { files: true });
    const outcome = await install(t, { pack });
    const root = join(t.home, ".claude");
    const written = read(claudeJson);
    expect(written.numStartups).toBe(4);
    expect(written.mcpServers.mine).toEqual({ type: "stdio", command: "my-server", args: [], env: {} });
    expect(written.mcpServers.probe).toEqual({ type: "stdio", command: "node", args: [`${root}/tools/server.mjs`, "--config", root], env: { PROBE_TOKEN: "${PROBE_TOKEN}", MODE: "fast" } });
    // bosun's records for the home folder's file are kept in ~/.claude/bosun-home.
    expect(settingPaths(join(root, "bosun-home/bosun-manifest.json"))).toEqual(["tools mcpServers.probe"]);
    expect(existsSync(join(t.home, "bosun-manifest.json"))).toBe(false);
    const report = buildInstallReport(outcome, true);
    expect(JSON.stringify(report)).toContain("mcpServers.probe");

    const fs = watchedFs(() => {});
    await install(t, { pack, fs });
    expect(fs.writes(), "a reinstall writes nothing").toBe(0);

    await uninstall(t, { pack: "tools" });
    expect(readFileSync(claudeJson, "utf8")).toBe(mine);
  });

  it("under CLAUDE_CONFIG_DIR the servers go to its .claude.json; in a project to .mcp.json in the project folder, with bosun's records in .claude/", async () => {
    const t = makeTempHome();
    const config = join(t.home, "elsewhere/claude");
    const pack = writePack(t, { probe: PROBE }, { files: true });
    await install(t, { pack, env: { ...t.env, CLAUDE_CONFIG_DIR: config } });
    expect(read(join(config, ".claude.json")).mcpServers.probe.args).toEqual([`${config}/tools/server.mjs`, "--config", config]);
    expect(existsSync(join(t.home, ".claude.json"))).toBe(false);

    const project = join(t.home, "project");
    t.write(join(project, "README.md"), "mine\n");
    await install(t, { pack, scope: "local", cwd: project });
    expect(read(join(project, ".mcp.json")).mcpServers.probe.args).toEqual([`${project}/.claude/tools/server.mjs`, "--config", join(project, ".claude")]);
    expect(settingPaths(join(project, ".claude/bosun-project/bosun-manifest.json"))).toEqual(["tools mcpServers.probe"]);
    await uninstall(t, { pack: "tools", scope: "local", cwd: project });
    expect(existsSync(join(project, ".mcp.json")), "the file bosun created is gone again").toBe(false);
  });

  it("an upgrade replaces bosun's entry; a server you edited is left on uninstall, and one you removed stays removed", async () => {
    const t = makeTempHome();
    const claudeJson = join(t.home, ".claude.json");
    await install(t, { pack: writePack(t, { probe: { command: "probe", args: ["--v1"] }, other: { command: "other" } }) });
    await install(t, { pack: writePack(t, { probe: { command: "probe", args: ["--v2"] }, other: { command: "other" } }, { version: "2.0.0" }) });
    expect(read(claudeJson).mcpServers.probe.args).toEqual(["--v2"]);
    const edited = read(claudeJson);
    edited.mcpServers.probe.args = ["--mine"];
    delete edited.mcpServers.other;
    writeFileSync(claudeJson, JSON.stringify(edited, null, 2));
    await uninstall(t, { pack: "tools" });
    expect(read(claudeJson).mcpServers).toEqual({ probe: { type: "stdio", command: "probe", args: ["--mine"], env: {} } });
  });

  it("a server of yours with the same name is a question: no terminal is an error and nothing is written; keep leaves yours; remove backs the file up and sets the pack's", async () => {
    const t = makeTempHome();
    const claudeJson = join(t.home, ".claude.json");
    const mine = '{\n  "mcpServers": {\n    "probe": { "type": "stdio", "command": "my-probe", "args": [], "env": {} }\n  }\n}\n';
    t.write(claudeJson, mine);
    const pack = writePack(t, { probe: { command: "probe" }, extra: { command: "extra" } });
    const before = snapshotTree(t.root);
    const error = await install(t, { pack }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NeedsChoiceError);
    expect(snapshotTree(t.root)).toEqual(before);
    const dry = buildInstallReport(await install(t, { pack, dryRun: true }), true).targets[0]!.roots.flatMap((root) => root.actions).find((action) => action.group === "needs-choice");
    expect(dry).toMatchObject({ path: ".claude.json", choices: ["keep", "remove"] });
    expect(dry?.reason).toContain("mcpServers.probe: yours");

    await install(t, { pack, resolve: "keep" });
    expect(read(claudeJson).mcpServers.probe.command).toBe("my-probe");
    expect(read(claudeJson).mcpServers.extra.command).toBe("extra");
    await install(t, { pack, resolve: "remove" });
    expect(read(claudeJson).mcpServers.probe.command).toBe("probe");
  });

  it("two packs with a server of the same name: the second is refused with one line naming both packs and the server, nothing written", async () => {
    const t = makeTempHome();
    await install(t, { pack: writePack(t, { probe: { command: "probe-a" } }, { name: "pack-a", dir: "a" }) });
    const second = writePack(t, { probe: { command: "probe-b" } }, { name: "pack-b", dir: "b" });
    const before = snapshotTree(t.root);
    const error = await install(t, { pack: second }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InstallBlockedError);
    expect((error as Error).message).toContain(".claude.json: the MCP server probe belongs to the pack pack-a installed here; pack-b (mcp/probe.json) cannot take it over: uninstall pack-a first, or rename the server in one of the two packs");
    expect(snapshotTree(t.root)).toEqual(before);
  });
});

describe("MCP servers in the other runtimes", () => {
  it("Gemini CLI settings.json mcpServers, OpenCode opencode.json mcp, Cursor mcp.json; a runtime without MCP skips each server with the reason", async () => {
    const t = makeTempHome();
    const pack = writePack(t, { probe: PROBE }, { files: true });
    const outcome = await install(t, { pack, runtimes: ["gemini", "opencode", "cursor", "windsurf"] });
    const gemini = join(t.home, ".gemini");
    expect(read(join(gemini, "settings.json")).mcpServers.probe).toEqual({ command: "node", args: [`${gemini}/tools/server.mjs`, "--config", gemini], env: { PROBE_TOKEN: "${PROBE_TOKEN}", MODE: "fast" } });
    const opencode = join(t.env.XDG_CONFIG_HOME!, "opencode");
    expect(read(join(opencode, "opencode.json")).mcp.probe).toEqual({ type: "local", command: ["node", `${opencode}/tools/server.mjs`, "--config", opencode], environment: { PROBE_TOKEN: "{env:PROBE_TOKEN}", MODE: "fast" }, enabled: true });
    expect(read(join(t.home, ".cursor/mcp.json")).mcpServers.probe.env).toEqual({ PROBE_TOKEN: "${env:PROBE_TOKEN}", MODE: "fast" });
    const windsurf = outcome.result.targets.find(({ target }) => target.runtime.id === "windsurf")!;
    expect(windsurf.target.desired!.skipped.map((skip) => `${skip.kind} ${skip.name}: ${skip.reason}`)).toContain("mcp server probe: bosun does not write MCP servers for Windsurf");
  });
});

describe("{bosun}: bosun itself as a pack's MCP server", () => {
  const BOSUN_BIN = join(PACKAGE_ROOT, "bin", "bosun.js");

  it("bosun's own pack registers bosun mcp serve in every runtime with MCP, started by node and this package's bin; the uninstall takes each entry out", async () => {
    const t = makeTempHome();
    const runtimes = ["claude", "codex", "gemini", "opencode", "qwen", "cursor"];
    await install(t, { runtimes });
    const opencode = join(t.env.XDG_CONFIG_HOME!, "opencode");
    expect(read(join(t.home, ".claude.json")).mcpServers.bosun).toEqual({ type: "stdio", command: "node", args: [BOSUN_BIN, "mcp", "serve"], env: {} });
    expect(readFileSync(join(t.home, ".codex/config.toml"), "utf8")).toContain(`[mcp_servers.bosun]\ncommand = "node"\nargs = [${JSON.stringify(BOSUN_BIN)}, "mcp", "serve"]\n`);
    for (const file of [".gemini/settings.json", ".qwen/settings.json", ".cursor/mcp.json"]) expect(read(join(t.home, file)).mcpServers.bosun, file).toEqual({ command: "node", args: [BOSUN_BIN, "mcp", "serve"] });
    expect(read(join(opencode, "opencode.json")).mcp.bosun).toEqual({ type: "local", command: ["node", BOSUN_BIN, "mcp", "serve"], enabled: true });

    await uninstall(t, { runtimes });
    expect(existsSync(join(t.home, ".claude.json"))).toBe(false);
    expect(existsSync(join(t.home, ".codex/config.toml"))).toBe(false);
    expect(existsSync(join(opencode, "opencode.json"))).toBe(false);
  });

  it("in another pack: its args follow bosun's (a server started in a mode of its own)", async () => {
    const t = makeTempHome();
    const pack = writePack(t, { "bosun-edit": { command: "{bosun}", args: ["mcp", "serve", "--mode", "auto-edit"] } });
    await install(t, { pack, runtimes: ["gemini"] });
    expect(read(join(t.home, ".gemini/settings.json")).mcpServers["bosun-edit"]).toEqual({ command: "node", args: [BOSUN_BIN, "mcp", "serve", "--mode", "auto-edit"] });
  });
});

describe("bad MCP servers in a pack", () => {
  it("each is one line naming the file and the field; nothing is written", async () => {
    const cases: [Record<string, unknown>, RegExp, boolean?][] = [
      [{ probe: { command: "x", env: { API_KEY: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345" } } }, /mcp\/probe\.json: env\.API_KEY: looks like a key or token in clear; write \{env:API_KEY\} .*\(a pack must not carry a secret\)$/],
      [{ probe: { url: "https://mcp.example.com", headers: { Authorization: "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789" } } }, /mcp\/probe\.json: headers\.Authorization: looks like a key or token in clear/],
      [{ probe: { command: "node", args: ["{hook-dir}/x.mjs"] } }, /mcp\/probe\.json: args\[0\]: unknown placeholder \{hook-dir\} \(use \{pack-dir\}, \{config-dir\}, \{bosun\}\)/],
      [{ probe: { command: "{bosun} mcp serve" } }, /mcp\/probe\.json: command: \{bosun\} stands only as the whole command \(the program that starts bosun\); put bosun's arguments in args, e\.g\. \["mcp", "serve"\]$/],
      [{ probe: { command: "node", args: ["{bosun}", "mcp", "serve"] } }, /mcp\/probe\.json: args\[0\]: \{bosun\} stands only as the whole command/],
      [{ probe: { command: "node", args: ["{pack-dir}/x.mjs"] } }, /mcp\/probe\.json: args\[0\]: uses \{pack-dir\} but the pack has no files\/ folder/],
      [{ probe: { command: "x", url: "https://mcp.example.com" } }, /mcp\/probe\.json:1: give command \(a server bosun starts\) or url \(a server reached over HTTP\), not both$/],
      [{ probe: { command: "x", timeout: 5 } }, /mcp\/probe\.json:3: timeout: unknown key$/],
      [{ probe: { url: "ftp://mcp.example.com" } }, /mcp\/probe\.json:2: url: use an http:\/\/ or https:\/\/ URL$/],
      [{ probe: { command: "x", env: { TOKEN: "{vault:TOKEN}" } } }, /mcp\/probe\.json:\d+: env\.TOKEN: \{vault:…\} is not a reference bosun knows \(use \{env:NAME\} or \{file:PATH\}\)$/],
      [{ probe: "{ not json" }, /mcp\/probe\.json:1/],
      [{ bad__name: { command: "x" } }, /pack\.json:\d+: artifacts\.mcp\[0\]: use letters, digits, '-' and '_' \(not two '_' in a row/],
    ];
    for (const [servers, message] of cases) {
      const t = makeTempHome();
      const pack = writePack(t, servers);
      const before = snapshotTree(t.root);
      const error = await install(t, { pack }).catch((caught: unknown) => caught);
      expect(error, JSON.stringify(servers)).toBeInstanceOf(PackError);
      expect((error as Error).message, JSON.stringify(servers)).toMatch(message);
      expect((error as Error).message.split("\n"), JSON.stringify(servers)).toHaveLength(1);
      expect(snapshotTree(t.root)).toEqual(before);
    }
  });

  it("a server file the pack does not list is refused by name", async () => {
    const t = makeTempHome();
    const pack = writePack(t, { probe: { command: "x" } });
    t.write(join(pack, "mcp/stray.json"), JSON.stringify({ command: "y" }));
    const error = await install(t, { pack }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PackError);
    expect((error as Error).message).toMatch(/mcp\/stray\.json/);
  });

  it("through the bosun command: one line on stderr, exit 1", () => {
    const t = makeTempHome();
    const pack = writePack(t, { probe: { command: "x", env: { OPENAI_API_KEY: "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789" } } });
    const run = runBin(["install", pack, "--runtime", "claude", "--scope", "global", "--yes"], t.env, t.home);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/mcp\/probe\.json: env\.OPENAI_API_KEY/);
  });
});
