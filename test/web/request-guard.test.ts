// The dashboard's first line of defence, without a browser, on the wire (a listening dashboard on
// memory sources, requests sent with exactly the headers of each row, a forged Host included):
// the Host allow-list (421), Fetch Metadata and Origin (403), a change without Origin (403); every
// answer, refused or not, has the security headers (CSP, nosniff, no-store, CORP…) and no CORS
// header; a refusal is made before any data source is called and opens no live stream. Then
// `--host` with another loopback address, and the allowed names as pure functions.
import { connect } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { allowedHosts, allowedOrigins, isAllowedHost } from "../../src/web/security/allowed-hosts.js";
import { pageCsrf, startMemoryDashboard, wireRequest, type MemorySources, type WireAnswer } from "../fixtures/dashboard-app.js";

/** The policy headers.ts sets, written out: a change to it has to change this test too. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Every answer's headers: the security ones, and no CORS header. */
function expectSecurityHeaders(headers: IncomingHttpHeaders, what: string): void {
  expect(headers["content-security-policy"], what).toBe(CSP);
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["cache-control"], what).toBe("no-store");
  expect(headers["cross-origin-resource-policy"], what).toBe("same-origin");
  expect(headers["cross-origin-opener-policy"], what).toBe("same-origin");
  expect(headers["referrer-policy"], what).toBe("no-referrer");
  expect(Object.keys(headers).filter((name) => name.startsWith("access-control-")), what).toEqual([]);
}

/** A row's text with the dashboard's port (`PORT`) and another one (`OTHER`) put in. */
const fill = (text: string, port: number) => text.replaceAll("PORT", String(port)).replaceAll("OTHER", String(port + 1));

/** An HTTP/1.0 GET without a Host header (HTTP/1.1 needs one: Node refuses it before the app). */
function withoutHost(port: number, path: string, cookie: string): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.0\r\nCookie: ${cookie}\r\n\r\n`));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: IncomingHttpHeaders = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

interface Guarded {
  port: number;
  sources: MemorySources;
  cookie: string;
  /** Data-source calls since the dashboard settled. */
  calls(): number;
  streams(): number;
  /**
   * A request as the signed-in page would send it (Host, cookie, CSRF token), `headers` over those
   * (undefined: left out); by default a catalog search, which calls its source every time.
   */
  send(headers?: Record<string, string | undefined>, path?: string, method?: string): Promise<WireAnswer>;
}

/** A listening dashboard, signed in, settled (its first look at the sources done). */
async function guarded(options: { host?: string } = {}): Promise<Guarded> {
  const { dashboard, sources, signIn } = await startMemoryDashboard(options);
  const cookie = await signIn();
  const csrf = await pageCsrf(dashboard.url, cookie);
  await dashboard.refresh();
  const before = sources.totalCalls();
  const address = options.host ?? "127.0.0.1";
  return {
    port: dashboard.port,
    sources,
    cookie,
    calls: () => sources.totalCalls() - before,
    streams: () => dashboard.streams(),
    send(headers = {}, path = SEARCH, method = "GET") {
      const all: Record<string, string | undefined> = { host: `${address}:${dashboard.port}`, cookie, "x-bosun-csrf": csrf, ...(method === "GET" ? {} : { "content-length": "0" }), ...headers };
      return wireRequest(dashboard.port, { address, path, method, headers: Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined)) });
    },
  };
}

/** A request that reaches a data source every time it gets through (a catalog search is not kept). */
const SEARCH = "/api/catalog?q=guard";
const SEARCHED = { query: "guard", matched: 0, models: [], truncated: false, source: "memory" };

const refusedHost = (port: number) => `{"error":"this dashboard answers only at 127.0.0.1:${port}, localhost:${port}, [::1]:${port}"}`;

describe("the request guard: Host", () => {
  // Node's HTTP parser refuses a Host that is not a name and a port (400, empty, before the app):
  // those rows never reach the guard.
  it.each<[string, number]>([
    ["127.0.0.1:PORT", 200],
    ["localhost:PORT", 200],
    ["[::1]:PORT", 200],
    ["LOCALHOST:PORT", 200],
    ["", 421],
    ["   ", 421],
    [":PORT", 400],
    ["127.0.0.1", 421],
    ["localhost", 421],
    ["127.0.0.1:OTHER", 421],
    ["evil.example:PORT", 421],
    ["localhost.:PORT", 421],
    ["127.0.0.1:PORT.evil.example", 400],
    ["::1:PORT", 400],
    ["0.0.0.0:PORT", 421],
    ["127.0.0.2:PORT", 421],
  ])("Host %j → %i", async (host, status) => {
    const d = await guarded();
    const answer = await d.send({ host: fill(host, d.port) });
    expect(answer.status).toBe(status);
    if (status === 400) {
      expect(answer.body).toBe("");
      expect(d.calls()).toBe(0);
      return;
    }
    expectSecurityHeaders(answer.headers, `Host ${host}`);
    if (status === 421) {
      expect(answer.body).toBe(refusedHost(d.port));
      expect(d.calls()).toBe(0);
    } else {
      expect(JSON.parse(answer.body)).toEqual(SEARCHED);
      expect(d.calls()).toBe(1);
    }
  });

  it("no Host header at all: refused with 421 (HTTP/1.0) or by Node's parser (HTTP/1.1, 400), before any data source", async () => {
    const d = await guarded();
    const old = await withoutHost(d.port, SEARCH, d.cookie);
    expect(old.status).toBe(421);
    expectSecurityHeaders(old.headers, "HTTP/1.0 without Host");
    expect(old.body).toBe(refusedHost(d.port));
    const current = await d.send({ host: undefined });
    expect(current.status).toBe(400);
    expect(current.body).toBe("");
    expect(d.calls()).toBe(0);
  });

  it("a wrong Host is refused before the session is looked at (421, not 401), and a page gets it as a plain-text line", async () => {
    const d = await guarded();
    expect((await d.send({ host: `evil.example:${d.port}`, cookie: undefined })).status).toBe(421);
    expect((await d.send({ cookie: undefined })).status).toBe(401);
    const page = await d.send({ host: `evil.example:${d.port}` }, "/");
    expect(page.status).toBe(421);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toBe(`bosun: this dashboard answers only at 127.0.0.1:${d.port}, localhost:${d.port}, [::1]:${d.port}\n`);
    expect(d.calls()).toBe(0);
  });
});

describe("the request guard: Sec-Fetch-Site", () => {
  it.each<[string, number, string | undefined]>([
    ["absent (not a browser, or an old one)", 200, undefined],
    ["none (the user opened the URL)", 200, "none"],
    ["same-origin (the dashboard's own page)", 200, "same-origin"],
    ["same-site (another port of this machine)", 403, "same-site"],
    ["cross-site (another site)", 403, "cross-site"],
  ])("%s → %i", async (_name, status, site) => {
    const d = await guarded();
    const answer = await d.send({ "sec-fetch-site": site });
    expect(answer.status).toBe(status);
    expectSecurityHeaders(answer.headers, `Sec-Fetch-Site ${site}`);
    if (status === 403) {
      expect(JSON.parse(answer.body)).toEqual({ error: `a request from another site (${site}) is refused` });
      expect(d.calls()).toBe(0);
    } else {
      expect(JSON.parse(answer.body)).toEqual(SEARCHED);
      expect(d.calls()).toBe(1);
    }
  });
});

describe("the request guard: Origin", () => {
  it.each<[string, number, string | undefined]>([
    ["absent", 200, undefined],
    ["http://127.0.0.1:PORT", 200, "http://127.0.0.1:PORT"],
    ["http://localhost:PORT", 200, "http://localhost:PORT"],
    ["http://[::1]:PORT", 200, "http://[::1]:PORT"],
    ["http://evil.example", 403, "http://evil.example"],
    ["null (a sandboxed frame, a file: page)", 403, "null"],
    ["http://127.0.0.1:OTHER (another port)", 403, "http://127.0.0.1:OTHER"],
    ["https://127.0.0.1:PORT (another scheme)", 403, "https://127.0.0.1:PORT"],
    ["http://127.0.0.1 (no port)", 403, "http://127.0.0.1"],
    ["http://127.0.0.1:PORT.evil.example", 403, "http://127.0.0.1:PORT.evil.example"],
    ["empty", 403, ""],
  ])("Origin %s on a GET → %i", async (_name, status, origin) => {
    const d = await guarded();
    const answer = await d.send({ origin: origin === undefined ? undefined : fill(origin, d.port) });
    expect(answer.status).toBe(status);
    expectSecurityHeaders(answer.headers, `Origin ${origin}`);
    if (status === 403) {
      expect(JSON.parse(answer.body)).toEqual({ error: "a request from another origin is refused" });
      expect(d.calls()).toBe(0);
    } else {
      expect(JSON.parse(answer.body)).toEqual(SEARCHED);
      expect(d.calls()).toBe(1);
    }
  });

  it("a change (POST) without Origin is refused even with the session and its CSRF token; with the dashboard's Origin it is done", async () => {
    const d = await guarded();
    const refused = await d.send({}, "/api/refresh", "POST");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ error: "a request that changes something must come from the dashboard's own page (no Origin header)" });
    expectSecurityHeaders(refused.headers, "a POST without Origin");
    const foreign = await d.send({ origin: "http://evil.example" }, "/api/refresh", "POST");
    expect(foreign.status).toBe(403);
    const sameSite = await d.send({ origin: `http://127.0.0.1:${d.port}`, "sec-fetch-site": "same-site" }, "/api/refresh", "POST");
    expect(sameSite.status).toBe(403);
    // Nothing was refreshed: a refresh looks at every source.
    expect(d.calls()).toBe(0);
    const taken = await d.send({ origin: `http://127.0.0.1:${d.port}` }, "/api/refresh", "POST");
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body)).toEqual({ refreshed: true });
    expectSecurityHeaders(taken.headers, "a POST from the dashboard's page");
    expect(d.sources.calls.status).toBeGreaterThan(0);
    expect(d.calls()).toBeGreaterThan(0);
  });
});

describe("the headers of every answer", () => {
  it.each<[string, string, string, number, Record<string, string | undefined>]>([
    ["the agents API", "GET", "/api/agents", 200, {}],
    ["a page", "GET", "/", 200, {}],
    ["the catalog page", "GET", "/catalog?q=x", 200, {}],
    ["a transcript", "GET", "/sessions/s-1", 200, {}],
    ["a script", "GET", "/assets/bosun-live.js", 200, {}],
    ["the stylesheet", "GET", "/assets/bosun.css", 200, {}],
    ["an unknown asset", "GET", "/assets/nope.js", 404, {}],
    ["an unknown API path", "GET", "/api/nope", 404, {}],
    ["an unknown page", "GET", "/nope", 404, {}],
    ["an unknown session", "GET", "/api/sessions/nope", 404, {}],
    ["a bad catalog query", "GET", "/api/catalog?limit=0", 400, {}],
    ["no session cookie", "GET", "/api/agents", 401, { cookie: undefined }],
    ["a forged session cookie", "GET", "/", 401, { cookie: "bosun_session=00000000000000000000000000000000.abc" }],
    ["a change without the CSRF token", "POST", "/api/refresh", 403, { origin: "http://127.0.0.1:PORT", "x-bosun-csrf": undefined }],
    ["a launch link that does not work", "GET", "/auth?token=nope", 403, { cookie: undefined }],
    ["a wrong Host", "GET", "/", 421, { host: "evil.example" }],
    ["a foreign site", "GET", "/", 403, { "sec-fetch-site": "cross-site" }],
    ["a preflight (OPTIONS) from another origin", "OPTIONS", "/api/refresh", 403, { origin: "http://evil.example", "access-control-request-method": "POST" }],
    ["a preflight (OPTIONS) from the dashboard's origin", "OPTIONS", "/api/refresh", 404, { origin: "http://127.0.0.1:PORT", "access-control-request-method": "POST" }],
  ])("%s: %s %s → %i, with the security headers and no CORS header", async (_name, method, path, status, headers) => {
    const d = await guarded();
    const filled = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === undefined ? undefined : fill(value, d.port)]));
    const answer = await d.send(filled, path, method);
    expect(answer.status).toBe(status);
    expectSecurityHeaders(answer.headers, `${method} ${path}`);
  });

  it("the launch link's redirect (303) has them too", async () => {
    const { dashboard } = await startMemoryDashboard();
    const link = new URL(dashboard.launchUrl());
    const answer = await wireRequest(dashboard.port, { path: `${link.pathname}${link.search}`, headers: { host: link.host } });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/");
    expectSecurityHeaders(answer.headers, "the launch redirect");
  });

  it("the live stream (SSE) has them too: never stored, not readable by another origin", async () => {
    const d = await guarded();
    const answer = await d.send({}, "/live");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expectSecurityHeaders(answer.headers, "GET /live");
  });

  it("a refused /live opens no stream: 421 for a wrong Host, 401 without the session, 403 from another site", async () => {
    const d = await guarded();
    for (const [headers, status] of [[{ host: `evil.example:${d.port}` }, 421], [{ cookie: undefined }, 401], [{ "sec-fetch-site": "cross-site" }, 403], [{ origin: "http://evil.example" }, 403]] as const) {
      const answer = await d.send(headers, "/live");
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(answer.headers["content-type"]).not.toBe("text/event-stream");
      expectSecurityHeaders(answer.headers, `refused /live ${JSON.stringify(headers)}`);
    }
    expect(d.streams()).toBe(0);
    expect(d.calls()).toBe(0);
  });
});

describe("--host with another address", () => {
  it("--host 127.0.0.2 answers to that exact name with its port (and the loopback names), not to another address or port", async () => {
    const d = await guarded({ host: "127.0.0.2" });
    const own = await d.send({ origin: `http://127.0.0.2:${d.port}` });
    expect(own.status).toBe(200);
    expect((await d.send({ host: `localhost:${d.port}` })).status).toBe(200);
    for (const host of [`127.0.0.3:${d.port}`, `127.0.0.2:${d.port + 1}`, "127.0.0.2", `127.0.0.2.:${d.port}`]) {
      const answer = await d.send({ host });
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body)).toEqual({ error: `this dashboard answers only at 127.0.0.1:${d.port}, localhost:${d.port}, [::1]:${d.port}, 127.0.0.2:${d.port}` });
    }
    expect((await d.send({ origin: `http://127.0.0.3:${d.port}` })).status).toBe(403);
    expect(d.calls()).toBe(2);
    expect(d.sources.calls.catalog).toBe(2);
  });
});

describe("allowed hosts (pure)", () => {
  it("are the three loopback names with the port, and an exact --host name, lower case", () => {
    expect([...allowedHosts(8080)]).toEqual(["127.0.0.1:8080", "localhost:8080", "[::1]:8080"]);
    expect([...allowedHosts(8080, ["192.168.1.20"])]).toEqual(["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "192.168.1.20:8080"]);
    expect([...allowedHosts(8080, ["[FE80::1]"])]).toContain("[fe80::1]:8080");
    expect([...allowedOrigins(allowedHosts(8080, ["10.0.0.5"]))]).toEqual(["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "http://10.0.0.5:8080"]);
  });

  it.each<[string | undefined, boolean]>([
    ["10.0.0.5:8080", true],
    ["LOCALHOST:8080", true],
    [" 127.0.0.1:8080 ", true],
    ["10.0.0.5", false],
    ["10.0.0.6:8080", false],
    ["10.0.0.5:8081", false],
    ["*:8080", false],
    ["", false],
    [undefined, false],
  ])("Host %j with --host 10.0.0.5 on 8080 → %s", (header, allowed) => {
    expect(isAllowedHost(header, allowedHosts(8080, ["10.0.0.5"]))).toBe(allowed);
  });
});
