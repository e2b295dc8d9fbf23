// Codex's device login from the Agents page, in a real browser (the system's headless Chromium,
// driven by playwright-core), against the local stand-in for OpenAI's device-code endpoints
// (oauth-server.ts). The start button (clicked, or pressed with Enter) shows the code in large
// type, the verification link (a new tab without opener or referrer) and when the code expires;
// a second tab shows the same login and the login server is asked for one code only; when the
// login server approves, the page shows Codex signed in, in the login element and in the agents
// table, without a page load, and the tokens are in bosun's auth file and nowhere in the page.
// Cancel stores nothing and the code is never swapped for tokens. The page with the code passes
// axe-core's serious and critical rules. Every page is watched: a page error, a console error, a
// CSP violation or a request to another host fails the test (browser.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousAxeViolations } from "../fixtures/axe.js";
import { markDocument, reachesLive, signInWith, useBrowser, watchedPage, type WatchedPage } from "../fixtures/browser.js";
import { serveDashboard, type ServedDashboard } from "../fixtures/dashboard.js";
import { APPROVED, DEVICE_AUTH_ID, PENDING, startOAuthServer, TOKENS, USER_CODE, type OAuthScript, type RecordedRequest } from "../fixtures/oauth-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const browser = useBrowser();
const TEST_MS = 60_000;

/** The login server's first answer: the code, and a poll interval of 1 s (bosun waits at least 3 s between polls). */
const usercode = { status: 200, body: { device_auth_id: DEVICE_AUTH_ID, user_code: USER_CODE, interval: 1 } };

/** One test's world: a temp home, the fake login server, `bosun serve` pointed at it, and browser contexts closed after the test. */
interface Scene {
  t: TempHome;
  oauth: { base: string; requests: RecordedRequest[] };
  served: ServedDashboard;
  /** Where bosun stores Codex's login. */
  authPath: string;
  /** A new context signed in with a new launch link, and its watched page (on the Agents view). */
  signedIn(options?: BrowserContextOptions): Promise<{ context: BrowserContext; tab: WatchedPage }>;
}

/**
 * Runs `body` against a fresh temp home and its own `bosun serve`, whose Codex login goes to a
 * local login server answering from `script`; closes the contexts, stops the server (which must
 * exit 0) and the login server afterwards.
 */
async function onLoginDashboard(script: OAuthScript, body: (scene: Scene) => Promise<void>): Promise<void> {
  const chromium = await browser();
  const oauth = await startOAuthServer(script);
  const t = makeTempHome();
  const contexts: BrowserContext[] = [];
  let exit: number | string = "not started";
  let served: ServedDashboard | undefined;
  try {
    served = await serveDashboard(t, { env: { BOSUN_CODEX_AUTH_BASE: oauth.base } });
    const dashboard = served;
    const newContext = async (options?: BrowserContextOptions) => {
      const context = await chromium.newContext(options);
      contexts.push(context);
      return context;
    };
    try {
      await body({
        t,
        oauth,
        served: dashboard,
        authPath: join(t.paths.data, "runtimes", "codex", "auth.json"),
        async signedIn(options) {
          const context = await newContext(options);
          const tab = await watchedPage(context, dashboard.url);
          await signInWith(tab.page, await dashboard.nextLink());
          return { context, tab };
        },
      });
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
      exit = await dashboard.stop();
    }
  } finally {
    await oauth.close();
  }
  expect(exit, `bosun serve's exit; its stderr:\n${served?.stderr()}`).toBe(0);
}

/** The login element of the page. */
const loginOf = (page: Page) => page.locator("#codex-login");

/** Codex's row of the agents table: [Installed, Signed in, How, Where] as the page shows them. */
async function codexRow(page: Page): Promise<string[]> {
  return (await page.locator("#agent-codex td").allInnerTexts()).slice(0, 4).map((text) => text.trim());
}

/** How many agents the agents table's heading says are signed in. */
async function signedInCount(page: Page): Promise<number> {
  return Number(/^(\d+) of \d+ agents signed in/.exec(await page.locator("#agents-heading").innerText())?.[1] ?? NaN);
}

/** The computed font size (px) of an element. */
function fontSize(locator: Locator): Promise<number> {
  return locator.evaluate((element) => parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(element).fontSize));
}

/** The requests the login server got at `path`. */
const requestsTo = (oauth: Scene["oauth"], path: string) => oauth.requests.filter((request) => request.path === path);

/**
 * What the page shows while the login waits: the code, large; the link to the login server's
 * device page (a new tab, no opener, no referrer); when the code expires (about 15 minutes from
 * `startedAt`, to the minute in UTC); and a Cancel button.
 */
async function expectWaiting(page: Page, oauth: Scene["oauth"], startedAt: number): Promise<void> {
  const login = loginOf(page);
  const code = login.locator(".code output");
  await code.waitFor({ timeout: 10_000 });
  expect(await code.innerText()).toBe(USER_CODE);
  // Large: at least one and a half times the size of the text around it.
  const around = await fontSize(login.locator("p").first());
  expect(await fontSize(code)).toBeGreaterThanOrEqual(1.5 * around);

  const device = `${oauth.base}/codex/device`;
  const link = login.getByRole("link", { name: device });
  expect(await link.getAttribute("href")).toBe(device);
  expect(await link.getAttribute("target")).toBe("_blank");
  expect((await link.getAttribute("rel"))?.split(/\s+/).sort()).toEqual(["noopener", "noreferrer"]);

  const expiry = login.locator("time");
  const datetime = (await expiry.getAttribute("datetime")) ?? "";
  const expiresAt = Date.parse(datetime);
  expect(expiresAt - startedAt, `the code expires at ${datetime}`).toBeGreaterThan(14 * 60_000);
  expect(expiresAt - startedAt, `the code expires at ${datetime}`).toBeLessThan(16 * 60_000);
  expect(await expiry.innerText()).toBe(`${datetime.slice(11, 16)} UTC`);
  expect(await login.innerText()).toMatch(/the code expires at \d\d:\d\d UTC/);
  expect(await login.getByRole("button", { name: "Cancel" }).count()).toBe(1);
}

describe("Codex's device login from the Agents page, in a real browser", () => {
  it("the start button shows the code, where to enter it and when it expires; a second tab shows the same login; when the login server approves, the page shows Codex signed in without a page load, and the tokens are only in bosun's auth file", async () => {
    await onLoginDashboard({ usercode, token: [PENDING, PENDING, APPROVED] }, async ({ oauth, served, authPath, signedIn }) => {
      const { context, tab } = await signedIn();
      const { page } = tab;
      expect(await page.locator("h1").innerText()).toBe("Agents");
      await reachesLive(page);
      expect((await codexRow(page))[1]).toBe("✗ not signed in");
      const before = await signedInCount(page);
      let loads = 0;
      page.on("load", () => loads++);
      const sameDocument = await markDocument(page);

      const startedAt = Date.now();
      await loginOf(page).getByRole("button", { name: "Start the device login" }).click();
      await expectWaiting(page, oauth, startedAt);

      // The link opens the login server's page in a new tab, which cannot reach back to the dashboard's.
      const [opened] = await Promise.all([context.waitForEvent("page"), loginOf(page).getByRole("link", { name: `${oauth.base}/codex/device` }).click()]);
      await opened.waitForLoadState("domcontentloaded");
      expect(opened.url()).toBe(`${oauth.base}/codex/device`);
      expect(await opened.evaluate(() => ({ opener: (globalThis as unknown as { opener: unknown }).opener, referrer: (globalThis as unknown as { document: { referrer: string } }).document.referrer }))).toEqual({ opener: null, referrer: "" });
      await opened.close();
      expect(page.url(), "the Agents page stayed where it was").toBe(`${served.url}/`);

      // A second tab of the same browser, opened while the login waits: the same code. Started again
      // from there (as its start button would), it is the same login: the login server gave one code.
      const second = await watchedPage(context, served.url);
      await second.page.goto(`${served.url}/`);
      await expectWaiting(second.page, oauth, startedAt);
      const again = await second.page.evaluate(async () => {
        const csrf = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(a: string): string | null } | null } }).document.querySelector('meta[name="bosun-csrf"]')?.getAttribute("content") ?? "";
        const response = await fetch("/api/agents/codex/login", { method: "POST", headers: { "x-bosun-csrf": csrf } });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      });
      expect(again).toEqual({ status: 200, body: { state: "waiting", userCode: USER_CODE, verificationUrl: `${oauth.base}/codex/device`, expiresAt: expect.any(Number) } });
      expect(requestsTo(oauth, "/api/accounts/deviceauth/usercode")).toHaveLength(1);

      // The axe-core audit of the page with the code, in its own context that lets axe-core's script in (bypassCSP).
      const audit = await signedIn({ bypassCSP: true });
      await expectWaiting(audit.tab.page, oauth, startedAt);
      expect(await seriousAxeViolations(audit.tab.page, "/ with the device code")).toEqual([]);

      // The login server approves at its third poll (bosun polls every 3 s): both tabs show it live.
      for (const shown of [page, second.page]) {
        await loginOf(shown).getByText("Codex is signed in").waitFor({ timeout: 20_000 });
        expect(await loginOf(shown).innerText()).toContain("Codex is signed in (account acct-42); the login is in ~/.local/share/bosun/runtimes/codex/auth.json.");
        expect(await loginOf(shown).locator(".code").count()).toBe(0);
        await expect.poll(async () => (await codexRow(shown)).slice(1), { timeout: 5_000, message: "Codex's row of the agents table: signed in, how, where" }).toEqual(["✓ signed in", "plugin", "~/.local/share/bosun/runtimes/codex/auth.json"]);
        expect(await signedInCount(shown)).toBe(before + 1);
      }
      expect(loads, "page loads of the Agents page").toBe(0);
      expect(await sameDocument(), "the Agents page kept its document").toBe(true);

      expect(requestsTo(oauth, "/api/accounts/deviceauth/token")).toHaveLength(3);
      expect(requestsTo(oauth, "/oauth/token")).toHaveLength(1);
      const stored = JSON.parse(readFileSync(authPath, "utf8")) as { tokens: Record<string, string> };
      expect(stored.tokens).toMatchObject({ id_token: TOKENS.id_token, access_token: TOKENS.access_token, refresh_token: TOKENS.refresh_token, account_id: "acct-42" });
      // The tokens are in the file and nowhere the browser can see, nor on bosun serve's stderr.
      for (const shown of [page, second.page]) {
        const html = await shown.content();
        for (const [name, token] of Object.entries(TOKENS)) expect(html.includes(token), `${name} in the HTML of ${shown.url()}`).toBe(false);
      }
      for (const token of Object.values(TOKENS)) expect(served.stderr()).not.toContain(token);

      // A page opened now shows the signed-in state from the start.
      const { tab: laterTab } = await signedIn();
      const later = laterTab.page;
      expect(await loginOf(later).innerText()).toContain("Codex is signed in (account acct-42)");
      expect((await codexRow(later))[1]).toBe("✓ signed in");

      await tab.assertClean();
      await second.assertClean();
      await audit.tab.assertClean();
      await laterTab.assertClean();
    });
  }, TEST_MS);

  it("from the keyboard: Enter on the focused start button shows the code; Cancel says nothing was stored, stores nothing, and the code is never swapped for tokens", async () => {
    await onLoginDashboard({ usercode, token: [PENDING, APPROVED] }, async ({ oauth, authPath, signedIn }) => {
      const { tab } = await signedIn();
      const { page } = tab;
      await reachesLive(page);
      let loads = 0;
      page.on("load", () => loads++);

      const start = loginOf(page).getByRole("button", { name: "Start the device login" });
      await start.focus();
      expect(await start.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
      const startedAt = Date.now();
      await page.keyboard.press("Enter");
      await expectWaiting(page, oauth, startedAt);

      await loginOf(page).getByRole("button", { name: "Cancel" }).click();
      await loginOf(page).getByText("The login was cancelled; nothing was stored.").waitFor({ timeout: 5_000 });
      // Cancelled before the login server approved (its second poll, 6 s after the start).
      expect(Date.now() - startedAt).toBeLessThan(6_000);
      expect(await loginOf(page).locator(".code").count()).toBe(0);
      expect(await loginOf(page).getByRole("button", { name: "Start again" }).count()).toBe(1);

      // Past the time the login server would have approved, and the exchange after it: nothing happened.
      await page.waitForTimeout(Math.max(0, startedAt + 8_000 - Date.now()));
      expect(await loginOf(page).innerText()).toContain("The login was cancelled; nothing was stored.");
      expect((await codexRow(page))[1]).toBe("✗ not signed in");
      expect(requestsTo(oauth, "/oauth/token"), "the code swapped for tokens").toEqual([]);
      expect(requestsTo(oauth, "/api/accounts/deviceauth/token").length, "polls after Cancel").toBeLessThanOrEqual(1);
      expect(existsSync(authPath)).toBe(false);
      expect(loads).toBe(0);

      await tab.assertClean();
    });
  }, TEST_MS);
});
