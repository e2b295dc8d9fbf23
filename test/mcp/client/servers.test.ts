import { mkdtempSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpServers, type McpServersOptions, type ServerOutcome, type StartResult } from "../../../src/mcp/client/server-pool.js";
import { McpCallError, type McpServerError } from "../../../src/mcp/client/errors.js";
import { mcpConfigSchema } from "../../../src/mcp/config-schema.js";
import { configuredServers } from "../../../src/mcp/configured-servers.js";
import { alive, eventually, fixtureEvents, startHttpFixture, stdioEntry } from "../../fixtures/mcp-fixture.js";

const EXIT_CHILD = fileURLToPath(new URL("../../fixtures/mcp-exit-child.ts", import.meta.url));
const pools: McpServers[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.stop()));
});

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "bosun-mcp-"));
}

/** A pool of the given `bosun.json` `mcp` entries (checked by the schema), stopped after the test. */
function pool(entries: Record<string, unknown>, options: Partial<McpServersOptions> = {}): McpServers {
  const dir = scratch();
  const servers = configuredServers([{ scope: "global", file: join(dir, "bosun.json"), value: { mcp: mcpConfigSchema.parse(entries) } }]);
  const made = new McpServers({ servers, referenceEnv: {}, baseEnv: { PATH: process.env.PATH }, workdir: dir, home: dir, ...options });
  pools.push(made);
  return made;
}

function outcome(result: StartResult, name: string): ServerOutcome {
  const found = result.servers.find((entry) => entry.configured.name === name);
  if (!found) throw new Error(`no outcome for ${name}`);
  return found;
}

function ready(result: StartResult, name: string) {
  const found = outcome(result, name);
  if (found.state !== "ready") throw new Error(`${name} is ${found.state}: ${found.state === "failed" ? found.error.message : ""}`);
  return found.connection;
}

function failure(result: StartResult, name: string): string {
  const found = outcome(result, name);
  if (found.state !== "failed") throw new Error(`${name} is ${found.state}`);
  return found.error.message;
}

const never = new AbortController().signal;

describe("MCP servers over stdio", () => {
  it("starts a server, lists every page of its tools and calls them", async () => {
    const record = join(scratch(), "events.jsonl");
    const result = await pool({ fixture: stdioEntry({ record, tools: ["echo", "add", "write_note", "wipe", "fail", "media", "structured"] }) }).start();
    const connection = ready(result, "fixture");
    // The fixture pages its list two tools at a time.
    expect(connection.tools.map((tool) => tool.name)).toEqual(["echo", "add", "write_note", "wipe", "fail", "media", "structured"]);
    expect(connection.serverInfo).toEqual({ name: "fixture", version: "1.2.3" });
    expect(result.tools.map((entry) => [entry.modelName, entry.approval.effective, entry.approval.source])).toEqual([
      ["fixture__echo", "allow", "read-only hint"],
      ["fixture__add", "allow", "read-only hint"],
      ["fixture__write_note", "ask", "default"],
      ["fixture__wipe", "ask", "default"],
      ["fixture__fail", "allow", "read-only hint"],
      ["fixture__media", "allow", "read-only hint"],
      ["fixture__structured", "allow", "read-only hint"],
    ]);
    expect(await connection.call("echo", { text: "hello" }, never)).toEqual({ text: "hello", isError: false, cut: 0 });
    expect((await connection.call("add", { a: 2, b: 3 }, never)).text).toBe("5");
    expect(await connection.call("fail", {}, never)).toMatchObject({ text: "the thing failed: no such record", isError: true });
    const media = (await connection.call("media", {}, never)).text;
    expect(media).toContain("here is everything");
    expect(media).toContain("[image (image/png, 2.9 KiB) not shown: bosun gives the model a tool's text only]");
    expect(media).toContain("[resource file:///notes/today.md (text/markdown)]\n# Today\nnothing yet");
    expect(media).toContain("[resource file:///bin/blob (application/octet-stream, 10 bytes) not shown: it is binary]");
    expect(media).toContain("[resource link spec https://example.com/spec (text/html): the spec]");
    expect((await connection.call("structured", {}, never)).text).toBe(JSON.stringify({ answer: 42, unit: "apples" }, null, 2));
    expect(fixtureEvents(record).filter((event) => event.event === "call").map((event) => event.tool)).toEqual(["echo", "add", "fail", "media", "structured"]);
    // The run's signal does not gather a listener per call (the SDK never takes its own off).
    const run = new AbortController().signal;
    for (let i = 0; i < 15; i++) await connection.call("echo", { text: String(i) }, run);
    expect(getEventListeners(run, "abort")).toHaveLength(0);
  });

  it("starts every server at once, not one after another", async () => {
    const record = join(scratch(), "events.jsonl");
    const entries = Object.fromEntries(["one", "two", "three"].map((name) => [name, stdioEntry({ name, record, startDelayMs: 400 })]));
    const result = await pool(entries).start();
    for (const name of ["one", "two", "three"]) ready(result, name);
    const events = fixtureEvents(record);
    const lastSpawn = Math.max(...events.filter((event) => event.event === "spawned").map((event) => event.t));
    const firstReady = Math.min(...events.filter((event) => event.event === "initialized").map((event) => event.t));
    // Started one after another, the second would be spawned only once the first answered.
    expect(events.filter((event) => event.event === "spawned")).toHaveLength(3);
    expect(lastSpawn).toBeLessThan(firstReady);
  });

  it("stops the server's whole process group with the pool", async () => {
    const dir = scratch();
    const pidFile = join(dir, "sleeper.pid");
    const record = join(dir, "events.jsonl");
    // A wrapper that leaves a process of its own behind, as `npx` and shell scripts do.
    const script = `sleep 300 & echo $! > '${pidFile}'; exec '${process.execPath}' "$@"`;
    const made = pool({ wrapped: { command: "sh", args: ["-c", script, "sh", ...(stdioEntry({ record }).args as string[])] } });
    ready(await made.start(), "wrapped");
    const sleeper = Number((await import("node:fs")).readFileSync(pidFile, "utf8"));
    const server = fixtureEvents(record)[0]!.pid;
    expect(alive(sleeper)).toBe(true);
    await made.stop();
    expect(await eventually(() => !alive(sleeper) && !alive(server))).toBe(true);
  });

  it("kills the servers' process groups when the process exits without stopping them", async () => {
    const record = join(scratch(), "events.jsonl");
    const child = spawnSync(process.execPath, ["--import", "tsx", EXIT_CHILD, record], { encoding: "utf8", timeout: 20_000 });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const server = Number(child.stdout.trim());
    expect(server).toBeGreaterThan(0);
    // Its call would keep it alive for 30 s, stdin closed or not.
    expect(await eventually(() => !alive(server))).toBe(true);
  });

  it("gives the server bosun's environment and its env with the references resolved", async () => {
    const dir = scratch();
    writeFileSync(join(dir, "handle.txt"), "file-handle-value-77\n");
    const result = await pool(
      { fixture: stdioEntry({ tools: ["show_env"] }, { env: { SERVICE_HANDLE: "{env:MY_HANDLE}", FROM_FILE: "{file:~/handle.txt}", PLAIN: "plain text" } }) },
      { referenceEnv: { MY_HANDLE: "env-handle-value-42" }, baseEnv: { PATH: process.env.PATH, SHELL_THING: "from the shell" }, home: dir },
    );
    const started = await result.start();
    const connection = ready(started, "fixture");
    const read = async (name: string) => (await connection.call("show_env", { name }, never)).text;
    expect(await read("SERVICE_HANDLE")).toBe("env-handle-value-42");
    expect(await read("FROM_FILE")).toBe("file-handle-value-77");
    expect(await read("PLAIN")).toBe("plain text");
    expect(await read("SHELL_THING")).toBe("from the shell");
    expect(await read("MY_HANDLE")).toBe("(not set)");
    expect(result.secrets()).toEqual([
      { name: "MY_HANDLE", value: "env-handle-value-42" },
      { name: "mcp.fixture.env.FROM_FILE", value: "file-handle-value-77" },
    ]);
  });
});

describe("MCP servers that fail", () => {
  it("says in one line why a server crashed, hung or sent garbage at start, and starts the others", async () => {
    const dir = scratch();
    const record = join(dir, "events.jsonl");
    const result = await pool({
      crashes: stdioEntry({ crash: true }),
      hangs: stdioEntry({ hang: true, record, name: "hangs" }, { startupTimeout: 0.5 }),
      garbage: stdioEntry({ garbage: true }),
      missing: { command: "bosun-no-such-mcp-server" },
      unset: stdioEntry({}, { env: { TOKEN: "{env:NOT_SET_ANYWHERE}" } }),
      badfile: stdioEntry({}, { env: { KEY: "{file:/nonexistent/key.txt}" } }),
      good: stdioEntry(),
      off: stdioEntry({}, { enabled: false }),
    }).start();
    // The pool's home is the scratch folder: the file is shown from ~.
    const file = "~/bosun.json";
    expect(failure(result, "crashes")).toBe(`MCP server crashes (declared in ${file}): it exited with code 3 before it answered initialize; its stderr ends: "fixture: cannot open the database at /nonexistent/db.sqlite"`);
    expect(failure(result, "hangs")).toBe(`MCP server hangs (declared in ${file}): it did not answer initialize within 0.5 s (its startupTimeout)`);
    expect(failure(result, "garbage")).toBe(
      `MCP server garbage (declared in ${file}): it writes text that is not MCP on stdout ("Welcome to the fixture server!"); a server started by a command may write only JSON-RPC messages there (logs belong on stderr)`,
    );
    expect(failure(result, "missing")).toBe(`MCP server missing (declared in ${file}): cannot start bosun-no-such-mcp-server: no such command (ENOENT); is it installed, and on the PATH?`);
    expect(failure(result, "unset")).toBe(`MCP server unset (declared in ${file}): env.TOKEN refers to {env:NOT_SET_ANYWHERE}, which is not set in bosun's environment (nor in its .env)`);
    expect(failure(result, "badfile")).toBe(`MCP server badfile (declared in ${file}): env.KEY refers to {file:/nonexistent/key.txt}, which cannot be read (/nonexistent/key.txt: no such file)`);
    expect(outcome(result, "off").state).toBe("disabled");
    expect(ready(result, "good").tools.map((tool) => tool.name)).toEqual(["echo", "add", "write_note"]);
    expect(result.tools.map((entry) => entry.modelName)).toEqual(["good__echo", "good__add", "good__write_note"]);
    // The server that hung is stopped, not left behind.
    const hung = fixtureEvents(record)[0]!.pid;
    expect(await eventually(() => !alive(hung))).toBe(true);
  });

  it("drops a server that exits during a call: the call and every later one say why", async () => {
    const dropped: McpServerError[] = [];
    const made = pool({ fixture: stdioEntry({ tools: ["echo", "exit"] }) }, { onDropped: (error) => dropped.push(error) });
    const connection = ready(await made.start(), "fixture");
    const during = await connection.call("exit", {}, never).catch((error: unknown) => error);
    expect(during).toBeInstanceOf(McpCallError);
    expect((during as Error).message).toBe(`the MCP server fixture stopped during the call: it exited with code 1; its stderr ends: "fixture: giving up"; its tools are not available for the rest of this run`);
    expect(dropped.map((error) => error.reason)).toEqual([`it exited with code 1; its stderr ends: "fixture: giving up"`]);
    await expect(connection.call("echo", { text: "x" }, never)).rejects.toThrow(`the MCP server fixture is no longer used in this run: it exited with code 1; its stderr ends: "fixture: giving up"`);
    expect((await made.current()).tools).toEqual([]);
  });

  it("cancels a call that takes longer than callTimeout and keeps the server", async () => {
    const record = join(scratch(), "events.jsonl");
    const connection = ready(await pool({ fixture: stdioEntry({ record, tools: ["echo", "slow"] }, { callTimeout: 0.5 }) }).start(), "fixture");
    const started = Date.now();
    await expect(connection.call("slow", { ms: 10_000 }, never)).rejects.toThrow("the MCP server fixture did not answer within 0.5 s (its callTimeout); the call was cancelled");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await eventually(() => fixtureEvents(record).some((event) => event.event === "cancelled"))).toBe(true);
    expect((await connection.call("echo", { text: "still here" }, never)).text).toBe("still here");
    expect(connection.dropped).toBeNull();
  });

  it("drops a server that stops answering altogether after a call timed out", async () => {
    const dropped: string[] = [];
    const made = pool({ fixture: stdioEntry({ tools: ["echo", "freeze"] }, { callTimeout: 0.5 }) }, { onDropped: (error) => dropped.push(error.reason) });
    const connection = ready(await made.start(), "fixture");
    await expect(connection.call("freeze", { ms: 4_000 }, never)).rejects.toThrow(
      "the MCP server fixture did not answer within 0.5 s (its callTimeout); the call was cancelled, and the server no longer answers at all: its tools are not available for the rest of this run",
    );
    expect(dropped).toEqual(["it stopped answering (a call got no answer within 0.5 s, then a ping none either)"]);
  });

  it("cuts a result at maxOutput with a note, and refuses a result that is not one", async () => {
    const connection = ready(await pool({ fixture: stdioEntry({ tools: ["huge", "invalid_result"] }, { maxOutput: 1000 }) }).start(), "fixture");
    const huge = await connection.call("huge", { size: 5000 }, never);
    expect(huge.cut).toBe(4000);
    expect(huge.text).toBe(`${"x".repeat(1000)}\n… [bosun cut this result at 1,000 characters (the server's maxOutput): 4,000 more of its 5,000 were not shown]`);
    await expect(connection.call("invalid_result", {}, never)).rejects.toThrow("the MCP server fixture sent an invalid result: its content is not a list of parts");
  });

  it("leaves out a tool whose input schema a model cannot take, and keeps the rest", async () => {
    const connection = ready(await pool({ fixture: stdioEntry({ tools: ["echo", "bad_schema", "string_schema"] }) }).start(), "fixture");
    expect(connection.tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(connection.leftOut).toEqual([
      { name: "bad_schema", reason: 'its input schema is not valid JSON Schema: properties.path.type: "strnig" is not a JSON Schema type (string, number, integer, boolean, object, array, null)' },
      { name: "string_schema", reason: `its input schema is not valid JSON Schema: the input schema is not an object's (its type is "string", and a model's tool takes an object of arguments)` },
    ]);
  });

  it("stops servers still starting when the pool stops, without waiting for their startupTimeout", async () => {
    const record = join(scratch(), "events.jsonl");
    const made = pool({ slow: stdioEntry({ hang: true, record }, { startupTimeout: 60 }) });
    const starting = made.start();
    expect(await eventually(() => fixtureEvents(record).length > 0)).toBe(true);
    const began = Date.now();
    await made.stop();
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(failure(await starting, "slow")).toContain("bosun stopped it while it started");
    expect(await eventually(() => !alive(fixtureEvents(record)[0]!.pid))).toBe(true);
  });
});

describe("MCP servers over streamable HTTP", () => {
  it("reaches a server on 127.0.0.1 with its headers' references resolved, and calls its tools", async () => {
    const record = join(scratch(), "events.jsonl");
    const { url } = await startHttpFixture({ record, tools: ["echo", "add", "huge"] });
    const made = pool({ remote: { url, headers: { Authorization: "Bearer {env:REMOTE_TOKEN}", "X-Team": "platform" }, maxOutput: 1000 } }, { referenceEnv: { REMOTE_TOKEN: "tok-http-secret-123456" } });
    const result = await made.start();
    const connection = ready(result, "remote");
    expect(connection.kind).toBe("http");
    expect(result.tools.map((entry) => entry.modelName)).toEqual(["remote__echo", "remote__add", "remote__huge"]);
    expect((await connection.call("add", { a: 20, b: 22 }, never)).text).toBe("42");
    expect((await connection.call("huge", { size: 3000 }, never)).cut).toBe(2000);
    const sent = fixtureEvents(record).filter((event) => event.event === "headers");
    const wanted = createHash("sha256").update("Bearer tok-http-secret-123456").digest("hex");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((event) => event.authorization?.sha === wanted && event.team === "platform")).toBe(true);
    expect(made.secrets()).toEqual([{ name: "REMOTE_TOKEN", value: "tok-http-secret-123456" }]);
  });

  it("says why a URL cannot be used: nothing listening, or an HTTP error", async () => {
    const refusing = createServer((_req, res) => res.writeHead(401, { "content-type": "text/plain" }).end("who are you?"));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const port = (refusing.address() as AddressInfo).port;
      const result = await pool({
        closed: { url: "http://127.0.0.1:1/mcp", startupTimeout: 5 },
        refusing: { url: `http://127.0.0.1:${port}/mcp?key=abc` },
        userinfo: { url: `http://user:pw-in-url@127.0.0.1:${port}/mcp` },
      }).start();
      expect(failure(result, "closed")).toMatch(/^MCP server closed \(declared in ~\/bosun\.json\): cannot reach http:\/\/127\.0\.0\.1:1\/mcp: \S/);
      expect(failure(result, "refusing")).toBe(`MCP server refusing (declared in ~/bosun.json): http://127.0.0.1:${port}/mcp answered initialize with HTTP 401 (are its headers right? a token missing or wrong)`);
      expect(failure(result, "userinfo")).toBe(`MCP server userinfo (declared in ~/bosun.json): cannot reach http://127.0.0.1:${port}/mcp: a URL with a user name or password cannot be used`);
    } finally {
      refusing.close();
    }
  });

  it("drops a server that goes away during the run", async () => {
    const { url, child } = await startHttpFixture({ tools: ["echo"] });
    const connection = ready(await pool({ remote: { url } }).start(), "remote");
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    await expect(connection.call("echo", { text: "x" }, never)).rejects.toThrow(/^the MCP server remote cannot be reached: /);
  });
});
