// Who may use the dashboard. DashboardAuth on its own: a launch token works once and only until it
// expires (a fake clock), a session cookie is accepted only as this secret signed it (every
// tampering refused), a CSRF token belongs to one session; dashboardSecret keeps the secret in a
// 0600 file, reuses it (a restart keeps the open tabs signed in), and replaces a malformed one.
// Then over HTTP, through a listening dashboard: /auth refuses without setting a cookie, swaps a
// good token for an HttpOnly SameSite=Strict cookie (303 to "/", no referrer), and a change needs
// the CSRF token the page carries in its <meta>.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dashboardSecret, DashboardAuth, LAUNCH_TOKEN_MS, SESSION_COOKIE } from "../../src/web/security/dashboard-auth.js";
import { pageCsrf, startMemoryDashboard } from "../fixtures/dashboard-app.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bosun-auth-"));
  dirs.push(dir);
  return dir;
}

/** A character of a hex string changed to another hex character. */
function flip(text: string, at: number): string {
  const changed = text[at] === "0" ? "1" : "0";
  return text.slice(0, at) + changed + text.slice(at + 1);
}

describe("launch tokens", () => {
  it("work once", () => {
    const auth = new DashboardAuth(randomBytes(32));
    const token = auth.mintLaunchToken();
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(auth.redeem(token)).toBe(true);
    expect(auth.redeem(token)).toBe(false);
  });

  it("each is its own: redeeming one leaves the others working", () => {
    const auth = new DashboardAuth(randomBytes(32));
    const [first, second] = [auth.mintLaunchToken(), auth.mintLaunchToken()];
    expect(first).not.toBe(second);
    expect(auth.redeem(second)).toBe(true);
    expect(auth.redeem(first)).toBe(true);
  });

  it(`expire ${LAUNCH_TOKEN_MS / 60_000} minutes after they were made`, () => {
    expect(LAUNCH_TOKEN_MS).toBe(10 * 60_000);
    let now = 1_000_000;
    const auth = new DashboardAuth(randomBytes(32), () => now);
    const early = auth.mintLaunchToken();
    const late = auth.mintLaunchToken();
    now += LAUNCH_TOKEN_MS - 1;
    expect(auth.redeem(early)).toBe(true);
    now += 1;
    expect(auth.redeem(late)).toBe(false);
    // An expired token stays refused when the clock goes back (it was dropped, not just skipped).
    now -= 10;
    expect(auth.redeem(late)).toBe(false);
  });

  it.each<[string, (token: string) => string | undefined]>([
    ["no token", () => undefined],
    ["an empty token", () => ""],
    ["an unknown token", () => "f".repeat(48)],
    ["a prefix of the token", (token) => token.slice(0, 47)],
    ["the token in upper case", (token) => token.toUpperCase()],
    ["the token with a character more", (token) => `${token}0`],
    ["the token with one character changed", (token) => flip(token, 20)],
  ])("refuse %s (and the real one still works after)", (_name, tamper) => {
    const auth = new DashboardAuth(randomBytes(32));
    const token = auth.mintLaunchToken();
    expect(auth.redeem(tamper(token))).toBe(false);
    expect(auth.redeem(token)).toBe(true);
  });

  it("are not known to another DashboardAuth (a restart forgets unused links)", () => {
    const secret = randomBytes(32);
    const token = new DashboardAuth(secret).mintLaunchToken();
    expect(new DashboardAuth(secret).redeem(token)).toBe(false);
  });
});

describe("session cookies", () => {
  it("are `<32 hex id>.<64 hex mac>` and stand for their id", () => {
    const auth = new DashboardAuth(randomBytes(32));
    const cookie = auth.newSession();
    expect(cookie).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{64}$/);
    expect(auth.sessionOf(cookie)).toBe(cookie.split(".")[0]);
    expect(auth.newSession()).not.toBe(cookie);
  });

  it.each<[string, (cookie: string) => string | undefined]>([
    ["missing", () => undefined],
    ["empty", () => ""],
    ["a changed id", (cookie) => flip(cookie, 5)],
    ["a changed mac", (cookie) => flip(cookie, 40)],
    ["a mac cut short", (cookie) => cookie.slice(0, -1)],
    ["an extra dot", (cookie) => `${cookie}.`],
    ["an extra part", (cookie) => `${cookie}.00`],
    ["upper case", (cookie) => cookie.toUpperCase()],
    ["the id alone", (cookie) => cookie.split(".")[0]],
    ["the mac alone", (cookie) => `.${cookie.split(".")[1]}`],
    ["a short id with its own mac", () => "abc.0000"],
    ["another secret's cookie", () => new DashboardAuth(randomBytes(32)).newSession()],
  ])("refuse %s", (_name, tamper) => {
    const auth = new DashboardAuth(randomBytes(32));
    const cookie = auth.newSession();
    expect(auth.sessionOf(tamper(cookie))).toBeNull();
  });

  it("a different id with the mac moved over is refused: the mac signs its own id", () => {
    const auth = new DashboardAuth(randomBytes(32));
    const [one, two] = [auth.newSession(), auth.newSession()];
    expect(auth.sessionOf(`${one.split(".")[0]}.${two.split(".")[1]}`)).toBeNull();
  });
});

describe("CSRF tokens", () => {
  it("are valid only for their own session, exactly", () => {
    const auth = new DashboardAuth(randomBytes(32));
    const session = auth.sessionOf(auth.newSession())!;
    const other = auth.sessionOf(auth.newSession())!;
    const token = auth.csrfToken(session);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(auth.csrfValid(session, token)).toBe(true);
    expect(auth.csrfValid(session, undefined)).toBe(false);
    expect(auth.csrfValid(session, "")).toBe(false);
    expect(auth.csrfValid(session, token.toUpperCase())).toBe(false);
    expect(auth.csrfValid(session, token.slice(1))).toBe(false);
    expect(auth.csrfValid(session, flip(token, 10))).toBe(false);
    expect(auth.csrfValid(other, token)).toBe(false);
    // Not the session's cookie mac either: the two are derived apart.
    const cookie = auth.newSession();
    const [id, mac] = cookie.split(".") as [string, string];
    expect(auth.csrfValid(id, mac)).toBe(false);
  });
});

describe("dashboardSecret", () => {
  it("makes a 0600 file of 64 hex characters (in a 0700 folder it makes), and reuses it", () => {
    const dir = tempDir();
    const file = join(dir, "state", "serve-secret");
    const secret = dashboardSecret(file);
    expect(secret).toHaveLength(32);
    expect(readFileSync(file, "utf8")).toBe(`${secret.toString("hex")}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state")).mode & 0o777).toBe(0o700);
    expect(dashboardSecret(file).equals(secret)).toBe(true);
  });

  it("keeps a signed-in tab signed in across a restart: a cookie and its CSRF token stay valid for a new DashboardAuth with the same file", () => {
    const file = join(tempDir(), "serve-secret");
    const before = new DashboardAuth(dashboardSecret(file));
    const cookie = before.newSession();
    const session = before.sessionOf(cookie)!;
    const after = new DashboardAuth(dashboardSecret(file));
    expect(after.sessionOf(cookie)).toBe(session);
    expect(after.csrfValid(session, before.csrfToken(session))).toBe(true);
  });

  it.each<[string, string]>([
    ["not hex", "this is not a secret\n"],
    ["too short", `${"ab".repeat(31)}\n`],
    ["too long", `${"ab".repeat(33)}\n`],
    ["upper-case hex", `${"AB".repeat(32)}\n`],
    ["empty", ""],
  ])("replaces a file that is %s with a new secret (old cookies then sign in again)", (_name, content) => {
    const file = join(tempDir(), "serve-secret");
    writeFileSync(file, content, { mode: 0o600 });
    const secret = dashboardSecret(file);
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect(readFileSync(file, "utf8")).toBe(`${secret.toString("hex")}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("a malformed file that others could read is replaced by one only you can", () => {
    const file = join(tempDir(), "serve-secret");
    writeFileSync(file, "junk\n");
    chmodSync(file, 0o644);
    dashboardSecret(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("fixes a good file's 0644 mode to 0600 and keeps its secret", () => {
    const file = join(tempDir(), "serve-secret");
    const hex = randomBytes(32).toString("hex");
    writeFileSync(file, `${hex}\n`);
    chmodSync(file, 0o644);
    expect(dashboardSecret(file).toString("hex")).toBe(hex);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("signing in over HTTP", () => {
  it("/auth without a token, or with a bad one, is a 403 with what to do and no cookie", async () => {
    const { dashboard } = await startMemoryDashboard();
    for (const path of ["/auth", "/auth?token=", `/auth?token=${"0".repeat(48)}`, "/auth?token=../../etc"]) {
      const response = await fetch(`${dashboard.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(403);
      expect(response.headers.get("set-cookie"), path).toBeNull();
      expect(await response.text()).toBe("bosun: this launch link was used already or has expired: press Enter in the terminal where bosun serve runs for a new one\n");
    }
  });

  it("a launch link sets an HttpOnly SameSite=Strict cookie for the whole site and redirects (303) to /, without a referrer; used again it is a 403", async () => {
    const { dashboard } = await startMemoryDashboard();
    const link = dashboard.launchUrl();
    expect(link).toMatch(new RegExp(`^${dashboard.url}/auth\\?token=[0-9a-f]{48}$`));
    const response = await fetch(link, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{32}\\.[0-9a-f]{64}; `));
    const attributes = cookie.split(";").slice(1).map((part) => part.trim());
    expect(attributes.sort()).toEqual(["HttpOnly", "Path=/", "SameSite=Strict"]);
    const session = cookie.split(";")[0] as string;
    expect((await fetch(`${dashboard.url}/api/agents`, { headers: { cookie: session } })).status).toBe(200);

    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(403);
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("without the cookie, or with a tampered one, the API is a 401 and no data source is called", async () => {
    const { dashboard, sources, signIn } = await startMemoryDashboard();
    const cookie = await signIn();
    await dashboard.refresh();
    const before = sources.totalCalls();
    const value = cookie.slice(`${SESSION_COOKIE}=`.length);
    for (const sent of [undefined, `${SESSION_COOKIE}=${flip(value, 3)}`, `${SESSION_COOKIE}=${flip(value, 50)}`, `${SESSION_COOKIE}=${value}.`, `${SESSION_COOKIE}=${value.toUpperCase()}`, `other=${value}`]) {
      const response = await fetch(`${dashboard.url}/api/catalog?q=x`, { headers: sent === undefined ? {} : { cookie: sent } });
      expect(response.status, String(sent)).toBe(401);
      expect(await response.json()).toEqual({ error: "not signed in: open the link bosun serve printed (press Enter in its terminal for a new one)" });
    }
    expect(sources.totalCalls()).toBe(before);
    expect((await fetch(`${dashboard.url}/api/catalog?q=x`, { headers: { cookie } })).status).toBe(200);
    expect(sources.totalCalls()).toBe(before + 1);
  });

  it("a change (POST /api/refresh) needs the CSRF token of the page's <meta name=bosun-csrf>: none or a wrong one is a 403", async () => {
    const { dashboard, signIn } = await startMemoryDashboard();
    const cookie = await signIn();
    const other = await signIn();
    const csrf = await pageCsrf(dashboard.url, cookie);
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    const otherCsrf = await pageCsrf(dashboard.url, other);
    expect(otherCsrf).not.toBe(csrf);

    const post = (headers: Record<string, string>) => fetch(`${dashboard.url}/api/refresh`, { method: "POST", headers: { cookie, origin: dashboard.url, ...headers } });
    const wrong: Record<string, string>[] = [{}, { "x-bosun-csrf": "" }, { "x-bosun-csrf": flip(csrf, 0) }, { "x-bosun-csrf": otherCsrf }, { cookie: `${cookie}; bosun-csrf=${csrf}` }];
    for (const headers of wrong) {
      const refused = await post(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(await refused.json()).toEqual({ error: "the request lacks this page's CSRF token; reload the page" });
    }
    const taken = await post({ "x-bosun-csrf": csrf });
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ refreshed: true });
  });

  it("a restart with the same secret keeps a signed-in browser signed in (cookie and CSRF token)", async () => {
    const secret = randomBytes(32);
    const first = await startMemoryDashboard({ secret });
    const cookie = await first.signIn();
    const csrf = await pageCsrf(first.dashboard.url, cookie);
    await first.dashboard.close();
    const second = await startMemoryDashboard({ secret });
    expect((await fetch(`${second.dashboard.url}/api/agents`, { headers: { cookie } })).status).toBe(200);
    const post = await fetch(`${second.dashboard.url}/api/refresh`, { method: "POST", headers: { cookie, origin: second.dashboard.url, "x-bosun-csrf": csrf } });
    expect(post.status).toBe(200);
    const another = await startMemoryDashboard({ secret: randomBytes(32) });
    expect((await fetch(`${another.dashboard.url}/api/agents`, { headers: { cookie } })).status).toBe(401);
  });
});
