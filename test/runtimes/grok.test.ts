import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grok } from "../../src/runtimes/grok.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";
import { makeFifo } from "../fixtures/temp-home.js";

const status = grok.status;

describe("grok (Grok Build: no grok, or one that is not the npm package)", () => {
  it("checks XAI_API_KEY, then API_KEY_XAI (Agent Zero's name for it)", async () => {
    const both = makeDetection({ env: { API_KEY_XAI: "b", XAI_API_KEY: "a" } });
    expect(await status.authStatus({}, both.ctx)).toEqual({ connected: true, mode: "env", authPath: "XAI_API_KEY" });
    const second = makeDetection({ env: { API_KEY_XAI: "secret" } });
    expect(await status.authStatus({}, second.ctx)).toEqual({ connected: true, mode: "env", authPath: "API_KEY_XAI" });
  });

  it("reads config.toml by the TOML rule: api_key, or env_key naming a variable that is set", async () => {
    const t = makeDetection();
    const config = t.put(".grok/config.toml", '[model]\nenv_key = "GROK_TEST_KEY"\n');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, ".grok") });
    t.ctx.env.GROK_TEST_KEY = "secret";
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: config });
    t.put(".grok/config.toml", 'api_key = "xai-1"');
    delete t.ctx.env.GROK_TEST_KEY;
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(config);
    t.put(".grok/config.toml", '{"api_key": "json is not read in config.toml"}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("reads auth.json by the JSON rule with the text fallback", async () => {
    const t = makeDetection();
    const auth = t.put(".grok/auth.json", '{"accounts":[{"refresh_token":"r"}]}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: auth });
    t.put(".grok/auth.json", 'broken "id_token": ');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(true);
    t.put(".grok/auth.json", '{"id_token": ""}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("checks every regular file in auth/ (TOML rule for .toml) and reports the folder", async () => {
    const t = makeDetection();
    const dir = join(t.home, ".grok", "auth");
    mkdirSync(join(dir, "sub.json"), { recursive: true });
    makeFifo(join(dir, "pipe.json"));
    t.put(".grok/auth/a.json", "{}");
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put(".grok/auth/b.toml", 'api_key = "k"');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: dir });
    const u = makeDetection();
    u.put(".grok/auth/account.json", '{"token":"t"}');
    expect((await status.authStatus({}, u.ctx)).authPath).toBe(join(u.home, ".grok", "auth"));
  });

  it("reports the real folder when auth/ is a symlink", async () => {
    const t = makeDetection();
    t.put("elsewhere/grok-auth/x.json", '{"token":"t"}');
    mkdirSync(join(t.home, ".grok"));
    symlinkSync(join(t.home, "elsewhere", "grok-auth"), join(t.home, ".grok", "auth"));
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(join(t.home, "elsewhere", "grok-auth"));
  });

  it("reads $GROK_HOME instead of ~/.grok", async () => {
    const t = makeDetection({ env: { GROK_HOME: "~/g" } });
    t.put(".grok/auth.json", '{"token":"t"}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, "g") });
    const file = t.put("g/auth.json", '{"token":"t"}');
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(file);
  });

  it("stops with a display-safe error when a path cannot be read", async () => {
    const t = makeDetection({ files: readerFailingAt((path) => path.endsWith("/auth")) });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${join(t.home, ".grok", "auth")}: permission denied (EACCES)` });
  });

  it("is not disconnected: bosun cannot name Grok Build's store", async () => {
    const t = makeDetection({ env: { XAI_API_KEY: "k" } });
    expect(await status.planDisconnect!({}, t.ctx)).toEqual({ action: "none", reason: "bosun cannot name every place Grok Build keeps its login; sign out with grok itself" });
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});
