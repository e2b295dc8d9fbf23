// The dashboard's JSON API against the real sources, through the real `bosun serve` process in a
// seeded temp home: /api/agents and /api/installs answer exactly what `bosun agents --json` and
// `bosun install --status --json` print; the catalog search, the sessions (listed as soon as one
// is written) and a transcript; bad query parameters are one-line 400s naming the parameter; a
// credential in the environment or in a session never reaches an answer or a page. Then the
// command itself: a taken port, a second serve on the same state, bad flags (exit 1, one line,
// nothing written), and serve.json removed on SIGTERM.
import { createHash } from "node:crypto";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:net";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionsDir } from "../../src/agent/session/list.js";
import { FileSessionStore } from "../../src/agent/session/store.js";
import { runBin, runBinAsync } from "../fixtures/cli.js";
import { codexAuthJson } from "../fixtures/codex-auth.js";
import { serveDashboard, signIn, type ServedDashboard } from "../fixtures/dashboard.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { install } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A key as Anthropic issues them, made up, under a name that says it is a credential. */
const PLANTED_KEY = `sk-ant-api03-${"PLANTEDdashboardKEY0123456789abcdefXYZ".repeat(2)}_zz`;

/** A home with bosun's pack installed into Claude Code and Codex signed in with ChatGPT tokens. */
async function seededHome(): Promise<TempHome> {
  const t = makeTempHome();
  await install(t, { runtimes: ["claude"] });
  t.write(join(t.home, ".codex", "auth.json"), codexAuthJson());
  return t;
}

/** A session written by bosun's own store (nothing redacted on the way: the file holds what it is given). */
function writeSession(t: TempHome, prompt: string, reply: string): string {
  const store = new FileSessionStore(sessionsDir(t.paths));
  const session = store.create({ workdir: join(t.home, "project"), model: { providerID: "anthropic", modelID: "claude-sonnet-4-5", name: "Claude Sonnet 4.5" }, bosunVersion: "0.1.0" });
  session.append({ type: "run", phase: "start", prompt, mode: "ask", model: "anthropic/claude-sonnet-4-5" });
  session.append({ type: "message", message: { role: "user", content: prompt } });
  session.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: reply }] }, usage: { inputTokens: 10, outputTokens: 5 } });
  session.append({ type: "run", phase: "end", reason: "final", turns: 1, usage: { inputTokens: 10, outputTokens: 5 } });
  session.sync();
  session.close();
  return session.id;
}

/** A signed-in GET: status and body (JSON when the answer is JSON). */
async function get(served: ServedDashboard, cookie: string, path: string): Promise<{ status: number; type: string; text: string; json: unknown }> {
  const response = await fetch(`${served.url}${path}`, { headers: { cookie } });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, type, text, json: type.startsWith("application/json") ? JSON.parse(text) : undefined };
}

/** One line of output: text, a newline, nothing more. */
function expectOneLine(text: string): void {
  expect(text).toMatch(/^[^\n]+\n$/);
}

describe("bosun serve's API on the real sources", () => {
  it("/api/agents and /api/installs are what `bosun agents --json` and `bosun install --status --json` print", async () => {
    const t = await seededHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      const agents = await get(served, cookie, "/api/agents");
      expect(agents.status).toBe(200);
      const cliAgents = runBin(["agents", "--json"], t.env, t.home);
      expect(cliAgents.code, cliAgents.stderr).toBe(0);
      expect((agents.json as { agents: unknown[] }).agents).toEqual((JSON.parse(cliAgents.stdout) as { agents: unknown[] }).agents);
      // The seeding shows: Codex signed in (its auth file), Claude's folder with the pack.
      expect((agents.json as { agents: { id: string; auth: { connected: boolean } }[] }).agents.find((agent) => agent.id === "codex")?.auth.connected).toBe(true);

      const installs = await get(served, cookie, "/api/installs");
      expect(installs.status).toBe(200);
      const cliInstalls = runBin(["install", "--status", "--json"], t.env, t.home);
      expect(cliInstalls.code, cliInstalls.stderr).toBe(0);
      expect((installs.json as { runtimes: unknown[] }).runtimes).toEqual((JSON.parse(cliInstalls.stdout) as { runtimes: unknown[] }).runtimes);
      expect((installs.json as { runtimes: { runtime: string; installed: boolean }[] }).runtimes.filter((root) => root.installed).map((root) => root.runtime)).toContain("claude");
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 30_000);

  it("/api/catalog searches the catalog: each model with its provider, id, whether it is available and why", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      const search = await get(served, cookie, "/api/catalog?q=claude&limit=5");
      expect(search.status, search.text).toBe(200);
      const answer = search.json as { matched: number; truncated: boolean; models: { provider: string; id: string; available: boolean; why: string }[] };
      expect(answer.matched).toBeGreaterThan(0);
      expect(answer.models.length).toBeGreaterThan(0);
      expect(answer.models.length).toBeLessThanOrEqual(5);
      expect(answer.truncated).toBe(answer.matched > 5);
      for (const model of answer.models) {
        expect(typeof model.provider).toBe("string");
        expect(typeof model.id).toBe("string");
        expect(typeof model.available).toBe("boolean");
        expect(typeof model.why).toBe("string");
        expect(`${model.provider} ${model.id}`.toLowerCase()).toContain("claude");
      }
      const most = await get(served, cookie, "/api/catalog?limit=200");
      expect(most.status, most.text).toBe(200);
      expect((most.json as { models: unknown[] }).models.length).toBeLessThanOrEqual(200);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 30_000);

  it("/api/sessions lists a session as soon as it is written, /api/sessions/<id> has its summary and transcript, an unknown id is a 404", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      expect((await get(served, cookie, "/api/sessions")).json).toEqual({ sessions: [], live: [] });
      const id = writeSession(t, "list the TODO comments", "There are three.");
      const listed = await get(served, cookie, "/api/sessions");
      expect(listed.status).toBe(200);
      expect(listed.json).toMatchObject({ sessions: [{ id, title: "list the TODO comments", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" }, workdir: join(t.home, "project") }] });
      const one = await get(served, cookie, `/api/sessions/${id}`);
      expect(one.status).toBe(200);
      expect(Object.keys(one.json as object).sort()).toEqual(["live", "summary", "transcript"]);
      // No bosun run works on it now.
      expect((one.json as { live: unknown }).live).toBeNull();
      expect((one.json as { summary: { id: string } }).summary.id).toBe(id);
      expect((one.json as { transcript: unknown[] }).transcript).toEqual([
        { kind: "notice", text: "run started · anthropic/claude-sonnet-4-5 · ask mode" },
        { kind: "user", text: "list the TODO comments" },
        { kind: "assistant", text: "There are three." },
        { kind: "notice", text: "run ended (final) after 1 turn" },
      ]);
      for (const unknown of ["nope", "..%2F..%2Fetc%2Fpasswd", id.slice(0, 10)]) {
        const missing = await get(served, cookie, `/api/sessions/${unknown}`);
        expect(missing.status, unknown).toBe(404);
        expect(missing.json).toEqual({ error: `no session ${decodeURIComponent(unknown)}` });
      }
      const page = await get(served, cookie, "/sessions/nope");
      expect(page.status).toBe(404);
      expect(page.text).toBe("bosun: no session nope\n");
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 30_000);

  it("the page links its scripts and stylesheet by version: so asked, the browser keeps them for good; sent gzipped to a browser that takes it, the same bytes", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      const page = await (await fetch(`${served.url}/`, { headers: { cookie } })).text();
      const links = [...page.matchAll(/(?:src|href)="(\/assets\/[^"?]+)\?v=([0-9a-f]{16})"/g)].map((found) => ({ path: found[1]!, version: found[2]! }));
      expect(links.map((link) => link.path).sort()).toEqual(["/assets/bosun-live.js", "/assets/bosun.css", "/assets/htmx.min.js"]);
      const { gunzipSync } = await import("node:zlib");
      for (const { path, version } of links) {
        const plain = await rawGet(served, cookie, `${path}?v=${version}`, "identity");
        expect(plain.headers["cache-control"], path).toBe("private, max-age=31536000, immutable");
        expect(plain.headers["content-encoding"], path).toBeUndefined();
        expect(createHash("sha256").update(plain.body).digest("hex").slice(0, 16), path).toBe(version);
        const zipped = await rawGet(served, cookie, `${path}?v=${version}`, "gzip, deflate, br");
        expect(zipped.headers["content-encoding"], path).toBe("gzip");
        expect(zipped.headers.vary, path).toBe("Accept-Encoding");
        expect(gunzipSync(zipped.body).equals(plain.body), path).toBe(true);
        expect(zipped.body.length, path).toBeLessThan(plain.body.length);
        // Another version (an older bosun's page), or none: not kept.
        for (const other of [`${path}?v=0000000000000000`, path]) expect((await rawGet(served, cookie, other, "identity")).headers["cache-control"], other).toBe("no-store");
      }
      // Without the session, nothing.
      expect((await fetch(`${served.url}${links[0]!.path}`)).status).toBe(401);
    } finally {
      await served.stop();
    }
  });

  it("a bad query parameter is a 400 with one line naming it; an unknown path is a 404", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      const rows: [string, string][] = [
        ["/api/catalog?limit=0", "limit: use a whole number from 1 to 200"],
        ["/api/catalog?limit=abc", "limit: use a whole number from 1 to 200"],
        ["/api/catalog?limit=99999", "limit: use a whole number from 1 to 200"],
        ["/api/catalog?available=yes", "available: use 1 (only available providers) or 0"],
        [`/api/catalog?q=${"a".repeat(201)}`, "q: use at most 200 characters"],
        [`/api/catalog?provider=${"p".repeat(201)}`, "provider: use at most 200 characters"],
      ];
      for (const [path, error] of rows) {
        const answer = await get(served, cookie, path);
        expect(answer.status, path).toBe(400);
        expect(answer.json, path).toEqual({ error });
      }
      const page = await get(served, cookie, "/catalog?limit=0");
      expect(page.status).toBe(400);
      expect(page.text).toBe("bosun: limit: use a whole number from 1 to 200\n");
      const unknownApi = await get(served, cookie, "/api/nothing-here");
      expect(unknownApi.status).toBe(404);
      expect(unknownApi.json).toEqual({ error: "no page /api/nothing-here" });
      const unknownPage = await get(served, cookie, "/nothing-here");
      expect(unknownPage.status).toBe(404);
      expect(unknownPage.text).toBe("bosun: no page /nothing-here\n");
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 30_000);

  it("a credential in the environment or in a session reaches no answer and no page", async () => {
    const t = await seededHome();
    const id = writeSession(t, `use the key ${PLANTED_KEY} to call the API`, `I called it with ${PLANTED_KEY}, and it answered.`);
    // The store was given no secret: the file holds it, so only the dashboard can keep it out.
    expect(readFileSync(join(sessionsDir(t.paths), `${id}.jsonl`), "utf8")).toContain(PLANTED_KEY);
    const served = await serveDashboard(t, { env: { ANTHROPIC_API_KEY: PLANTED_KEY } });
    try {
      const cookie = await signIn(served.launchUrl);
      const paths = ["/api/agents", "/api/status", "/api/installs", "/api/catalog?q=anthropic&limit=20", "/api/sessions", `/api/sessions/${id}`, "/", "/installs", "/catalog?q=anthropic", "/sessions", `/sessions/${id}`, "/status"];
      const leaks: string[] = [];
      for (const path of paths) {
        const answer = await get(served, cookie, path);
        expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200);
        // The whole key, or a piece of it long enough to matter (a title cut short keeps one).
        const piece = /sk-ant-api03-[\w-]{8,}|PLANTEDdashboard/.exec(answer.text);
        if (piece) leaks.push(`${path}: ${answer.text.slice(Math.max(0, piece.index - 40), piece.index + 80)}`);
      }
      expect(leaks).toEqual([]);
      // The text around it is there: the secret was cut out, not the message.
      const transcript = (await get(served, cookie, `/api/sessions/${id}`)).json as { transcript: { kind: string; text: string }[] };
      expect(transcript.transcript.find((entry) => entry.kind === "assistant")?.text).toBe("I called it with [redacted:ANTHROPIC_API_KEY], and it answered.");
      // And the key counts: Anthropic's models are available from it (named, not shown).
      const catalog = (await get(served, cookie, "/api/catalog?provider=anthropic&limit=1")).json as { models: { available: boolean; why: string }[] };
      expect(catalog.models[0]).toMatchObject({ available: true });
      expect(catalog.models[0]?.why).toContain("ANTHROPIC_API_KEY");
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 30_000);
});

/** A port something else listens on (127.0.0.1). */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe("the bosun serve command", () => {
  it("a taken port is an error naming the port and --port (exit 1, one line); no other port is tried", async () => {
    const t = makeTempHome();
    const { port, server } = await takenPort();
    try {
      const result = await runBinAsync(["serve", "--port", String(port), "--json", "--no-open"], t.env, { cwd: t.home });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expectOneLine(result.stderr);
      expect(result.stderr).toBe(`bosun: port ${port} on 127.0.0.1 is taken (another bosun serve, or another program): stop it, or pass --port N\n`);
      expect(existsSync(join(t.paths.state, "serve.json"))).toBe(false);
    } finally {
      server.close();
    }
  }, 30_000);

  it("writes serve.json (0600) while it runs, refuses a second serve on the same state naming the first one's pid and url, and removes serve.json on SIGTERM", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    const record = join(t.paths.state, "serve.json");
    try {
      expect(JSON.parse(readFileSync(record, "utf8"))).toEqual({ pid: served.child.pid, url: served.url });
      expect(statSync(record).mode & 0o777).toBe(0o600);
      expect(statSync(join(t.paths.state, "serve-secret")).mode & 0o777).toBe(0o600);

      const second = await runBinAsync(["serve", "--port", "0", "--json", "--no-open"], t.env, { cwd: t.home });
      expect(second.code).toBe(1);
      expect(second.stdout).toBe("");
      expectOneLine(second.stderr);
      expect(second.stderr).toContain(`pid ${served.child.pid}`);
      expect(second.stderr).toContain(served.url);
      // The first one runs on, and its record is its own.
      expect(JSON.parse(readFileSync(record, "utf8"))).toEqual({ pid: served.child.pid, url: served.url });
      expect((await fetch(`${served.url}/api/agents`, { headers: { cookie: await signIn(served.launchUrl) } })).status).toBe(200);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(existsSync(record)).toBe(false);
    expect(existsSync(join(t.paths.state, "serve-secret"))).toBe(true);
  }, 30_000);

  it.each<[string, string[], string]>([
    ["--port abc", ["--port", "abc"], 'bosun: --port must be a whole number from 1 to 65535, not "abc"\n'],
    ["--port 70000", ["--port", "70000"], 'bosun: --port must be a whole number from 1 to 65535, not "70000"\n'],
    ["--port -1", ["--port=-1"], 'bosun: --port must be a whole number from 1 to 65535, not "-1"\n'],
    ["--host example.com", ["--host", "example.com"], 'bosun: --host must be an IP address (such as 127.0.0.1 or 192.168.1.20), not "example.com"\n'],
  ])("%s: exit 1, one line, nothing written", async (_name, flags, line) => {
    const t = makeTempHome();
    const before = snapshotTree(t.root);
    const result = await runBinAsync(["serve", ...flags, "--json", "--no-open"], t.env, { cwd: t.home });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(line);
    expect(snapshotTree(t.root)).toEqual(before);
    expect(existsSync(join(t.paths.state, "serve.json"))).toBe(false);
  }, 30_000);
});

/** A GET as it comes off the wire (fetch would undo the gzip): status, headers and body bytes. */
function rawGet(served: ServedDashboard, cookie: string, path: string, acceptEncoding: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(`${served.url}${path}`, { headers: { cookie, "accept-encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
  });
}
