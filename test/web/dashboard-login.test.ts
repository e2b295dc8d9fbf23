// Codex's device login and the disconnect, from the dashboard: a job of the server (one login at
// a time, not stopped by closing the page), against the local stand-in for OpenAI's device-code
// endpoints; the tokens go to bosun's data folder and never into an answer or a page. Through the
// real `bosun serve` process, as a page would call it (cookie, Origin, CSRF header).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serveDashboard, signIn, type ServedDashboard } from "../fixtures/dashboard.js";
import { APPROVED, PENDING, startOAuthServer, TOKENS, USER_CODE } from "../fixtures/oauth-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A signed-in client of a served dashboard: requests carry the cookie, and changes the Origin and the page's CSRF token. */
async function client(served: ServedDashboard) {
  const cookie = await signIn(served.launchUrl);
  const page = await (await fetch(`${served.url}/`, { headers: { cookie } })).text();
  const csrf = /<meta name="bosun-csrf" content="([0-9a-f]+)"/.exec(page)?.[1] ?? "";
  const call = async (method: string, path: string) => {
    const response = await fetch(`${served.url}${path}`, { method, headers: { cookie, ...(method === "GET" ? {} : { origin: served.url, "x-bosun-csrf": csrf }) } });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  return { call, csrf };
}

async function world(script: Parameters<typeof startOAuthServer>[0]) {
  const oauth = await startOAuthServer(script);
  cleanups.push(() => oauth.close());
  const t = makeTempHome();
  const served = await serveDashboard(t, { env: { BOSUN_CODEX_AUTH_BASE: oauth.base } });
  cleanups.push(() => served.stop());
  return { t, oauth, served, ...(await client(served)) };
}

const usercode = { status: 200, body: { device_auth_id: "dev-auth-7f3a9c", user_code: USER_CODE, interval: 1 } };

describe("the Codex device login from the dashboard", () => {
  it("shows the code and where to enter it, asks the server once however often it is started, and stores the login when you finish", async () => {
    const { t, oauth, served, call } = await world({ usercode, token: [PENDING, APPROVED] });
    const started = (await call("POST", "/api/agents/codex/login")).json();
    expect(started).toEqual({ state: "waiting", userCode: USER_CODE, verificationUrl: `${oauth.base}/codex/device`, expiresAt: expect.any(Number) });
    // Started again while it waits (another tab): the same login, no second code.
    expect((await call("POST", "/api/agents/codex/login")).json()).toEqual(started);
    expect(oauth.requests.filter((request) => request.path.endsWith("/usercode"))).toHaveLength(1);
    // The page's fragment carries the code and the link (new tab, no referrer).
    const fragment = await call("POST", "/agents/codex/login");
    expect(fragment.text).toContain(`<output>${USER_CODE}</output>`);
    expect(fragment.text).toContain(`href="${oauth.base}/codex/device" target="_blank" rel="noopener noreferrer"`);

    await expect.poll(async () => (await call("GET", "/api/agents/codex/login")).json().state, { timeout: 15_000, interval: 250 }).toBe("signed-in");
    const authPath = join(t.paths.data, "runtimes", "codex", "auth.json");
    expect(JSON.parse(readFileSync(authPath, "utf8")).tokens.refresh_token).toBe(TOKENS.refresh_token);
    expect((await call("GET", "/api/agents/codex/login")).json()).toEqual({ state: "signed-in", accountId: "acct-42", authPath: "~/.local/share/bosun/runtimes/codex/auth.json" });
    const codex = ((await call("GET", "/api/agents")).json().agents as { id: string; auth: { connected: boolean; mode: string } }[]).find((agent) => agent.id === "codex");
    expect(codex?.auth).toMatchObject({ connected: true, mode: "plugin" });
    // The tokens are in the file and nowhere the browser can see.
    for (const path of ["/api/agents", "/api/agents/codex/login", "/", "/status"]) {
      const text = (await call("GET", path)).text;
      for (const token of Object.values(TOKENS)) expect(text, path).not.toContain(token);
    }
    const log = readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8");
    expect(log).toContain('"agent device login completed"');
    expect(served.stderr()).not.toContain(TOKENS.access_token);

    // Disconnect: bosun's own login goes, with an audit line; an agent without one is one line, nothing changed.
    const out = (await call("POST", "/api/agents/codex/disconnect")).json();
    expect(out).toEqual({ removed: true, message: "Disconnected OpenAI Codex CLI." });
    expect(existsSync(authPath)).toBe(false);
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).toContain('"agent disconnected from the dashboard"');
    const claude = await call("POST", "/api/agents/claude/disconnect");
    expect(claude.status).toBe(400);
    expect(Object.keys(claude.json())).toEqual(["error"]);
  }, 60_000);

  it("Cancel stops the login: nothing is stored, the code is not swapped for tokens", async () => {
    const { t, oauth, call } = await world({ usercode, token: PENDING });
    expect((await call("POST", "/api/agents/codex/login")).json().state).toBe("waiting");
    expect((await call("DELETE", "/api/agents/codex/login")).json()).toEqual({ state: "cancelled" });
    const fragment = await call("DELETE", "/agents/codex/login");
    expect(fragment.text).toContain("nothing was stored");
    expect(oauth.requests.some((request) => request.path === "/oauth/token")).toBe(false);
    expect(existsSync(join(t.paths.data, "runtimes", "codex", "auth.json"))).toBe(false);
  }, 30_000);

  it("a login server that fails is said in one line, and it can be started again", async () => {
    const { call } = await world({ usercode: [{ status: 500, body: { error: "boom" } }, usercode], token: APPROVED });
    const failed = (await call("POST", "/api/agents/codex/login")).json();
    expect(failed.state).toBe("failed");
    expect(failed.message).toBe("Codex login failed: boom");
    expect(String(failed.message).split("\n")).toHaveLength(1);
    expect((await call("POST", "/api/agents/codex/login")).json()).toMatchObject({ state: "waiting", userCode: USER_CODE });
  }, 30_000);

  it("changes need the page's CSRF token and Origin: without them nothing starts", async () => {
    const { oauth, served } = await world({ usercode, token: PENDING });
    const cookie = await signIn(await served.nextLink());
    const attempts: Record<string, string>[] = [{ cookie, origin: served.url }, { cookie, "x-bosun-csrf": "0".repeat(64), origin: served.url }, { cookie }];
    for (const headers of attempts) {
      const response = await fetch(`${served.url}/api/agents/codex/login`, { method: "POST", headers });
      expect(response.status, JSON.stringify(Object.keys(headers))).toBe(403);
    }
    expect(oauth.requests).toEqual([]);
  }, 30_000);
});
