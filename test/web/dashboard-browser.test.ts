// `bosun serve` in a real browser (the system's headless Chromium, driven by playwright-core):
// a launch link signs the browser in once and leaves no token behind; every view renders a
// realistic home (a pack installed, Codex signed in, sessions of bosun run); what a model or a
// tool wrote stays text; a new session reaches an open page over the live stream within 1.5 s,
// and eight tabs share one stream; pages of another site, of another port of this machine, and a
// rebound DNS name can neither read nor change anything; the views pass axe-core's serious and
// critical rules and can be used from the keyboard; and a screenshot of each view is taken
// (into BOSUN_SCREENSHOTS when set). Every page is watched: a page error, a console error, a CSP
// violation or a request to another host fails the test (browser.ts).
import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../src/web/security/headers.js";
import { seriousAxeViolations } from "../fixtures/axe.js";
import { markDocument, reachesLive, signInWith, useBrowser, watchedPage, type WatchedPage, type WatchOptions } from "../fixtures/browser.js";
import { serveDashboard, type ServedDashboard } from "../fixtures/dashboard.js";
import { HOSTILE_ASSISTANT_TEXT, HOSTILE_TOOL_OUTPUT, seedDashboardHome, writeSession, type SeededHome } from "../fixtures/dashboard-home.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const browser = useBrowser();
const TEST_MS = 60_000;

/** The dashboard's views (and one session's page), by a name used for screenshots. */
const views = (seeded: SeededHome) => [
  { name: "agents", path: "/", title: "Agents" },
  { name: "installs", path: "/installs", title: "Installs" },
  { name: "catalog", path: "/catalog", title: "Catalog" },
  { name: "sessions", path: "/sessions", title: "Sessions" },
  { name: "session", path: `/sessions/${seeded.plain.id}`, title: seeded.plain.title },
  { name: "status", path: "/status", title: "Status" },
];

/** One test's world: a seeded home, its `bosun serve`, and browser contexts that are closed after it. */
interface Scene {
  t: TempHome;
  seeded: SeededHome;
  served: ServedDashboard;
  /** A new browser context (closed after the test). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A watched page of `context`, whose own origin is the dashboard's. */
  watch(context: BrowserContext, options?: WatchOptions): Promise<WatchedPage>;
  /** A new context signed in with a new launch link, and its watched page (on the Agents view). */
  signedIn(options?: BrowserContextOptions): Promise<{ context: BrowserContext; tab: WatchedPage }>;
}

/**
 * Runs `body` against a freshly seeded home and its own `bosun serve`; closes the contexts and
 * stops the server afterwards, which must then exit 0.
 */
async function onSeededDashboard(body: (scene: Scene) => Promise<void>): Promise<void> {
  const chromium = await browser();
  const t = makeTempHome();
  const seeded = await seedDashboardHome(t);
  const served = await serveDashboard(t);
  const contexts: BrowserContext[] = [];
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await chromium.newContext(options);
    contexts.push(context);
    return context;
  };
  const watch = (context: BrowserContext, options?: WatchOptions) => watchedPage(context, served.url, options);
  let exit: number | string;
  try {
    await body({
      t,
      seeded,
      served,
      newContext,
      watch,
      async signedIn(options) {
        const context = await newContext(options);
        const tab = await watch(context);
        await signInWith(tab.page, await served.nextLink());
        return { context, tab };
      },
    });
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
    exit = await served.stop();
  }
  expect(exit, `bosun serve's exit; its stderr:\n${served.stderr()}`).toBe(0);
}

/** A page global's value (`window[name]`). */
function pageGlobal<T>(page: Page, name: string): Promise<T | undefined> {
  return page.evaluate((key) => (globalThis as Record<string, unknown>)[key], name) as Promise<T | undefined>;
}

/** Opens a view by its link in the navigation (as a person does) and waits for it. */
async function openView(page: Page, origin: string, name: string, path: string): Promise<void> {
  await Promise.all([page.waitForURL(`${origin}${path}`), page.getByRole("navigation").getByRole("link", { name, exact: true }).click()]);
}

/** What one request of an attacker's page came to: data it could read, or an error. */
interface Attempt {
  status?: number;
  type?: string;
  body?: string;
  error?: string;
}

/** What the attacker's page reports in `window.__attack` when it is done. */
interface AttackReport {
  read: Attempt;
  readNoCors: Attempt;
  refresh: Attempt;
  /** How the EventSource to /live ended: "error" (refused), "open" or "fragment" (a leak), "timeout". */
  live: string;
}

/**
 * An attacker's page: its script (inline: the attacker's own page has no CSP) tries to read the
 * dashboard's API with the browser's cookies, to make it refresh (a "simple" POST that needs no
 * CORS preflight), and to listen to its live stream, and reports each outcome in `window.__attack`.
 */
function attackerPage(dashboard: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a page of another site</title><link rel="icon" href="data:,"></head><body><p>Nothing to see here.</p><script>
(async () => {
  const dashboard = ${JSON.stringify(dashboard)};
  const attempt = async (request) => {
    try {
      const response = await request();
      return { status: response.status, type: response.type, body: await response.text() };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const read = await attempt(() => fetch(dashboard + "/api/agents", { credentials: "include" }));
  const readNoCors = await attempt(() => fetch(dashboard + "/api/sessions", { mode: "no-cors", credentials: "include" }));
  const refresh = await attempt(() => fetch(dashboard + "/api/refresh", { method: "POST", mode: "no-cors", credentials: "include", body: "{}" }));
  const live = await new Promise((resolve) => {
    const source = new EventSource(dashboard + "/live", { withCredentials: true });
    const end = (how) => { source.close(); resolve(how); };
    source.onopen = () => end("open");
    source.addEventListener("fragment", () => end("fragment"));
    source.onerror = () => end("error");
    setTimeout(() => end("timeout"), 5000);
  });
  window.__attack = { read, readNoCors, refresh, live };
})();
</script></body></html>`;
}

/** The console lines a refused cross-origin request prints on the attacker's page (not problems of the dashboard). */
const REFUSAL_CONSOLE = [/blocked by CORS policy/, /Failed to load resource/, /EventSource/];

/** Waits for the attacker page's report. */
async function attackReport(page: Page): Promise<AttackReport> {
  await expect.poll(() => pageGlobal<AttackReport>(page, "__attack"), { timeout: 10_000, message: "the attacker's page finished its attempts" }).toBeDefined();
  return (await pageGlobal<AttackReport>(page, "__attack")) as AttackReport;
}

/** Nothing the attacker's page got holds the dashboard's data: every attempt failed or was opaque (no status, no body). */
function expectNothingRead(report: AttackReport, dataMarkers: readonly string[]): void {
  expect(report.read.error, `a credentialed read: ${JSON.stringify(report.read)}`).toMatch(/TypeError/);
  for (const [name, attempt] of [["a no-cors read", report.readNoCors], ["a no-cors refresh", report.refresh]] as const) {
    if (attempt.error === undefined) expect(attempt, name).toMatchObject({ type: "opaque", status: 0, body: "" });
  }
  expect(report.live, "the EventSource to /live").toBe("error");
  const everything = JSON.stringify(report);
  for (const marker of dataMarkers) expect(everything).not.toContain(marker);
}

/** One answer of the dashboard to a page's request, as the browser's network layer saw it. */
interface Answer {
  path: string;
  status: number;
  /** The Cookie header the browser sent with the request ("" for none). */
  cookie: string;
}

/**
 * The dashboard's answers to one page's requests, from the browser's network layer (Chrome's
 * DevTools protocol): a request the page's script sees fail (CORS, CORP) still shows the status
 * the server answered with, and the headers the browser really sent.
 */
async function dashboardAnswers(context: BrowserContext, page: Page, origin: string): Promise<() => Answer[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const urls = new Map<string, string>();
  const cookies = new Map<string, string>();
  const statuses: [string, number][] = [];
  const header = (headers: Record<string, unknown>, name: string) => String(Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? "");
  cdp.on("Network.requestWillBeSent", (event) => urls.set(event.requestId, event.request.url));
  cdp.on("Network.requestWillBeSentExtraInfo", (event) => cookies.set(event.requestId, header(event.headers, "cookie")));
  cdp.on("Network.responseReceivedExtraInfo", (event) => statuses.push([event.requestId, event.statusCode]));
  return () =>
    statuses.flatMap(([id, status]) => {
      const url = new URL(urls.get(id) ?? "about:blank");
      return url.origin === origin ? [{ path: url.pathname, status, cookie: cookies.get(id) ?? "" }] : [];
    });
}

/** Serves `html` at `/` of 127.0.0.1 on a free port: a page of another program of this machine. */
async function otherLoopbackSite(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    response.writeHead(request.url === "/" ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(request.url === "/" ? html : "");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe("bosun serve in a real browser", () => {
  it("a launch link signs the browser in once: an HttpOnly SameSite=Strict cookie, no token left behind; used again it is refused, and a browser without the cookie sees nothing", async () => {
    await onSeededDashboard(async ({ served, newContext, watch }) => {
      const context = await newContext();
      const tab = await watch(context);
      const view = await signInWith(tab.page, served.launchUrl);
      expect(tab.page.url()).toBe(`${served.url}/`);
      expect(await tab.page.locator("h1").innerText()).toBe("Agents");
      // The policy every other check runs under (the watched pages fail on any violation of it).
      expect(view.headers()).toMatchObject({ "content-security-policy": CONTENT_SECURITY_POLICY, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store" });
      expect(view.headers()["access-control-allow-origin"]).toBeUndefined();

      const cookies = await context.cookies();
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatchObject({ name: "bosun_session", domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Strict", secure: false });
      expect(await tab.page.evaluate("document.cookie"), "the page's script cannot read the session cookie").toBe("");
      // The 303 replaced the launch link in the history: going back never lands on the token.
      await tab.page.goBack();
      expect(tab.page.url()).not.toContain("token");

      // The link works once: opened again it is refused, and the cookie the browser has is unchanged.
      // (Chrome asks the refusal's text page for /favicon.ico, which the signed-in browser gets a 404 for.)
      tab.expectConsole(/status of 403 .*\/auth\?token=/, /status of 404 .*\/favicon\.ico\)$/);
      const again = await tab.page.goto(served.launchUrl);
      expect(again?.status()).toBe(403);
      expect(await tab.page.locator("body").innerText()).toMatch(/used already or has expired: press Enter/);
      expect((await context.cookies()).map((cookie) => cookie.value)).toEqual([cookies[0]!.value]);
      // Still signed in with it.
      expect((await tab.page.goto(`${served.url}/`))?.status()).toBe(200);
      await tab.assertClean();

      // Another browser profile, without the cookie: nothing but the refusal.
      const stranger = await watch(await newContext(), { expectedConsole: [/status of 401/] });
      for (const path of ["/", "/sessions", "/api/agents", "/live"]) {
        const refused = await stranger.page.goto(`${served.url}${path}`);
        expect(refused?.status(), path).toBe(401);
        const text = await stranger.page.locator("body").innerText();
        expect(text, path).toMatch(/not signed in/);
        expect(text, path).not.toMatch(/codex|Claude Code|bosun-csrf/);
      }
      await stranger.assertClean();
    });
  }, TEST_MS);

  it("every view renders the seeded home: Codex signed in, bosun 0.1.0 in ~/.claude, the catalog searched as you type (htmx, no page load), both sessions and a transcript, the subsystems; each page goes live", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn }) => {
      const { tab } = await signedIn();
      const { page } = tab;
      const origin = served.url;

      // Agents: Codex signed in from ~/.codex/auth.json.
      await reachesLive(page);
      expect(await page.locator("#agents-table h2").innerText()).toMatch(/^1 of 8 agents signed in/);
      const codex = await page.locator("#agent-codex").innerText();
      expect(codex).toMatch(/OpenAI Codex CLI/);
      expect(codex).toMatch(/✓ signed in/);
      expect(codex).not.toMatch(/not signed in/);
      expect(codex).toContain("~/.codex/auth.json");

      // Installs: bosun 0.1.0 in ~/.claude, without drift.
      await openView(page, origin, "Installs", "/installs");
      const claude = await page.locator("#installs-table tbody tr", { hasText: "~/.claude" }).innerText();
      expect(claude).toMatch(/Claude Code\s+global\s+~\/\.claude\s+bosun 0\.1\.0 \(\d+ files\)/);
      expect(claude).toContain("no drift");
      await reachesLive(page);

      // Catalog: typing in the search box replaces the results in place.
      await openView(page, origin, "Catalog", "/catalog");
      await reachesLive(page);
      const csrf = await page.locator('meta[name="bosun-csrf"]').getAttribute("content");
      const searches: { url: string; headers: Record<string, string> }[] = [];
      page.on("request", (request) => {
        if (request.url().startsWith(`${origin}/catalog/results`)) searches.push({ url: request.url(), headers: request.headers() });
      });
      const sameDocument = await markDocument(page);
      const before = await page.locator("#catalog-results h2").innerText();
      await page.locator("#catalog-q").pressSequentially("claude", { delay: 30 });
      await expect.poll(() => page.locator("#catalog-results h2").innerText(), { timeout: 5_000 }).toMatch(/^\d+ models? matching "claude"$/);
      expect(before).not.toContain("matching");
      const rows = await page.locator("#catalog-results tbody th").allInnerTexts();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.toLowerCase()).toContain("claude");
      expect(await sameDocument(), "the search ran without loading another page").toBe(true);
      expect(page.url()).toBe(`${origin}/catalog`);
      expect(searches.length).toBeGreaterThan(0);
      expect(new URL(searches.at(-1)!.url).searchParams.get("q")).toBe("claude");
      for (const search of searches) expect(search.headers).toMatchObject({ "hx-request": "true", "x-bosun-csrf": csrf });

      // Sessions: both, newest first, each a link to its transcript.
      await openView(page, origin, "Sessions", "/sessions");
      const list = page.locator("#sessions-list");
      expect(await list.locator("h2").innerText()).toBe("2 sessions");
      expect(await list.locator("tbody th").allInnerTexts()).toEqual([seeded.hostile.title, seeded.plain.title]);
      await reachesLive(page);
      await Promise.all([page.waitForURL(`${origin}/sessions/${seeded.plain.id}`), list.getByRole("link", { name: seeded.plain.title }).click()]);
      const transcript = page.locator(`#transcript-${seeded.plain.id}`);
      expect(await transcript.isVisible()).toBe(true);
      expect(await transcript.locator("li.user pre").innerText()).toBe(seeded.plain.title);
      expect(await transcript.locator("li.assistant pre").innerText()).toBe("There are 3 TODO comments, all in src/main.ts.");
      expect(await transcript.locator("li.tool-call summary").innerText()).toBe("tool call read");
      await transcript.locator("li.tool-result summary").click();
      expect(await transcript.locator("li.tool-result pre").innerText()).toBe("src/main.ts:4: // TODO: parse flags");
      expect(await transcript.locator("li.notice pre").allInnerTexts()).toEqual(["run started · anthropic/claude-sonnet-4-5 · ask mode", "run ended (final) after 2 turns"]);
      await reachesLive(page);

      // Status: the version and each subsystem with its state.
      await openView(page, origin, "Status", "/status");
      expect(await page.locator("#status-heading").innerText()).toBe("bosun 0.1.0");
      const subsystems = page.locator("#status-sections table").first().locator("tr");
      expect(await subsystems.locator("th").allInnerTexts()).toEqual(["Folders", "Agents", "Install", "Catalog", "Agent"]);
      expect(await subsystems.filter({ hasText: "Agent" }).last().innerText()).toMatch(/ready\s+2 sessions/);
      await reachesLive(page);
      await tab.assertClean();
    });
  }, TEST_MS);

  it("a hostile transcript stays text: markup, script and a javascript: link from the model, and a tool output that closes its <pre>, are shown as written and nothing runs", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn }) => {
      const { context, tab } = await signedIn();
      const { page } = tab;
      // The API hands back the text as the session holds it: the page's escaping is what keeps it text.
      const api = await context.request.get(`${served.url}/api/sessions/${seeded.hostile.id}`);
      expect(JSON.stringify(await api.json())).toContain(JSON.stringify(HOSTILE_ASSISTANT_TEXT).slice(1, -1));

      expect((await page.goto(`${served.url}/sessions/${seeded.hostile.id}`))?.status()).toBe(200);
      const transcript = page.locator(`#transcript-${seeded.hostile.id}`);
      const assistant = transcript.locator("li.assistant pre");
      expect(await assistant.innerText()).toBe(HOSTILE_ASSISTANT_TEXT);
      expect(await assistant.isVisible()).toBe(true);
      await transcript.locator("li.tool-result summary").click();
      const toolOutput = transcript.locator("li.tool-result pre");
      expect(await toolOutput.innerText()).toBe(HOSTILE_TOOL_OUTPUT);
      expect(await toolOutput.isVisible()).toBe(true);
      expect(await page.getByText(HOSTILE_ASSISTANT_TEXT, { exact: true }).count()).toBe(1);

      await reachesLive(page);
      expect(await pageGlobal(page, "__pwned")).toBeUndefined();
      expect(await page.locator("#injected").count()).toBe(0);
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
      const scripts = await page.locator("script").evaluateAll((found) => found.map((script) => (script as unknown as { src: string }).src));
      expect(scripts.map((src) => src.replace(/\?v=[0-9a-f]{16}$/, ""))).toEqual([`${served.url}/assets/htmx.min.js`, `${served.url}/assets/bosun-live.js`]);
      await tab.assertClean();
    });
  }, TEST_MS);

  it("a new session reaches the open Sessions page within 1.5 s over the live stream, without a page load, and its title stays text", async () => {
    await onSeededDashboard(async ({ served, t, signedIn }) => {
      const { tab } = await signedIn();
      const { page } = tab;
      await page.goto(`${served.url}/sessions`);
      await reachesLive(page);
      const sameDocument = await markDocument(page);
      const list = page.locator("#sessions-list");
      expect(await list.locator("h2").innerText()).toBe("2 sessions");

      const prompt = 'fresh <b id="live-injected">work</b> <img src=x onerror="window.__pwned=3">';
      const started = Date.now();
      const id = writeSession(t, { prompt, reply: "done" });
      await expect.poll(() => list.locator("tbody th").first().innerText(), { timeout: 1_500, interval: 50, message: "the new session at the top of #sessions-list" }).toBe(prompt);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(1_500);
      expect(await list.locator("h2").innerText()).toBe("3 sessions");
      expect(await sameDocument(), "the list changed in place (no page load)").toBe(true);
      expect(await page.locator("#live-injected, img").count()).toBe(0);
      expect(await pageGlobal(page, "__pwned")).toBeUndefined();

      // The replaced list works: its new link opens the new transcript.
      await Promise.all([page.waitForURL(`${served.url}/sessions/${id}`), list.getByRole("link", { name: prompt }).click()]);
      expect(await page.locator(`#transcript-${id} li.assistant pre`).innerText()).toBe("done");
      await tab.assertClean();
    });
  }, TEST_MS);

  it("a page of another site, in the signed-in browser, cannot read the API, refresh, or listen to /live: the browser blocks it, and when the user lets it reach this machine the dashboard refuses it (403)", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn, watch }) => {
      const { context, tab } = await signedIn();
      const evil = "https://evil.example";
      await context.route(`${evil}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: attackerPage(served.url) }));
      const markers = ["OpenAI Codex CLI", seeded.plain.title, seeded.hostile.title, "bosun-csrf"];

      // As the browser ships: Local Network Access keeps a public site from reaching 127.0.0.1 at all.
      const attacker = await watch(context, { otherOrigins: [evil], expectedConsole: REFUSAL_CONSOLE });
      const answers = await dashboardAnswers(context, attacker.page, served.url);
      expect((await attacker.page.goto(`${evil}/`))?.status()).toBe(200);
      expectNothingRead(await attackReport(attacker.page), markers);
      for (const answer of answers()) expect(answer.status, answer.path).toBe(403);

      // The user let the site reach local devices: now the requests reach the dashboard, whose guard refuses each.
      await context.grantPermissions(["local-network-access"], { origin: evil });
      const earlier = answers().length;
      const allowed = () => answers().slice(earlier);
      await attacker.page.reload();
      expectNothingRead(await attackReport(attacker.page), markers);
      await expect.poll(() => allowed().map((answer) => answer.path).sort(), { timeout: 5_000 }).toEqual(["/api/agents", "/api/refresh", "/api/sessions", "/live"]);
      for (const answer of allowed()) {
        expect(answer.status, answer.path).toBe(403);
        expect(answer.cookie, `${answer.path}: SameSite=Strict keeps the cookie off a cross-site request`).toBe("");
      }
      await attacker.assertClean();

      // The same requests with the headers the browser sent, and the session cookie on top: still 403.
      const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      const crossSite = { cookie, origin: evil, "sec-fetch-site": "cross-site" };
      for (const [method, path] of [["GET", "/api/agents"], ["POST", "/api/refresh"], ["GET", "/live"]] as const) {
        const response = await fetch(`${served.url}${path}`, { method, headers: crossSite });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await response.text()).toMatch(/another site \(cross-site\) is refused/);
      }
      // While the dashboard's own page, with its CSRF token, can refresh (so the 403s are the guard's).
      tab.expectConsole(/status of 403 .*\/api\/refresh\)$/);
      const own = await tab.page.evaluate(async () => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document;
        const csrf = doc.querySelector('meta[name="bosun-csrf"]')?.getAttribute("content") ?? "";
        const withToken = await fetch("/api/refresh", { method: "POST", headers: { "x-bosun-csrf": csrf } });
        const without = await fetch("/api/refresh", { method: "POST" });
        return { withToken: withToken.status, body: await withToken.text(), without: without.status };
      });
      expect(own).toEqual({ withToken: 200, body: JSON.stringify({ refreshed: true }), without: 403 });
      await tab.assertClean();
    });
  }, TEST_MS);

  it("a page of another program on another loopback port (same site: the cookie goes along) gets no data and no refresh: the dashboard answers 403 to each of its requests", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn, watch }) => {
      const { context } = await signedIn();
      const other = await otherLoopbackSite(attackerPage(served.url));
      try {
        const attacker = await watch(context, { otherOrigins: [other.origin], expectedConsole: REFUSAL_CONSOLE });
        const answers = await dashboardAnswers(context, attacker.page, served.url);
        expect((await attacker.page.goto(`${other.origin}/`))?.status()).toBe(200);
        expectNothingRead(await attackReport(attacker.page), ["OpenAI Codex CLI", seeded.plain.title, seeded.hostile.title]);
        await expect.poll(() => answers().map((answer) => answer.path).sort(), { timeout: 5_000 }).toEqual(["/api/agents", "/api/refresh", "/api/sessions", "/live"]);
        for (const answer of answers()) {
          expect(answer.status, answer.path).toBe(403);
          // Same site (ports do not count): the browser did send the session cookie; only the guard stands in the way.
          expect(answer.cookie, answer.path).toMatch(/bosun_session=/);
        }
        // The same requests with those headers, from the test: refused, and nothing of the dashboard's in the answer.
        const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        for (const [method, path] of [["GET", "/api/agents"], ["GET", "/api/sessions"], ["POST", "/api/refresh"], ["GET", "/live"]] as const) {
          const response = await fetch(`${served.url}${path}`, { method, headers: { cookie, origin: other.origin, "sec-fetch-site": "same-site" } });
          expect(response.status, `${method} ${path}`).toBe(403);
          const body = await response.text();
          expect(body).toMatch(/another site \(same-site\) is refused/);
          expect(body).not.toContain(seeded.plain.title);
        }
        await attacker.assertClean();
      } finally {
        await other.close();
      }
    });
  }, TEST_MS);

  it("DNS rebinding: the dashboard reached through another name (rebind.example → 127.0.0.1) answers 421 and shows nothing", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn, watch }) => {
      const { context } = await signedIn();
      const rebound = `http://rebind.example:${served.port}`;
      // Chrome notes that it ignores the dashboard's Cross-Origin-Opener-Policy on a plain-http name that is not loopback.
      const tab = await watch(context, { otherOrigins: [rebound], expectedConsole: [/status of 421/, /Cross-Origin-Opener-Policy header has been ignored/] });
      for (const path of ["/", "/api/agents", "/api/sessions"]) {
        const response = await tab.page.goto(`${rebound}${path}`);
        expect(response?.status(), path).toBe(421);
        const text = await tab.page.locator("body").innerText();
        expect(text).toMatch(/answers only at 127\.0\.0\.1:\d+/);
        for (const marker of ["codex", seeded.plain.title, "bosun-csrf", "Agents"]) expect(text).not.toContain(marker);
      }
      // The rebound page's own script, same-origin with the name, reads nothing either.
      const read = await tab.page.evaluate(async () => {
        const response = await fetch("/api/sessions");
        return { status: response.status, body: await response.text() };
      });
      expect(read.status).toBe(421);
      expect(read.body).not.toContain(seeded.plain.title);
      await tab.assertClean();
    });
  }, TEST_MS);

  it("eight tabs of one browser load at once and share one live stream: every tab goes live, each Sessions tab shows a new session, and when the reading tab closes another takes over", async () => {
    await onSeededDashboard(async ({ served, seeded, t, signedIn, watch }) => {
      const { context, tab: first } = await signedIn();
      await first.page.close();
      const paths = ["/", "/installs", "/catalog", "/sessions", "/sessions", `/sessions/${seeded.plain.id}`, "/status", "/sessions"];
      const tabs = await Promise.all(paths.map(() => watch(context)));
      const streams: Page[] = [];
      for (const tab of tabs) tab.page.on("request", (request) => request.url() === `${served.url}/live` && streams.push(tab.page));
      const loaded = await Promise.all(tabs.map((tab, i) => tab.page.goto(`${served.url}${paths[i]}`, { waitUntil: "domcontentloaded", timeout: 10_000 })));
      expect(loaded.map((response) => response?.status())).toEqual(paths.map(() => 200));
      await expect.poll(() => streams.length, { timeout: 5_000 }).toBeGreaterThan(0);

      const sessionsTabs = tabs.filter((_, i) => paths[i] === "/sessions").map((tab) => tab.page);
      const titles = (page: Page) => page.locator("#sessions-list tbody th").allInnerTexts();
      const prompt = "a session all tabs see";
      writeSession(t, { prompt, reply: "seen" });
      for (const page of sessionsTabs) await expect.poll(() => titles(page), { timeout: 3_000, message: `#sessions-list of a tab` }).toContain(prompt);
      expect(streams, "one /live stream for the whole browser").toHaveLength(1);

      // The tab that reads the stream goes away: another takes the lock and opens it again.
      const leader = streams[0]!;
      await reachesLive(leader);
      await leader.close();
      await expect.poll(() => streams.length, { timeout: 5_000 }).toBe(2);
      expect(streams[1]).not.toBe(leader);
      const remaining = tabs.map((tab) => tab.page).filter((page) => page !== leader);
      const next = "a session seen after the handover";
      writeSession(t, { prompt: next, reply: "seen" });
      for (const page of sessionsTabs.filter((page) => page !== leader)) await expect.poll(() => titles(page), { timeout: 3_000 }).toContain(next);
      // Every tab says "live" (the new reader's first ping reaches them all over the channel).
      for (const page of remaining) await reachesLive(page, 12_000);
      for (const tab of tabs) await tab.assertClean();
    });
  }, TEST_MS);

  it("accessibility basics: axe-core finds nothing serious or critical in any view; each has main and navigation landmarks; Tab reaches the skip link and then the first view link, with a visible focus ring", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn }) => {
      // The audit's own context lets axe-core's script in (bypassCSP): used for nothing else.
      const audit = await signedIn({ bypassCSP: true });
      const found: string[] = [];
      for (const view of views(seeded)) {
        await audit.tab.page.goto(`${served.url}${view.path}`);
        found.push(...(await seriousAxeViolations(audit.tab.page, view.path)));
      }
      expect(found).toEqual([]);

      const { tab } = await signedIn();
      const { page } = tab;
      for (const view of views(seeded)) {
        await page.goto(`${served.url}${view.path}`);
        expect(await page.getByRole("main").count(), `${view.path}: main`).toBe(1);
        expect(await page.getByRole("navigation", { name: "Views" }).count(), `${view.path}: nav`).toBe(1);
        expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(view.title);

        await page.keyboard.press("Tab");
        const skip = page.locator("a.skip");
        expect(await skip.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement), `${view.path}: the skip link first`).toBe(true);
        const skipBox = await skip.boundingBox();
        expect(skipBox && skipBox.x >= 0 && skipBox.y >= 0, `${view.path}: the focused skip link is on screen`).toBe(true);
        await page.keyboard.press("Tab");
        const firstLink = page.getByRole("navigation").getByRole("link").first();
        const focus = await firstLink.evaluate((element) => {
          const win = globalThis as unknown as { document: { activeElement: unknown }; getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } };
          const style = win.getComputedStyle(element);
          return { focused: element === win.document.activeElement, visible: (element as { matches(s: string): boolean }).matches(":focus-visible"), outlineStyle: style.outlineStyle, outlineWidth: style.outlineWidth };
        });
        expect(focus, `${view.path}: focus on the first view link`).toMatchObject({ focused: true, visible: true });
        expect(focus.outlineStyle, `${view.path}: outline`).not.toBe("none");
        expect(parseFloat(focus.outlineWidth), `${view.path}: outline width`).toBeGreaterThan(0);
      }
      await tab.assertClean();
      await audit.tab.assertClean();
    });
  }, TEST_MS);

  it("every page is served as HTML5 (<!DOCTYPE html>), so the browser lays it out in standards mode, not quirks mode", async () => {
    await onSeededDashboard(async ({ served, seeded, signedIn }) => {
      const { tab } = await signedIn();
      for (const view of views(seeded)) {
        await tab.page.goto(`${served.url}${view.path}`);
        expect(await tab.page.evaluate("document.compatMode"), `${view.path}: document.compatMode ("BackCompat" is quirks mode: the page lacks <!DOCTYPE html>)`).toBe("CSS1Compat");
      }
      await tab.assertClean();
    });
  }, TEST_MS);

  it("takes a full-page screenshot of each view (into BOSUN_SCREENSHOTS when set), each a real picture", async () => {
    await onSeededDashboard(async ({ served, seeded, t, signedIn }) => {
      const folder = process.env.BOSUN_SCREENSHOTS ? resolve(process.env.BOSUN_SCREENSHOTS) : join(t.root, "screenshots");
      const { tab } = await signedIn({ viewport: { width: 1280, height: 800 }, colorScheme: "light", deviceScaleFactor: 1 });
      const { page } = tab;
      for (const view of views(seeded)) {
        await page.goto(`${served.url}${view.path}`);
        await reachesLive(page);
        const file = join(folder, `${view.name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(statSync(file).size, file).toBeGreaterThan(5 * 1024);
        expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
      }
      await tab.assertClean();
    });
  }, TEST_MS);
});
