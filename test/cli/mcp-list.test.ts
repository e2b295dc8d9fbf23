import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { alive, fixtureEvents, startHttpFixture, stdioEntry } from "../fixtures/mcp-fixture.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

function configure(t: TempHome, mcp: Record<string, unknown>): string {
  return t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ mcp }, null, 2));
}

describe("bosun mcp list", () => {
  it("starts every enabled server and lists its state, transport and tools with their approval (--json)", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    const file = configure(t, {
      fixture: stdioEntry({ record, tools: ["echo", "write_note", "wipe", "bad_schema"] }, { tools: { wipe: "deny" } }),
      careful: stdioEntry({ name: "careful", tools: ["echo"] }, { approval: "ask" }),
      broken: stdioEntry({ crash: true }),
      off: { url: "http://127.0.0.1:1/mcp", enabled: false },
    });
    const result = await runCli(["mcp", "list", "--json"], t.env, t.home);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { servers } = JSON.parse(result.stdout) as { servers: Record<string, unknown>[] };
    expect(servers.map((server) => [server.name, server.state, server.transport])).toEqual([
      ["broken", "failed", "stdio"],
      ["careful", "ready", "stdio"],
      ["fixture", "ready", "stdio"],
      ["off", "disabled", "http"],
    ]);
    expect(servers[0]).toMatchObject({ scope: "global", file, reason: 'it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"', tools: [] });
    expect(servers[1]!.tools).toEqual([{ name: "echo", model: "careful__echo", description: "Returns the text it is given.", approval: "ask", source: "server", setting: "mcp.careful.tools.echo" }]);
    expect(servers[2]).toMatchObject({
      serverInfo: { name: "fixture", version: "1.2.3" },
      tools: [
        { name: "echo", model: "fixture__echo", approval: "allow", source: "read-only hint" },
        { name: "write_note", model: "fixture__write_note", approval: "ask", source: "default" },
        { name: "wipe", model: "fixture__wipe", approval: "deny", source: "tool", setting: "mcp.fixture.tools.wipe" },
      ],
      leftOut: [{ name: "bad_schema", reason: expect.stringContaining("its input schema is not valid JSON Schema") }],
    });
    expect(servers[3]).toEqual({ name: "off", scope: "global", file, transport: "http", target: "http://127.0.0.1:1/mcp", state: "disabled", tools: [], leftOut: [] });
    // Listed, then stopped.
    expect(alive(fixtureEvents(record)[0]!.pid)).toBe(false);
  });

  it("shows the same as text, a project's entry in the place of the global one of that name", async () => {
    const t = makeTempHome();
    configure(t, { fixture: stdioEntry({ tools: ["echo"] }), gone: stdioEntry({ crash: true }) });
    t.write(join(t.home, "project", ".git", "HEAD"), "ref: refs/heads/main\n");
    t.write(join(t.home, "project", "bosun.json"), JSON.stringify({ mcp: { fixture: stdioEntry({ tools: ["write_note"] }, { approval: "allow" }) } }));
    const result = await runCli(["mcp", "list"], t.env, join(t.home, "project"));
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^fixture ready \(1 tool, \d+\.\d s\) · stdio · \S+ \S+mcp-server\.mjs --tools write_note · project \(~\/project\/bosun\.json\)$/);
    expect(lines[1]).toBe("  fixture__write_note  allow  mcp.fixture.approval");
    expect(lines[2]).toMatch(/^gone failed · stdio · .* --crash · global \(~\/\.config\/bosun\/bosun\.json\)$/);
    expect(lines[3]).toBe('  it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"');
    expect(lines).toHaveLength(4);
  });

  it("says when bosun.json declares no servers", async () => {
    const t = makeTempHome();
    expect(await runCli(["mcp", "list", "--json"], t.env, t.home)).toEqual({ code: 0, stdout: '{\n  "servers": []\n}\n', stderr: "" });
    const text = await runCli(["mcp", "list"], t.env, t.home);
    expect(text.stderr).toBe('bosun: no MCP servers in bosun.json; declare them under "mcp" (bosun mcp test NAME then tries one)\n');
  });
});

describe("bosun mcp test", () => {
  it("starts one server, lists its tools and stops it: exit 0", async () => {
    const t = makeTempHome();
    const record = join(t.root, "events.jsonl");
    configure(t, { fixture: stdioEntry({ record, tools: ["echo", "add"] }), broken: stdioEntry({ crash: true }) });
    const result = await runCli(["mcp", "test", "fixture"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  fixture__echo  allow  it says it only reads\n  fixture__add   allow  it says it only reads\n");
    expect(result.stderr).toBe("bosun: fixture works: it started, listed 2 tools and was stopped\n");
    const events = fixtureEvents(record);
    expect(events.map((event) => event.event)).toEqual(["spawned", "initialized"]);
    expect(alive(events[0]!.pid)).toBe(false);
  });

  it("tests a server over HTTP, and one that is disabled (saying bosun run does not start it)", async () => {
    const t = makeTempHome();
    const { url } = await startHttpFixture({ tools: ["add"] });
    configure(t, { remote: { url, enabled: false } });
    const result = await runCli(["mcp", "test", "remote", "--json"], t.env, t.home);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: "remote", transport: "http", target: url, state: "ready", enabled: false, tools: [{ model: "remote__add" }] });
    expect(result.stderr).toContain('bosun: remote is disabled in bosun.json ("enabled": false): bosun run does not start it\n');
  });

  it("exits 1 with the reason in one line when the server fails", async () => {
    const t = makeTempHome();
    configure(t, { broken: stdioEntry({ crash: true }), hangs: stdioEntry({ hang: true }, { startupTimeout: 0.5 }) });
    expect(await runCli(["mcp", "test", "broken"], t.env, t.home)).toEqual({
      code: 1,
      stdout: "",
      stderr: 'bosun: MCP server broken (declared in ~/.config/bosun/bosun.json): it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"\n',
    });
    const hung = await runCli(["mcp", "test", "hangs", "--json"], t.env, t.home);
    expect(hung.code).toBe(1);
    expect(JSON.parse(hung.stdout)).toMatchObject({ name: "hangs", state: "failed", reason: "it did not answer initialize within 0.5 s (its startupTimeout)" });
    expect(hung.stderr).toBe("bosun: MCP server hangs (declared in ~/.config/bosun/bosun.json): it did not answer initialize within 0.5 s (its startupTimeout)\n");
  });

  it("names the configured servers when NAME is not one of them", async () => {
    const t = makeTempHome();
    expect((await runCli(["mcp", "test", "github"], t.env, t.home)).stderr).toBe(
      'bosun: no MCP server named "github": bosun.json declares no MCP servers (add them under "mcp", in your global bosun.json or the project\'s)\n',
    );
    configure(t, { fixture: stdioEntry(), other: stdioEntry() });
    expect(await runCli(["mcp", "test", "github"], t.env, t.home)).toEqual({ code: 1, stdout: "", stderr: 'bosun: no MCP server named "github" in bosun.json; the configured ones are fixture, other\n' });
  });

  it("never shows a secret a server prints, nor what a reference stands for", async () => {
    const t = makeTempHome();
    const script = "process.stderr.write('cannot log in with ' + process.env.SERVICE_HANDLE + '\\n'); process.exit(2)";
    configure(t, { leaky: { command: process.execPath, args: ["-e", script], env: { SERVICE_HANDLE: "{env:MY_HANDLE}" } } });
    const result = await runCli(["mcp", "test", "leaky"], { ...t.env, MY_HANDLE: "handle-value-never-shown-991" }, t.home);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('bosun: MCP server leaky (declared in ~/.config/bosun/bosun.json): it exited with code 2 before it answered initialize; its stderr ends: "cannot log in with [redacted:MY_HANDLE]"\n');
  });
});
