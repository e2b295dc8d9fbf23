import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codex, codexPluginAuthPath } from "../../src/runtimes/codex.js";
import {
  accountIdFromIdToken,
  codexAuthBase,
  DeviceLoginCancelledError,
  DeviceLoginError,
  DeviceLoginTimeoutError,
  pollCodexDeviceLogin,
  saveCodexLogin,
  startCodexDeviceLogin,
  waitForCodexDeviceLogin,
  type DeviceLoginIo,
} from "../../src/runtimes/codex-device-login.js";
import { makeDetection } from "../fixtures/detection.js";
import {
  APPROVED,
  AUTHORIZATION_CODE,
  CODE_VERIFIER,
  DEVICE_AUTH_ID,
  idTokenFor,
  PENDING,
  startOAuthServer,
  TOKENS,
  USER_CODE,
  type OAuthScript,
} from "../fixtures/oauth-server.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A local OAuth server and io whose clock moves only when bosun sleeps (so 15 minutes pass at once). */
async function setUp(script: OAuthScript = {}) {
  const server = await startOAuthServer(script);
  servers.push(server);
  let clock = Date.UTC(2026, 0, 1);
  const sleeps: number[] = [];
  const io: DeviceLoginIo = {
    base: server.base,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  };
  return { server, io, sleeps, advance: (ms: number) => (clock += ms) };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
}

describe("Codex device login against a local OAuth server", () => {
  it("starts, polls while pending (403, 404), exchanges the code and stores Codex's auth file 0600", async () => {
    const { server, io, sleeps } = await setUp({ token: [PENDING, { status: 404, body: {} }, APPROVED] });
    const start = await startCodexDeviceLogin(io);
    expect(start).toEqual({
      deviceAuthId: DEVICE_AUTH_ID,
      userCode: USER_CODE,
      interval: 5,
      expiresAt: Date.UTC(2026, 0, 1) / 1000 + 900,
      verificationUrl: `${server.base}/codex/device`,
    });
    let pending = 0;
    const tokens = await waitForCodexDeviceLogin(start, io, () => pending++);
    expect(pending).toBe(2);
    expect(sleeps).toEqual([5000, 5000, 5000]);
    expect(tokens.accountId).toBe("acct-42");
    expect(server.requests.map((r) => r.path)).toEqual([
      "/api/accounts/deviceauth/usercode",
      "/api/accounts/deviceauth/token",
      "/api/accounts/deviceauth/token",
      "/api/accounts/deviceauth/token",
      "/oauth/token",
    ]);

    const t = makeDetection();
    const path = await saveCodexLogin(t.ctx, tokens, () => Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(path).toBe(codexPluginAuthPath(t.ctx));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      auth_mode: "chatgpt",
      OPENAI_API_KEY: null,
      tokens: { id_token: TOKENS.id_token, access_token: TOKENS.access_token, refresh_token: TOKENS.refresh_token, account_id: "acct-42" },
      last_refresh: "2026-01-02T03:04:05.000Z",
    });
    expect(readFileSync(path, "utf8")).toContain('\n  "auth_mode": "chatgpt"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(path))).toEqual(["auth.json"]);
    expect(await codex.status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "plugin", authPath: path });
  });

  it("polls every max(3 s, interval), 5 s when the server gives none, and accepts `usercode`", async () => {
    const fast = await setUp({ usercode: { status: 200, body: { device_auth_id: DEVICE_AUTH_ID, usercode: USER_CODE, interval: 1 } } });
    const start = await startCodexDeviceLogin(fast.io);
    expect(start).toMatchObject({ userCode: USER_CODE, interval: 1 });
    await waitForCodexDeviceLogin(start, fast.io);
    expect(fast.sleeps).toEqual([3000]);
    const plain = await setUp({ usercode: { status: 200, body: { device_auth_id: DEVICE_AUTH_ID, user_code: USER_CODE } } });
    const defaults = await startCodexDeviceLogin(plain.io);
    expect(defaults.interval).toBe(5);
    await waitForCodexDeviceLogin(defaults, plain.io);
    expect(plain.sleeps).toEqual([5000]);
  });

  it("replaces an earlier login atomically, leaving no temp file", async () => {
    const t = makeDetection();
    await saveCodexLogin(t.ctx, { idToken: "i", accessToken: "old-a", refreshToken: "old-r", accountId: "" });
    const path = await saveCodexLogin(t.ctx, { idToken: "i", accessToken: "new-a", refreshToken: "new-r", accountId: "" });
    expect(JSON.parse(readFileSync(path, "utf8")).tokens.access_token).toBe("new-a");
    expect(readdirSync(dirname(path))).toEqual(["auth.json"]);
  });

  describe("server errors stop the login with the server's reason", () => {
    it("at the start: error_description, then error, then the status", async () => {
      const cases: [OAuthScript["usercode"], string][] = [
        [{ status: 429, body: { error: "slow_down", error_description: "Too many requests, slow down" } }, "Codex login failed: Too many requests, slow down"],
        [{ status: 400, body: { error: "invalid_client" } }, "Codex login failed: invalid_client"],
        [{ status: 401, body: { error: { message: "Unknown client", type: "invalid_request_error" } } }, "Codex login failed: Unknown client"],
        [{ status: 502, raw: "<html>Bad gateway</html>" }, "Codex login failed: OAuth endpoint returned status 502"],
        [{ status: 200, raw: "not json" }, "did not answer with a JSON object"],
      ];
      for (const [answer, message] of cases) {
        const { io } = await setUp({ usercode: answer });
        const error = await failureOf(startCodexDeviceLogin(io));
        expect(error).toBeInstanceOf(DeviceLoginError);
        expect(error.message).toContain(message);
      }
    });

    it("when a poll fails for any reason but pending: the first error ends it", async () => {
      const { io, server } = await setUp({ token: [PENDING, { status: 400, body: { error: "expired_token", error_description: "The device code expired" } }, APPROVED] });
      const start = await startCodexDeviceLogin(io);
      await expect(waitForCodexDeviceLogin(start, io)).rejects.toThrow("Codex login failed: The device code expired");
      expect(server.requests.filter((r) => r.path === "/oauth/token")).toEqual([]);
    });

    it("when the exchange fails, without echoing the code or verifier it sent", async () => {
      const { io } = await setUp({ exchange: { status: 400, body: { error: "invalid_grant", error_description: `code ${AUTHORIZATION_CODE} with verifier ${CODE_VERIFIER} is invalid` } } });
      const start = await startCodexDeviceLogin(io);
      const error = await failureOf(waitForCodexDeviceLogin(start, io));
      expect(error.message).toBe("Codex login failed: code [redacted:authorization_code] with verifier [redacted:code_verifier] is invalid");
    });
  });

  describe("answers with missing fields are errors that name the fields", () => {
    it("start without device_auth_id or user_code", async () => {
      const { io } = await setUp({ usercode: { status: 200, body: { interval: 5 } } });
      await expect(startCodexDeviceLogin(io)).rejects.toThrow("the login server's answer is missing: device_auth_id, user_code");
    });

    it("poll success without the authorization code or verifier", async () => {
      const { io } = await setUp({ token: { status: 200, body: { authorization_code: AUTHORIZATION_CODE } } });
      await expect(waitForCodexDeviceLogin(await startCodexDeviceLogin(io), io)).rejects.toThrow("the login server's answer is missing: code_verifier");
    });

    it("tokens without a refresh token", async () => {
      const { io } = await setUp({ exchange: { status: 200, body: { id_token: TOKENS.id_token, access_token: TOKENS.access_token, refresh_token: "" } } });
      await expect(waitForCodexDeviceLogin(await startCodexDeviceLogin(io), io)).rejects.toThrow("the token answer is missing: refresh_token");
    });

    it("a poll without the ids it needs", async () => {
      const { io } = await setUp();
      await expect(pollCodexDeviceLogin({ deviceAuthId: "", userCode: USER_CODE, interval: 5, expiresAt: 0, verificationUrl: "" }, io)).rejects.toThrow("missing device_auth_id or user_code");
    });
  });

  it("times out after 15 minutes of pending, counted from the start", async () => {
    const { io, sleeps, server, advance } = await setUp({ token: PENDING });
    const start = await startCodexDeviceLogin(io);
    advance(60_000);
    const error = await failureOf(waitForCodexDeviceLogin(start, io));
    expect(error).toBeInstanceOf(DeviceLoginTimeoutError);
    expect(error.message).toBe("Codex login timed out after 15 minutes; run bosun agents login codex again");
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(14 * 60_000);
    expect(server.requests.filter((r) => r.path.endsWith("/token")).length).toBe(sleeps.length);
  });

  it("cancels cleanly when the signal aborts while waiting", async () => {
    const { io } = await setUp({ token: PENDING });
    const realTime = { base: io.base };
    const start = await startCodexDeviceLogin(realTime);
    const cancel = new AbortController();
    const waiting = waitForCodexDeviceLogin(start, { ...realTime, signal: cancel.signal });
    setTimeout(() => cancel.abort(), 20);
    const started = Date.now();
    await expect(waiting).rejects.toBeInstanceOf(DeviceLoginCancelledError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("cancels a request in flight", async () => {
    const { io } = await setUp({ usercode: { status: 200, body: {}, delayMs: 5000 } });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 20);
    await expect(startCodexDeviceLogin({ ...io, signal: cancel.signal })).rejects.toThrow("Codex login cancelled; nothing was stored");
  });

  it("gives up on a server that does not answer in time, or cannot be reached", async () => {
    const { io } = await setUp({ usercode: { status: 200, body: {}, delayMs: 2000 } });
    await expect(startCodexDeviceLogin({ ...io, httpTimeoutMs: 50 })).rejects.toThrow(`Codex login failed: ${io.base} did not answer within 0.05 s`);
    const closed = await setUp();
    await closed.server.close();
    await expect(startCodexDeviceLogin(closed.io)).rejects.toThrow(`Codex login failed: cannot reach ${closed.io.base} (ECONNREFUSED)`);
  });

  it("reads the account id from the id token, and '' when it is not there", () => {
    expect(accountIdFromIdToken(idTokenFor("acct-9"))).toBe("acct-9");
    expect(accountIdFromIdToken("not-a-jwt")).toBe("");
    expect(accountIdFromIdToken("a.bm90IGpzb24.c")).toBe("");
    expect(accountIdFromIdToken(`a.${Buffer.from('{"https://api.openai.com/auth":{"chatgpt_account_id":5}}').toString("base64url")}.c`)).toBe("");
  });

  it("takes the server from BOSUN_CODEX_AUTH_BASE: https, or http only on this machine", () => {
    expect(codexAuthBase({})).toBe("https://auth.openai.com");
    expect(codexAuthBase({ BOSUN_CODEX_AUTH_BASE: "http://127.0.0.1:4000/" })).toBe("http://127.0.0.1:4000");
    expect(codexAuthBase({ BOSUN_CODEX_AUTH_BASE: "https://auth.example.com" })).toBe("https://auth.example.com");
    expect(() => codexAuthBase({ BOSUN_CODEX_AUTH_BASE: "http://auth.example.com" })).toThrow("BOSUN_CODEX_AUTH_BASE must be an https URL (plain http only for localhost)");
    expect(() => codexAuthBase({ BOSUN_CODEX_AUTH_BASE: "not a url" })).toThrow("BOSUN_CODEX_AUTH_BASE is not a URL");
    const withPassword = (() => {
      try {
        return codexAuthBase({ BOSUN_CODEX_AUTH_BASE: "https://me:hunter2@auth.example.com" });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(withPassword).toBe("BOSUN_CODEX_AUTH_BASE must not contain a user name or password");
  });

  it("never leaves the tokens anywhere but the auth file", async () => {
    const { io } = await setUp();
    const t = makeDetection();
    const tokens = await waitForCodexDeviceLogin(await startCodexDeviceLogin(io), io);
    const path = await saveCodexLogin(t.ctx, tokens);
    const files = readdirSync(t.root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const holding = files.filter((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8").includes(TOKENS.refresh_token));
    expect(holding.map((entry) => join(entry.parentPath, entry.name))).toEqual([path]);
  });
});
