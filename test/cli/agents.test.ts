import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { main } from "../../src/cli/main.js";
import { BOSUN_BIN, Capture, runCli, runCliAnswering } from "../fixtures/cli.js";
import { KEYS, spawnInTerminal } from "../fixtures/pty.js";
import { codexAuthJson } from "../fixtures/codex-auth.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { APPROVED, PENDING, startOAuthServer, TOKENS, USER_CODE } from "../fixtures/oauth-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const IDS = ["a0", "claude", "codex", "gemini", "opencode", "cursor", "hermes", "grok"];
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A temp home whose PATH holds only a folder of fake agent binaries. */
function agentsHome(): TempHome & { bin: string; env: Env; fake(name: string, script?: string): string } {
  const t = makeTempHome();
  const bin = join(t.root, "bin");
  mkdirSync(bin);
  const env = { ...t.env, PATH: bin };
  return {
    ...t,
    env,
    bin,
    fake(name, script = 'echo ran >> "$0.ran"\nexit 97') {
      const file = join(bin, name);
      writeFileSync(file, `#!/bin/sh\n${script}\n`);
      chmodSync(file, 0o755);
      return file;
    },
  };
}

describe("bosun agents", () => {
  it("prints every agent in registry order, in exactly the documented JSON shape", async () => {
    const t = agentsHome();
    const { code, stdout, stderr } = await runCli(["agents", "--json"], t.env, t.home);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual(["agents", "defaults"]);
    expect(json.agents.map((a: { id: string }) => a.id)).toEqual(IDS);
    for (const agent of json.agents) {
      // Only an agent whose binary name several CLIs share (grok) says which one it is.
      const variant = agent.id === "grok" ? ["variant"] : [];
      expect(Object.keys(agent)).toEqual(["id", "title", "description", ...variant, "binary", "installed", "installHint", "loginHint", "supportsDeviceLogin", "canDisconnect", "auth", "verified", ...(agent.verified ? ["verifiedAgainst"] : [])]);
      expect(Object.keys(agent.auth)).toEqual(["connected", "mode", "authPath"]);
      expect(agent).toMatchObject({ installed: false, canDisconnect: false, auth: { connected: false, mode: "" } });
    }
    const { verified: _verified, verifiedAgainst: _against, ...codex } = json.agents[IDS.indexOf("codex")];
    expect(codex).toEqual({
      id: "codex",
      title: "OpenAI Codex CLI",
      description: "OpenAI Codex CLI for autonomous coding tasks in a working folder.",
      binary: "codex",
      installed: false,
      installHint: "npm install -g @openai/codex",
      loginHint: "bosun agents login codex, or codex login (printenv OPENAI_API_KEY | codex login --with-api-key for a key)",
      supportsDeviceLogin: true,
      canDisconnect: false,
      auth: { connected: false, mode: "", authPath: "" },
    });
    expect(json.agents[0].auth.authPath).toBe("http://127.0.0.1:1");
    expect(json.agents.filter((a: { supportsDeviceLogin: boolean }) => a.supportsDeviceLogin).map((a: { id: string }) => a.id)).toEqual(["codex"]);
  });

  it("shows the headless defaults, with bosun.json agents.<id> over them", async () => {
    const t = agentsHome();
    const plain = JSON.parse((await runCli(["agents", "--json"], t.env, t.home)).stdout);
    expect(plain.defaults).toEqual({
      a0: { binary: "a0", host: "" },
      codex: { binary: "codex", model: "", bypass_sandbox: true, delegate: "read-only" },
      claude: { binary: "claude", model: "", permission_mode: "bypassPermissions", allowed_tools: "Bash,Read,Edit", bare: false, delegate: "read-only" },
      cursor: { binary: "agent", output_format: "text", force: true, delegate: "read-only" },
      gemini: { binary: "gemini", model: "", delegate: "read-only" },
      grok: { binary: "grok", model: "", output_format: "json", always_approve: true, no_auto_update: true, delegate: "read-only" },
      hermes: { binary: "hermes", model: "", provider: "", toolsets: "", yolo: true },
      opencode: { binary: "opencode", model: "", agent: "", auto: true, delegate: "read-only" },
    });
    const codex = t.fake("my-codex");
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ agents: { codex: { binary: codex, model: "gpt-5" }, claude: { bare: true }, a0: { host: "127.0.0.1:1" } } }));
    const configured = JSON.parse((await runCli(["agents", "--json"], t.env, t.home)).stdout);
    expect(configured.defaults.codex).toEqual({ binary: codex, model: "gpt-5", bypass_sandbox: true, delegate: "read-only" });
    expect(configured.defaults.claude.bare).toBe(true);
    expect(configured.agents[IDS.indexOf("codex")]).toMatchObject({ binary: codex, installed: true });
    expect(configured.agents[0].auth.authPath).toBe("127.0.0.1:1");
    expect(existsSync(`${codex}.ran`)).toBe(false);
  });

  it("warns about an unknown key in the agents section and goes on", async () => {
    const cases: [string, RegExp][] = [
      ['{\n  "agents": {\n    "aider": {}\n  }\n}', /^bosun: warning: .*:3: agents\.aider: unknown key, ignored$/],
      ['{\n  "agents": { "codex": {\n    "modle": "x" } }\n}', /^bosun: warning: .*:3: agents\.codex\.modle: unknown key, ignored; did you mean model\?$/],
    ];
    for (const [content, message] of cases) {
      const t = agentsHome();
      t.write(join(t.paths.config, "bosun.json"), content);
      const result = await runCli(["agents"], t.env, t.home);
      expect(result.code, content).toBe(0);
      expect(result.stderr.trim(), content).toMatch(message);
    }
  });

  it("rejects a bad agents section naming file, line and field, and writes nothing", async () => {
    const cases: [string, RegExp][] = [
      ['{\n  "agents": { "claude": {\n    "bare": "yes" } }\n}', /:3: agents\.claude\.bare: expected boolean, received string$/],
      ['{\n  "agents": { "cursor": {\n    "output_format": "yaml" } }\n}', /:3: agents\.cursor\.output_format: .*"text"\|"json"\|"stream-json"/],
      ['{\n  "agents": { "a0": {\n    "host": "http://box:http" } }\n}', /:3: agents\.a0\.host: has an invalid port$/],
    ];
    for (const [content, message] of cases) {
      const t = agentsHome();
      t.write(join(t.paths.config, "bosun.json"), content);
      const before = snapshotTree(t.root);
      const result = await runCli(["agents"], t.env, t.home);
      expect(result.code, content).toBe(1);
      expect(result.stderr.trim(), content).toMatch(message);
      expect(snapshotTree(t.root)).toEqual(before);
    }
  });

  it("prints a table: agent, name, installed, signed in (how), where, hint", async () => {
    const t = agentsHome();
    t.fake("claude");
    t.fake("codex");
    t.fake("agent");
    t.write(join(t.home, ".codex/auth.json"), codexAuthJson());
    const env = { ...t.env, ANTHROPIC_API_KEY: "sk-ant-test-000000" };
    const { code, stdout } = await runCli(["agents"], env, t.home);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    // Hermes and OpenCode read ANTHROPIC_API_KEY too.
    expect(lines[0]).toBe("Agents: 4 of 8 agents signed in, 3 installed");
    expect(lines[2]).toMatch(/^\s+AGENT\s+NAME\s+INSTALLED\s+SIGNED IN\s+WHERE\s+HINT$/);
    expect(stdout).toMatch(/^ {2}a0 +Agent Zero \(headless\) +no +no +http:\/\/127\.0\.0\.1:1 +install: pip install /m);
    expect(stdout).toMatch(/^ {2}codex +OpenAI Codex CLI +yes +own login +~\/\.codex\/auth\.json$/m);
    expect(stdout).toMatch(/^ {2}claude +Claude Code +yes +env +ANTHROPIC_API_KEY$/m);
    expect(stdout).toMatch(/^ {2}cursor +Cursor CLI +yes +no +~\/\.cursor +sign in: NO_OPEN_BROWSER=1 agent login, or set CURSOR_API_KEY$/m);
    expect(stdout).not.toContain("sk-ant-test");
  });

  it("reports an adapter that fails as not signed in with a display-safe error, and the others still report", async () => {
    const t = agentsHome();
    const bad = t.write(join(t.home, ".cursor/auth.json"), "");
    writeFileSync(bad, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    const env = { ...t.env, XAI_API_KEY: "xai-test-1234567" };
    const json = JSON.parse((await runCli(["agents", "--json"], env, t.home)).stdout);
    expect(json.agents[IDS.indexOf("cursor")].auth).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${bad}: is not UTF-8 text` });
    expect(json.agents[IDS.indexOf("grok")].auth).toEqual({ connected: true, mode: "env", authPath: "XAI_API_KEY" });
    const table = (await runCli(["agents"], env, t.home)).stdout;
    expect(table).toMatch(/^ {2}cursor +Cursor CLI +no +error +cannot read ~\/\.cursor\/auth\.json: is not UTF-8 text$/m);
  });

  it("never runs an agent: fake binaries of all eight are found on PATH but never started", async () => {
    const t = agentsHome();
    const binaries = ["a0", "codex", "claude", "agent", "gemini", "grok", "hermes", "opencode"].map((name) => t.fake(name));
    t.write(join(t.home, ".codex/auth.json"), codexAuthJson());
    for (const argv of [["agents"], ["agents", "--json"], ["status"], ["status", "--json"]]) expect((await runCli(argv, t.env, t.home)).code).toBe(0);
    const json = JSON.parse((await runCli(["agents", "--json"], t.env, t.home)).stdout);
    expect(json.agents.every((agent: { installed: boolean }) => agent.installed)).toBe(true);
    expect(binaries.filter((binary) => existsSync(`${binary}.ran`))).toEqual([]);
  });

  it("rejects an unknown agent listing the known ones alphabetically", async () => {
    const t = agentsHome();
    for (const argv of [["agents", "login", "aider"], ["agents", "disconnect", "aider", "--yes"]]) {
      const result = await runCli(argv, t.env, t.home);
      expect(result).toEqual({ code: 1, stdout: "", stderr: 'bosun: unknown agent "aider"; available: a0, claude, codex, cursor, gemini, grok, hermes, opencode\n' });
    }
  });
});

describe("bosun status (agents part)", () => {
  it("counts agents installed and signed in, with a line per agent and a summary part", async () => {
    const t = agentsHome();
    t.fake("gemini");
    const env = { ...t.env, GEMINI_API_KEY: "gem-secret-123456" };
    const json = JSON.parse((await runCli(["status", "--json"], env, t.home)).stdout);
    expect(json.subsystems.agents).toEqual({
      state: "ready",
      detail: "3 of 8 agents signed in, 1 installed (bosun agents)",
      total: 8,
      installed: 1,
      signedIn: 3,
      agents: IDS.map((id) => {
        const connected = ["gemini", "hermes", "opencode"].includes(id);
        return { id, installed: id === "gemini", connected, mode: connected ? "env" : "" };
      }),
    });
    // The agents' part comes first; the catalog adds its own part after it.
    expect(json.summary).toMatch(/^bosun 0\.1\.0: 3 of 8 agents signed in( · |$)/);
    const screen = (await runCli(["status"], env, t.home)).stdout;
    expect(screen).toMatch(/^Agents {2}3 of 8 agents signed in, 1 installed \(bosun agents\)$/m);
    expect(screen).toMatch(/^ {2}gemini +installed +signed in \(env\)$/m);
    expect(screen).toMatch(/^ {2}claude +not installed +not signed in$/m);
    expect(screen).not.toContain("gem-secret");
  });

  it("needs attention when an adapter reports an error", async () => {
    const t = agentsHome();
    writeFileSync(t.write(join(t.home, ".local/share/opencode/auth.json"), ""), Buffer.from([0xc3]));
    const json = JSON.parse((await runCli(["status", "--json"], t.env, t.home)).stdout);
    expect(json.subsystems.agents.state).toBe("attention");
    const screen = (await runCli(["status"], t.env, t.home)).stdout;
    expect(screen).toMatch(/^ {2}opencode +not installed +cannot read ~\/\.local\/share\/opencode\/auth\.json: is not UTF-8 text$/m);
  });
});

describe("bosun agents login codex", () => {
  it("shows the code and URL, waits, stores bosun's own Codex login (--json: the start payload, then the result)", async () => {
    const server = await startOAuthServer({
      usercode: { status: 200, body: { device_auth_id: "dev-auth-7f3a9c", user_code: USER_CODE, interval: 1 } },
      token: APPROVED,
    });
    servers.push(server);
    const t = agentsHome();
    const env = { ...t.env, BOSUN_CODEX_AUTH_BASE: server.base };
    const result = await runCli(["agents", "login", "codex", "--json"], env, t.home);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [first, last, ...rest] = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const authPath = join(t.paths.data, "runtimes", "codex", "auth.json");
    expect(rest).toEqual([]);
    expect(first).toEqual({ agent: "codex", userCode: USER_CODE, verificationUrl: `${server.base}/codex/device`, interval: 1, expiresAt: expect.any(Number) });
    expect(last).toEqual({ agent: "codex", completed: true, accountId: "acct-42", authPath });
    expect(JSON.parse(readFileSync(authPath, "utf8")).tokens.refresh_token).toBe(TOKENS.refresh_token);
    expect(result.stdout).not.toContain(TOKENS.refresh_token);
    expect(result.stdout).not.toContain("dev-auth-7f3a9c");

    const status = JSON.parse((await runCli(["agents", "--json"], env, t.home)).stdout).agents[IDS.indexOf("codex")];
    expect(status).toMatchObject({ canDisconnect: true, auth: { connected: true, mode: "plugin", authPath } });
    const table = (await runCli(["agents"], env, t.home)).stdout;
    expect(table).toMatch(/codex +OpenAI Codex CLI +no +bosun login +~\/\.local\/share\/bosun\/runtimes\/codex\/auth\.json +install: /);
    const log = readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8");
    expect(log).toContain("agent device login completed");
    expect(log).not.toContain(TOKENS.access_token);
  });

  it("on a terminal: the code and URL, a spinner on stderr, then where the login went and how Codex uses it", async () => {
    const server = await startOAuthServer({ usercode: { status: 200, body: { device_auth_id: "dev-auth-7f3a9c", user_code: USER_CODE, interval: 1 } } });
    servers.push(server);
    const t = agentsHome();
    t.fake("codex");
    const stdout = new Capture();
    // What ora needs of a terminal stream.
    const stderr = Object.assign(new Capture(), { isTTY: true, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const code = await main(["agents", "login", "codex"], { stdout, stderr, env: { ...t.env, BOSUN_CODEX_AUTH_BASE: server.base } });
    expect(code).toBe(0);
    expect(stdout.text).toBe(
      [
        `To sign OpenAI Codex CLI in, open ${server.base}/codex/device`,
        `and enter the code ${USER_CODE} (it expires in 15 minutes).`,
        "Signed in (account acct-42). The login is in ~/.local/share/bosun/runtimes/codex/auth.json.",
        "Start Codex with CODEX_HOME=~/.local/share/bosun/runtimes/codex to use it.",
        "",
      ].join("\n"),
    );
    expect(stderr.text).toContain("Waiting for you to finish signing in (Ctrl-C cancels)");
  });

  it("fails with the server's reason and stores nothing", async () => {
    const server = await startOAuthServer({ usercode: { status: 403, body: { error: "unsupported_country_region_territory", error_description: "Country, region, or territory not supported" } } });
    servers.push(server);
    const t = agentsHome();
    const result = await runCli(["agents", "login", "codex"], { ...t.env, BOSUN_CODEX_AUTH_BASE: server.base }, t.home);
    expect(result).toEqual({ code: 1, stdout: "", stderr: "bosun: Codex login failed: Country, region, or territory not supported\n" });
    expect(existsSync(join(t.paths.data, "runtimes"))).toBe(false);
  });

  it("refuses agents without device login, naming how to sign them in", async () => {
    const t = agentsHome();
    const result = await runCli(["agents", "login", "claude"], t.env, t.home);
    expect(result.stderr).toBe("bosun: Claude Code has no device login in bosun; sign in with: claude auth login --claudeai (or --console, --sso), claude setup-token for CLAUDE_CODE_OAUTH_TOKEN, or set ANTHROPIC_API_KEY\n");
  });

  it("Ctrl-C cancels cleanly: exit 1, one line, nothing stored", async () => {
    const server = await startOAuthServer({ token: PENDING });
    servers.push(server);
    const t = agentsHome();
    const child = spawn(process.execPath, [BOSUN_BIN, "agents", "login", "codex", "--json"], { env: { ...t.env, BOSUN_CODEX_AUTH_BASE: server.base }, cwd: t.home });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    await new Promise<void>((resolve) => child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk), stdout.includes("\n") && resolve())));
    const interrupted = Date.now();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(Date.now() - interrupted).toBeLessThan(2000);
    expect(code).toBe(1);
    expect(stderr).toBe("bosun: Codex login cancelled; nothing was stored\n");
    expect(JSON.parse(stdout).userCode).toBe(USER_CODE);
    expect(existsSync(join(t.paths.data, "runtimes", "codex", "auth.json"))).toBe(false);
  });
});

// A real terminal (test/fixtures/pty.ts): the spinner runs and Ctrl-C arrives as a keystroke.

describe("bosun agents login codex on a real terminal", () => {
  it("shows the spinner, and Ctrl-C stops it, restores the cursor and cancels", async () => {
    const server = await startOAuthServer({ token: PENDING });
    servers.push(server);
    const t = agentsHome();
    const term = spawnInTerminal([process.execPath, BOSUN_BIN, "agents", "login", "codex"], {
      env: { ...t.env, PATH: `${t.bin}:/usr/bin:/bin`, BOSUN_CODEX_AUTH_BASE: server.base, TERM: "xterm" },
      cwd: t.home,
      cols: 100,
      rows: 24,
    });
    await term.waitFor("Waiting for you");
    term.type(KEYS.ctrlC);
    expect(await term.exit).toBe(1);
    const screen = term.raw;
    expect(screen).toMatch(new RegExp(`enter the code (\u001b\\[1m)?${USER_CODE}`));
    expect(screen).toMatch(/\u001b\[\?25h[^]*bosun: Codex login cancelled; nothing was stored/);
    expect(existsSync(join(t.paths.data, "runtimes", "codex", "auth.json"))).toBe(false);
  });
});

describe("bosun agents disconnect", () => {
  it("without a terminal needs --yes, and says what it would do", async () => {
    const t = agentsHome();
    const file = t.write(join(t.home, ".claude/.credentials.json"), JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat-test", scopes: ["user:inference"] } }));
    const result = await runCli(["agents", "disconnect", "claude"], t.env, t.home);
    expect(result).toEqual({ code: 1, stdout: "", stderr: "bosun: disconnecting Claude Code would delete ~/.claude/.credentials.json; pass --yes to confirm (stdin is not a terminal)\n" });
    expect(existsSync(file)).toBe(true);
    const done = await runCli(["agents", "disconnect", "claude", "--yes"], t.env, t.home);
    expect(done).toEqual({ code: 0, stdout: "Disconnected Claude Code (~/.claude/.credentials.json).\n", stderr: "" });
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).toContain('"msg":"agent disconnected"');
  });

  it("asks on a terminal: yes removes, anything else changes nothing", async () => {
    const t = agentsHome();
    const file = t.write(join(t.paths.data, "runtimes/codex/auth.json"), codexAuthJson());
    const declined = await runCliAnswering(["agents", "disconnect", "codex"], t.env, "n", t.home);
    expect(declined.asked).toContain(`Disconnect OpenAI Codex CLI: delete ~/.local/share/bosun/runtimes/codex/auth.json? [y/N]`);
    expect(declined.code).toBe(0);
    expect(declined.stderr).toContain("bosun: nothing changed");
    expect(existsSync(file)).toBe(true);
    const accepted = await runCliAnswering(["agents", "disconnect", "codex", "--json"], t.env, "y", t.home);
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toEqual({ agent: "codex", removed: true, mode: "plugin", authPath: file });
    expect(existsSync(file)).toBe(false);
  });

  it("removes Codex's own auth.json as `codex logout` would, without running codex (which leaves lock files behind)", async () => {
    const t = agentsHome();
    const external = t.write(join(t.home, ".codex/auth.json"), codexAuthJson({ access: "acc-0123456789abcdef-SECRET" }));
    const config = t.write(join(t.home, ".codex/config.toml"), 'model = "gpt-5"\n');
    t.fake("codex", 'echo ran > "$HOME/codex-ran"\nexit 9');
    const done = await runCli(["agents", "disconnect", "codex", "--yes"], t.env, t.home);
    expect(done).toEqual({ code: 0, stdout: "Disconnected OpenAI Codex CLI (~/.codex/auth.json).\n", stderr: "" });
    expect(existsSync(external)).toBe(false);
    expect(existsSync(config)).toBe(true);
    expect(existsSync(join(t.home, "codex-ran"))).toBe(false);
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).not.toContain("SECRET");
  });

  it("refuses agents whose credential store bosun cannot name, and when nothing is signed in", async () => {
    const t = agentsHome();
    expect((await runCli(["agents", "disconnect", "cursor", "--yes"], t.env, t.home)).stderr).toBe(
      "bosun: bosun does not disconnect Cursor CLI: it cannot name every place its credentials live; sign out with the agent itself\n",
    );
    expect((await runCli(["agents", "disconnect", "claude", "--yes"], t.env, t.home)).stderr).toBe("bosun: Claude Code: nothing to disconnect (no Claude Code credentials found)\n");
  });
});
