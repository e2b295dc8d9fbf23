import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gemini, geminiAdcPath, geminiHome } from "../../src/runtimes/gemini.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";

const status = gemini.status;

describe("gemini (Gemini CLI)", () => {
  it("checks GEMINI_API_KEY, then GOOGLE_API_KEY", async () => {
    const both = makeDetection({ env: { GOOGLE_API_KEY: "g", GEMINI_API_KEY: "secret" } });
    expect(await status.authStatus({}, both.ctx)).toEqual({ connected: true, mode: "env", authPath: "GEMINI_API_KEY" });
    const google = makeDetection({ env: { GOOGLE_API_KEY: "g" } });
    expect(await status.authStatus({}, google.ctx)).toEqual({ connected: true, mode: "env", authPath: "GOOGLE_API_KEY" });
  });

  it("counts GOOGLE_APPLICATION_CREDENTIALS only when it names a non-empty regular file", async () => {
    const t = makeDetection({ env: { GOOGLE_APPLICATION_CREDENTIALS: " ~/sa.json " } });
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put("sa.json", "");
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put("sa.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "env", authPath: "GOOGLE_APPLICATION_CREDENTIALS" });
    const dir = makeDetection({ env: { GOOGLE_APPLICATION_CREDENTIALS: "/" } });
    expect((await status.authStatus({}, dir.ctx)).connected).toBe(false);
  });

  it("finds gemini-credentials.json, then oauth_creds.json (any content)", async () => {
    const t = makeDetection();
    const legacy = t.put(".gemini/oauth_creds.json", "x");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: legacy });
    const current = t.put(".gemini/gemini-credentials.json", "x");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: current });
  });

  it("takes GEMINI_CLI_HOME as the folder that holds .gemini", async () => {
    const t = makeDetection({ env: { GEMINI_CLI_HOME: "~/ghome" } });
    expect(geminiHome(t.ctx)).toBe(join(t.home, "ghome", ".gemini"));
    t.put(".gemini/oauth_creds.json", "x");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, "ghome", ".gemini") });
    const file = t.put("ghome/.gemini/oauth_creds.json", "x");
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(file);
  });

  it("finds GEMINI_API_KEY or GOOGLE_API_KEY with a value in ~/.gemini/.env", async () => {
    const t = makeDetection();
    const cases: [string, boolean][] = [
      ['GEMINI_API_KEY="secret"', true],
      ["# comment\nGOOGLE_API_KEY=abc\n", true],
      ["export GEMINI_API_KEY=abc", false],
      ['GEMINI_API_KEY=""', false],
      ["OPENAI_API_KEY=abc", false],
    ];
    for (const [content, connected] of cases) {
      const file = t.put(".gemini/.env", content);
      expect(await status.authStatus({}, t.ctx), content).toEqual(connected ? { connected: true, mode: "external", authPath: file } : { connected: false, mode: "", authPath: join(t.home, ".gemini") });
    }
  });

  it("finds gcloud application default credentials, at $CLOUDSDK_CONFIG when set", async () => {
    const t = makeDetection();
    const adc = t.put(".config/gcloud/application_default_credentials.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: adc });
    t.ctx.env.CLOUDSDK_CONFIG = join(t.home, "gcloud-alt");
    expect(geminiAdcPath(t.ctx)).toBe(join(t.home, "gcloud-alt", "application_default_credentials.json"));
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("treats stores it cannot read as not there and keeps looking, without an error", async () => {
    const t = makeDetection({ files: readerFailingAt((path) => path.endsWith("oauth_creds.json") || path.endsWith(".env")) });
    t.put(".gemini/oauth_creds.json", "x");
    t.put(".gemini/.env", "GEMINI_API_KEY=x");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, ".gemini") });
    const adc = t.put(".config/gcloud/application_default_credentials.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: adc });
    const u = makeDetection();
    u.put(".gemini/.env", Buffer.from([0xff, 0x00]));
    mkdirSync(join(u.home, ".gemini", "gemini-credentials.json"));
    expect(await status.authStatus({}, u.ctx)).toEqual({ connected: false, mode: "", authPath: join(u.home, ".gemini") });
  });

  it("cannot be disconnected and has no device login", () => {
    expect(status.planDisconnect).toBeUndefined();
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});
