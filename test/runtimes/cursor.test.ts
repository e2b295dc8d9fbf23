import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cursor, CURSOR_AUTH_FILES, CURSOR_SECRET_KEYS } from "../../src/runtimes/cursor.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";

const status = cursor.status;

describe("cursor (Cursor CLI)", () => {
  it("uses the binary `agent`", () => {
    const t = makeDetection();
    expect(status.resolveBinary({}, t.ctx)).toBe("agent");
    t.fakeBinary("agent");
    expect(status.isInstalled({}, t.ctx)).toBe(true);
  });

  it("checks CURSOR_API_KEY, then API_KEY_CURSOR (Agent Zero's name for it)", async () => {
    const both = makeDetection({ env: { API_KEY_CURSOR: "b", CURSOR_API_KEY: "a" } });
    expect(await status.authStatus({}, both.ctx)).toEqual({ connected: true, mode: "env", authPath: "CURSOR_API_KEY" });
    const second = makeDetection({ env: { API_KEY_CURSOR: "secret", CURSOR_API_KEY: "" } });
    expect(await status.authStatus({}, second.ctx)).toEqual({ connected: true, mode: "env", authPath: "API_KEY_CURSOR" });
  });

  it("finds a token in each of its six files, in order", async () => {
    expect(CURSOR_AUTH_FILES).toEqual(["auth.json", "credentials.json", "token.json", "agent/auth.json", "agent/credentials.json", "agent/token.json"]);
    for (const name of CURSOR_AUTH_FILES) {
      const t = makeDetection();
      const file = t.put(join(".cursor", name), JSON.stringify({ session: { token: "t" } }));
      expect(await status.authStatus({}, t.ctx), name).toEqual({ connected: true, mode: "external", authPath: file });
    }
    const t = makeDetection();
    t.put(".cursor/agent/token.json", '{"token":"t"}');
    const first = t.put(".cursor/credentials.json", '{"api_key":"k"}');
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(first);
  });

  it("counts each secret key with a non-blank string value, nested anywhere", async () => {
    for (const key of CURSOR_SECRET_KEYS) {
      const t = makeDetection();
      t.put(".cursor/auth.json", JSON.stringify({ accounts: [{ [key]: "v" }] }));
      expect((await status.authStatus({}, t.ctx)).connected, key).toBe(true);
    }
    const t = makeDetection();
    for (const content of ['{"token": "  "}', '{"password": "x"}', '{"token": 5}', "[]", '"token"', ""]) {
      t.put(".cursor/auth.json", content);
      expect((await status.authStatus({}, t.ctx)).connected, content).toBe(false);
    }
  });

  it("falls back to a text scan for files that are not JSON", async () => {
    const t = makeDetection();
    t.put(".cursor/token.json", 'token = "abc"\n');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(true);
    t.put(".cursor/token.json", '{"access_token": "abc",');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(true);
    t.put(".cursor/token.json", "token=abc");
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("reads $CURSOR_HOME instead of ~/.cursor, and reports the home when not signed in", async () => {
    const t = makeDetection({ env: { CURSOR_HOME: " ~/cur " } });
    t.put(".cursor/auth.json", '{"token":"t"}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, "cur") });
    const file = t.put("cur/agent/auth.json", '{"token":"t"}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    const plain = makeDetection();
    expect((await status.authStatus({}, plain.ctx)).authPath).toBe(join(plain.home, ".cursor"));
  });

  it("stops with a display-safe error at a file it cannot read", async () => {
    const t = makeDetection();
    const bad = t.put(".cursor/auth.json", Buffer.from([0x7b, 0xc3, 0x28]));
    t.put(".cursor/token.json", '{"token":"t"}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${bad}: is not UTF-8 text` });
    const u = makeDetection({ files: readerFailingAt((path) => path.endsWith("credentials.json"), "read") });
    const unreadable = u.put(".cursor/credentials.json", "{}");
    expect((await status.authStatus({}, u.ctx)).error).toBe(`cannot read ${unreadable}: permission denied (EACCES)`);
  });

  it("cannot be disconnected and has no device login", () => {
    expect(status.planDisconnect).toBeUndefined();
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});
