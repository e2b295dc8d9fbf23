// The real Codex 0.171 reads the MCP servers bosun wrote into config.toml: after a bosun install
// into a temp CODEX_HOME (and into a trusted project's .codex), `codex mcp list --json`, run
// offline, shows each server with its command, args and working folder, the variables it
// forwards by name (env_vars, bearer_token_env_var, env_http_headers) and never their values;
// Codex's strict config check accepts the file. Nothing here reaches the network.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { install } from "../fixtures/install.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** Values the variables have in Codex's environment: none may show in what it prints, or in the file. */
const SECRETS = { PROBE_TOKEN: "probe-secret-0f9e8d7c6b5a", REMOTE_TOKEN: "remote-secret-1a2b3c4d5e6f", TEAM_ID: "team-secret-7a8b9c0d" };

interface Listed {
  name: string;
  enabled: boolean;
  transport: Record<string, unknown>;
  startup_timeout_sec: number | null;
  tool_timeout_sec: number | null;
}

function writePack(t: TempHome): string {
  const root = join(t.root, "pack");
  t.write(join(root, "pack.json"), JSON.stringify({ name: "tools", version: "1.0.0", artifacts: { mcp: ["probe", "remote"] } }));
  t.write(join(root, "mcp/probe.json"), JSON.stringify({ command: "node", args: ["{pack-dir}/server.mjs", "--stdio"], env: { PROBE_TOKEN: "{env:PROBE_TOKEN}", MODE: "fast" }, cwd: "{pack-dir}", startupTimeout: 20, callTimeout: 90 }));
  t.write(join(root, "mcp/remote.json"), JSON.stringify({ url: "https://mcp.example.test/mcp", headers: { Authorization: "Bearer {env:REMOTE_TOKEN}", "X-Team": "{env:TEAM_ID}", "X-Mode": "fast" } }));
  t.write(join(root, "files/server.mjs"), "// the server\n");
  return root;
}

/** `codex mcp list --json` offline, with the secrets in its environment. */
async function listed(home: string, codexHome: string, cwd: string): Promise<Listed[]> {
  const run = await runRealCli(realCli("codex"), ["mcp", "list", "--json"], { home, cwd, env: { CODEX_HOME: codexHome, ...SECRETS }, timeoutMs: 60_000 });
  expect(run.timedOut).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  for (const secret of Object.values(SECRETS)) expect(run.stdout + run.stderr).not.toContain(secret);
  return JSON.parse(run.stdout) as Listed[];
}

describe("MCP servers bosun wrote, as the real Codex 0.171 lists them", () => {
  it("global ($CODEX_HOME) and a trusted project: command, args, cwd, env_vars and header variables by name, no secret value; the strict config check passes", async () => {
    const cli = realCli("codex");
    const t = makeTempHome();
    const codexHome = join(t.root, "codex-home");
    const project = join(t.home, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    // The user's own config: a server of theirs, and the project trusted (Codex reads a project's .codex only then).
    t.write(join(codexHome, "config.toml"), `# mine\r\nmodel = "gpt-5"\r\n\r\n[projects."${project}"]\r\ntrust_level = "trusted"\r\n\r\n[mcp_servers.mine]\r\ncommand = "my-server"\r\n`);
    const env = { ...t.env, CODEX_HOME: codexHome, ...SECRETS };
    const pack = writePack(t);
    await install(t, { runtimes: ["codex"], env, pack });
    await install(t, { runtimes: ["codex"], env, pack, scope: "local", cwd: project });
    for (const file of [join(codexHome, "config.toml"), join(project, ".codex/config.toml")]) for (const secret of Object.values(SECRETS)) expect(readFileSync(file, "utf8")).not.toContain(secret);

    const probe = (root: string): Listed => ({
      name: "probe",
      enabled: true,
      transport: { type: "stdio", command: "node", args: [`${root}/tools/server.mjs`, "--stdio"], env: { MODE: "fast" }, env_vars: ["PROBE_TOKEN"], cwd: `${root}/tools` },
      startup_timeout_sec: 20,
      tool_timeout_sec: 90,
    });
    const remote: Listed = {
      name: "remote",
      enabled: true,
      transport: { type: "streamable_http", url: "https://mcp.example.test/mcp", bearer_token_env_var: "REMOTE_TOKEN", http_headers: { "X-Mode": "fast" }, env_http_headers: { "X-Team": "TEAM_ID" } },
      startup_timeout_sec: null,
      tool_timeout_sec: null,
    };
    const byName = (servers: Listed[]) => Object.fromEntries(servers.map((server) => [server.name, server]));

    const global = byName(await listed(t.home, codexHome, t.home));
    expect(Object.keys(global).sort()).toEqual(["mine", "probe", "remote"]);
    expect(global.probe).toMatchObject(probe(codexHome));
    expect(global.remote).toMatchObject(remote);
    expect(global.mine).toMatchObject({ transport: { type: "stdio", command: "my-server" } });

    // In the project, its .codex/config.toml's servers win over the global ones of the same name.
    const local = byName(await listed(t.home, codexHome, project));
    expect(local.probe).toMatchObject(probe(join(project, ".codex")));
    expect(local.remote).toMatchObject(remote);

    const strict = await runRealCli(cli, ["app-server", "--strict-config", "--print-startup-config"], { home: t.home, cwd: project, env: { CODEX_HOME: codexHome }, timeoutMs: 60_000 });
    expect(strict.code, strict.stdout + strict.stderr).toBe(0);
  }, 180_000);
});
