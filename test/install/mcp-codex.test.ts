// A pack's MCP servers in Codex: each one a `[mcp_servers.<name>]` table of config.toml
// ($CODEX_HOME/config.toml, a project's .codex/config.toml), appended between bosun's markers,
// recorded, settled on a reinstall, replaced on an upgrade, given back byte for byte by the
// uninstall; a server of yours of the same name a question; one you edited left; what Codex
// cannot express (a variable under another name, a secret in a file) skipped with the reason.
// The real Codex reading what bosun wrote: test/real/mcp-real-codex.test.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseToml } from "../../src/install/config/toml-block.js";
import { InstallBlockedError, NeedsChoiceError } from "../../src/install/install-errors.js";
import { mcpEntry } from "../../src/install/plan/mcp-entry.js";
import { readManifest } from "../../src/install/records/manifest.js";
import { buildInstallReport } from "../../src/install/report.js";
import type { McpServer } from "../../src/mcp/server-schema.js";
import { runBin } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install, treeState, uninstall, watchedFs } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const CODEX = "OpenAI Codex CLI";

describe("an MCP server as a Codex table", () => {
  it("stdio: command, args, literal env, each {env:NAME} under its own name in env_vars, cwd, timeouts, enabled = false", () => {
    const server: McpServer = { command: "node", args: ["serve.mjs"], env: { TOOL_TOKEN: "{env:TOOL_TOKEN}", LOG_LEVEL: "debug", API_KEY: "{env:API_KEY}" }, cwd: "/srv/tools", startupTimeout: 20, callTimeout: 90, enabled: false };
    expect(mcpEntry(server, "codex", CODEX)).toEqual({
      value: { command: "node", args: ["serve.mjs"], env: { LOG_LEVEL: "debug" }, env_vars: ["TOOL_TOKEN", "API_KEY"], cwd: "/srv/tools", startup_timeout_sec: 20, tool_timeout_sec: 90, enabled: false },
    });
    expect(mcpEntry({ command: "serve" }, "codex", CODEX)).toEqual({ value: { command: "serve" } });
  });

  it("stdio: a variable under another name, text around a reference, or a secret in a file skips the server with the reason", () => {
    expect(mcpEntry({ command: "serve", env: { TOKEN: "{env:PROBE_TOKEN}" } }, "codex", CODEX)).toEqual({
      skip: `${CODEX} passes a variable to a server only under its own name (env_vars), not {env:PROBE_TOKEN} as TOKEN; use {env:TOKEN}`,
    });
    expect(mcpEntry({ command: "serve", env: { AUTH: "Bearer {env:AUTH}" } }, "codex", CODEX)).toEqual({
      skip: `${CODEX} cannot build AUTH from text and a reference ("Bearer {env:AUTH}"): it passes a variable to a server as it is; use {env:AUTH} alone`,
    });
    expect(mcpEntry({ command: "serve", env: { TOKEN: "{file:~/.tokens/t}" } }, "codex", CODEX)).toEqual({ skip: `${CODEX} cannot read a secret from a file ({file:~/.tokens/t} in TOKEN); use {env:TOKEN} for it` });
  });

  it("remote: Authorization: Bearer {env:X} as bearer_token_env_var, a header that is {env:X} in env_http_headers, literal headers in http_headers", () => {
    const remote: McpServer = { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer {env:MCP_TOKEN}", "X-Team": "{env:TEAM_ID}", "X-Mode": "fast" }, startupTimeout: 5, enabled: false };
    expect(mcpEntry(remote, "codex", CODEX)).toEqual({
      value: { url: "https://mcp.example.com/mcp", bearer_token_env_var: "MCP_TOKEN", http_headers: { "X-Mode": "fast" }, env_http_headers: { "X-Team": "TEAM_ID" }, startup_timeout_sec: 5, enabled: false },
    });
    expect(mcpEntry({ url: "https://mcp.example.com/mcp", headers: { Authorization: "{env:AUTH_HEADER}" } }, "codex", CODEX)).toEqual({ value: { url: "https://mcp.example.com/mcp", env_http_headers: { Authorization: "AUTH_HEADER" } } });
    expect(mcpEntry({ url: "https://mcp.example.com/mcp" }, "codex", CODEX)).toEqual({ value: { url: "https://mcp.example.com/mcp" } });
  });

  it("remote: a header with text around a reference (but Bearer in Authorization), or a secret in a file, skips the server", () => {
    expect(mcpEntry({ url: "https://x.example/mcp", headers: { "X-Key": "key={env:KEY}" } }, "codex", CODEX)).toEqual({
      skip: `${CODEX} cannot send header X-Key as "key={env:KEY}": it sends a variable as a whole header ({env:NAME}) or as a bearer token (Authorization: "Bearer {env:NAME}"), nothing around it`,
    });
    expect(mcpEntry({ url: "https://x.example/mcp", headers: { "X-Auth": "Bearer {env:KEY}" } }, "codex", CODEX)).toMatchObject({ skip: expect.stringContaining("cannot send header X-Auth") });
    expect(mcpEntry({ url: "https://x.example/mcp", headers: { Authorization: "Bearer {file:~/.tokens/t}" } }, "codex", CODEX)).toEqual({
      skip: `${CODEX} cannot read a secret from a file ({file:~/.tokens/t} in header Authorization); use {env:NAME} for it`,
    });
  });
});

/** A pack named `tools` with the given servers (`mcp/<server>.json`) and a support file for {pack-dir}. */
function writePack(t: TempHome, servers: Record<string, unknown>, version = "1.0.0", dir = "pack"): string {
  const root = join(t.root, dir);
  t.write(join(root, "pack.json"), JSON.stringify({ name: "tools", version, artifacts: { mcp: Object.keys(servers) } }, null, 2));
  for (const [server, value] of Object.entries(servers)) t.write(join(root, "mcp", `${server}.json`), JSON.stringify(value, null, 2));
  t.write(join(root, "files/server.mjs"), "// the server\n");
  return root;
}

const PROBE = { command: "node", args: ["{pack-dir}/server.mjs", "--config", "{config-dir}"], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}", MODE: "fast" }, callTimeout: 45 };
/** PROBE as Codex gets it, installed in `root`. */
const probeIn = (root: string, extra: string[] = []) => ({ command: "node", args: [`${root}/tools/server.mjs`, "--config", root, ...extra], env: { MODE: "fast" }, env_vars: ["PROBE_TOKEN"], tool_timeout_sec: 45 });
const tomlOf = (file: string): Record<string, any> => {
  const parsed = parseToml(readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(`${file}: ${parsed.problem} at line ${parsed.line}`);
  return parsed.value;
};
const settingPaths = (manifestFile: string) =>
  readManifest(nodeFs, manifestFile)
    .manifest.config.filter((record) => record.kind === "setting")
    .map((record) => (record.kind === "setting" ? `${record.pack} ${record.file} ${record.path.join(".")}` : ""));
const MINE = '\ufeff# my codex config\r\nmodel = "gpt-5" # keep this\r\n\r\n[mcp_servers.mine]\r\ncommand = "my-server"\r\n\r\n[projects."/work"]\r\ntrust_level = "trusted"\r\n';

describe("MCP servers in Codex's config.toml", () => {
  it("global, in $CODEX_HOME: appended between bosun's markers in your CRLF, recorded, settled on a reinstall, replaced in place on an upgrade, your file byte for byte after the uninstall", async () => {
    const t = makeTempHome();
    const codexHome = join(t.home, "elsewhere/codex");
    const env = { ...t.env, CODEX_HOME: codexHome };
    const file = join(codexHome, "config.toml");
    t.write(file, MINE);
    const outcome = await install(t, { runtimes: ["codex"], env, pack: writePack(t, { probe: PROBE }) });
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(MINE), "everything of yours is before bosun's table, as it was").toBe(true);
    expect(text.slice(MINE.length)).toBe(
      [
        "# >>> bosun: [mcp_servers.probe] (bosun install writes it, bosun uninstall removes it) >>>",
        "[mcp_servers.probe]",
        `command = "node"`,
        `args = ["${codexHome}/tools/server.mjs", "--config", "${codexHome}"]`,
        `env = { MODE = "fast" }`,
        `env_vars = ["PROBE_TOKEN"]`,
        "tool_timeout_sec = 45",
        "# <<< bosun: [mcp_servers.probe] <<<",
        "",
      ].join("\r\n"),
    );
    expect(tomlOf(file).mcp_servers).toEqual({ mine: { command: "my-server" }, probe: probeIn(codexHome) });
    expect(settingPaths(join(codexHome, "bosun-manifest.json"))).toEqual(["tools config.toml mcp_servers.probe"]);
    const config = buildInstallReport(outcome, false).targets[0]!.roots[0]!.actions.filter((action) => action.group === "config");
    expect(config.map((action) => [action.type, action.reason])).toEqual([["rewrite-toml", "config.toml: sets mcp_servers.probe"]]);
    expect(readFileSync(join(codexHome, "tools/server.mjs"), "utf8")).toBe("// the server\n");

    const fs = watchedFs(() => {});
    const again = await install(t, { runtimes: ["codex"], env, pack: writePack(t, { probe: PROBE }), fs });
    expect(again.result.targets[0]!.roots.every((root) => root.status === "unchanged")).toBe(true);
    expect(fs.writes()).toBe(0);

    const upgraded = await install(t, { runtimes: ["codex"], env, pack: writePack(t, { probe: { ...PROBE, args: [...PROBE.args, "--v2"] } }, "1.1.0") });
    expect(readFileSync(file, "utf8").startsWith(MINE)).toBe(true);
    expect(tomlOf(file).mcp_servers).toEqual({ mine: { command: "my-server" }, probe: probeIn(codexHome, ["--v2"]) });
    const replaced = buildInstallReport(upgraded, false).targets[0]!.roots[0]!.actions.filter((action) => action.group === "config");
    expect(replaced.map((action) => action.reason)).toEqual(["config.toml: replaces bosun's mcp_servers.probe"]);

    await uninstall(t, { runtimes: ["codex"], env, pack: "tools" });
    expect(readFileSync(file, "utf8")).toBe(MINE);
  });

  it("global in ~/.codex and local in a project's .codex: the file bosun created goes again with the uninstall; the tree is as before", async () => {
    const t = makeTempHome();
    const project = join(t.home, "project");
    mkdirSync(project);
    const pack = writePack(t, { probe: PROBE });
    const before = treeState(t.home);
    await install(t, { runtimes: ["codex"], pack });
    await install(t, { runtimes: ["codex"], scope: "local", cwd: project, pack });
    const global = join(t.home, ".codex");
    const local = join(project, ".codex");
    expect(tomlOf(join(global, "config.toml"))).toEqual({ mcp_servers: { probe: probeIn(global) } });
    expect(tomlOf(join(local, "config.toml"))).toEqual({ mcp_servers: { probe: probeIn(local) } });
    expect(settingPaths(join(local, "bosun-manifest.json"))).toEqual(["tools config.toml mcp_servers.probe"]);
    await uninstall(t, { runtimes: ["codex"], scope: "local", cwd: project, pack: "tools" });
    await uninstall(t, { runtimes: ["codex"], pack: "tools" });
    expect(existsSync(join(global, "config.toml"))).toBe(false);
    expect(existsSync(join(local, "config.toml"))).toBe(false);
    expect(treeState(t.home)).toEqual(before);
  });

  it("a server of yours of the same name: a question (an error without a terminal, nothing written); keep leaves yours unrecorded; remove backs your file up and puts bosun's table in place of yours", async () => {
    const t = makeTempHome();
    const file = join(t.home, ".codex/config.toml");
    const mine = '# mine\n[mcp_servers.probe]\ncommand = "my-probe"\nargs = ["--mine"]\n\n[mcp_servers.probe.env]\nA = "1"\n\n[tui]\nnotifications = true\n';
    t.write(file, mine);
    const pack = writePack(t, { probe: PROBE });
    const before = snapshotTree(t.home);
    const error = await install(t, { runtimes: ["codex"], pack }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NeedsChoiceError);
    expect((error as Error).message).toMatch(/^1 file bosun does not own needs your choice \(config\.toml\) and stdin is not a terminal; nothing was written/);
    expect(snapshotTree(t.home)).toEqual(before);
    const dry = buildInstallReport(await install(t, { runtimes: ["codex"], pack, dryRun: true }), true).targets[0]!.roots[0]!.actions.find((action) => action.group === "needs-choice");
    expect(dry).toMatchObject({ path: "config.toml", choices: ["keep", "remove"], reason: expect.stringMatching(/^config\.toml: mcp_servers\.probe already set to another value \(mcp_servers\.probe: yours \{"command":"my-probe"/) });

    await install(t, { runtimes: ["codex"], pack, resolve: "keep" });
    expect(readFileSync(file, "utf8")).toBe(mine);
    expect(settingPaths(join(t.home, ".codex/bosun-manifest.json"))).toEqual([]);

    await install(t, { runtimes: ["codex"], pack, resolve: "remove" });
    const root = join(t.home, ".codex");
    expect(tomlOf(file)).toEqual({ mcp_servers: { probe: probeIn(root) }, tui: { notifications: true } });
    expect(readFileSync(file, "utf8").startsWith("# mine\n\n[tui]\nnotifications = true\n# >>> bosun: [mcp_servers.probe]")).toBe(true);
    const backups = join(root, "bosun-backups");
    const [run] = readdirSync(backups);
    expect(readFileSync(join(backups, run!, "config.toml"), "utf8")).toBe(mine);
    expect(settingPaths(join(root, "bosun-manifest.json"))).toEqual(["tools config.toml mcp_servers.probe"]);
    await uninstall(t, { runtimes: ["codex"], pack: "tools" });
    expect(readFileSync(file, "utf8")).toBe("# mine\n\n[tui]\nnotifications = true\n");
  });

  it("a server of yours exactly like the pack's (dotted keys too) is already yours: nothing written, nothing recorded, left by the uninstall", async () => {
    const t = makeTempHome();
    const root = join(t.home, ".codex");
    const file = join(root, "config.toml");
    const mine = `[mcp_servers]\nprobe.command = "node"\nprobe.args = ["${root}/tools/server.mjs", "--config", "${root}"]\nprobe.env = { MODE = "fast" }\nprobe.env_vars = ["PROBE_TOKEN"]\nprobe.tool_timeout_sec = 45.0\n`;
    t.write(file, mine);
    await install(t, { runtimes: ["codex"], pack: writePack(t, { probe: PROBE }) });
    expect(readFileSync(file, "utf8")).toBe(mine);
    expect(settingPaths(join(root, "bosun-manifest.json"))).toEqual([]);
    await uninstall(t, { runtimes: ["codex"], pack: "tools" });
    expect(readFileSync(file, "utf8")).toBe(mine);
  });

  it("bosun's table that you edited stays on uninstall (its record goes); unedited, it goes", async () => {
    const t = makeTempHome();
    const file = join(t.home, ".codex/config.toml");
    t.write(file, 'model = "gpt-5"\n');
    await install(t, { runtimes: ["codex"], pack: writePack(t, { probe: PROBE, other: { command: "other-server" } }) });
    const edited = readFileSync(file, "utf8").replace("tool_timeout_sec = 45", "tool_timeout_sec = 120");
    writeFileSync(file, edited);
    await uninstall(t, { runtimes: ["codex"], pack: "tools" });
    const left = readFileSync(file, "utf8");
    expect(tomlOf(file).mcp_servers).toEqual({ probe: { ...probeIn(join(t.home, ".codex")), tool_timeout_sec: 120 } });
    expect(left).toBe(edited.slice(0, edited.indexOf("# >>> bosun: [mcp_servers.other]")));
    expect(existsSync(join(t.home, ".codex/bosun-manifest.json")) ? settingPaths(join(t.home, ".codex/bosun-manifest.json")) : []).toEqual([]);
  });

  it("a config.toml that does not parse, or holds mcp_servers inline, blocks the install with the file and the reason; nothing is written", async () => {
    const cases: [string, RegExp][] = [
      ['model = "gpt-5"\n[mcp_servers.x]\ncommand = \n', /config\.toml: invalid TOML \(.*\) at line 3; fix it, then run again \(bosun edits only config files it can parse\)/],
      ['mcp_servers = { mine = { command = "x" } }\n', /config\.toml: mcp_servers is written inline \(mcp_servers = …\); bosun can add \[mcp_servers\.probe\] only beside \[mcp_servers\.…\] tables; fix it, then run again/],
    ];
    for (const [content, message] of cases) {
      const t = makeTempHome();
      t.write(join(t.home, ".codex/config.toml"), content);
      const before = snapshotTree(t.home);
      const error = await install(t, { runtimes: ["codex"], pack: writePack(t, { probe: PROBE }) }).catch((caught: unknown) => caught);
      expect(error, content).toBeInstanceOf(InstallBlockedError);
      expect((error as Error).message).toMatch(message);
      expect(snapshotTree(t.home)).toEqual(before);
    }
  });

  it("a server Codex cannot express is skipped with the reason; the others are written", async () => {
    const t = makeTempHome();
    const pack = writePack(t, { probe: PROBE, renamed: { command: "serve", env: { TOKEN: "{env:PROBE_TOKEN}" } } });
    const outcome = await install(t, { runtimes: ["codex"], pack });
    const skipped = outcome.result.targets[0]!.target.desired!.skipped.filter((entry) => entry.kind === "mcp server");
    expect(skipped).toEqual([{ kind: "mcp server", name: "renamed", reason: `${CODEX} passes a variable to a server only under its own name (env_vars), not {env:PROBE_TOKEN} as TOKEN; use {env:TOKEN}` }]);
    expect(Object.keys(tomlOf(join(t.home, ".codex/config.toml")).mcp_servers)).toEqual(["probe"]);
  });

  it("through the bosun command: a server of yours of the same name stops `--yes` without a terminal (exit 1, nothing written); --resolve keep installs the rest", () => {
    const t = makeTempHome();
    const file = join(t.home, ".codex/config.toml");
    const mine = '[mcp_servers.probe]\ncommand = "mine"\n';
    t.write(file, mine);
    const pack = writePack(t, { probe: PROBE });
    const before = snapshotTree(t.home);
    const run = runBin(["install", pack, "--runtime", "codex", "--scope", "global", "--yes"], t.env, t.home);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("needs your choice (config.toml)");
    expect(snapshotTree(t.home)).toEqual(before);
    const kept = runBin(["install", pack, "--runtime", "codex", "--scope", "global", "--yes", "--resolve", "keep"], t.env, t.home);
    expect(kept.code, kept.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(mine);
    expect(existsSync(join(t.home, ".codex/tools/server.mjs"))).toBe(true);
  });
});
