import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codePointSorted } from "../../src/runtimes/kit/detect/env.js";
import { hermes, HERMES_ENV_KEYS, HERMES_SECRET_KEYS } from "../../src/runtimes/hermes.js";
import { makeDetection } from "../fixtures/detection.js";

const status = hermes.status;

describe("hermes (Hermes Agent)", () => {
  it("knows the 31 provider variables and checks them in code-point order", async () => {
    expect(HERMES_ENV_KEYS.size).toBe(31);
    for (const name of HERMES_ENV_KEYS) {
      const t = makeDetection({ env: { [name]: "v" } });
      expect(await status.authStatus({}, t.ctx), name).toEqual({ connected: true, mode: "env", authPath: name });
    }
    const sorted = codePointSorted(HERMES_ENV_KEYS);
    const all = makeDetection({ env: Object.fromEntries([...HERMES_ENV_KEYS].reverse().map((name) => [name, "v"])) });
    expect((await status.authStatus({}, all.ctx)).authPath).toBe(sorted[0]);
    const two = makeDetection({ env: { XAI_API_KEY: "v", GH_TOKEN: "v", GITHUB_TOKEN: "v" } });
    expect((await status.authStatus({}, two.ctx)).authPath).toBe("GH_TOKEN");
  });

  it("finds any of those names with a value in ~/.hermes/.env", async () => {
    const t = makeDetection();
    const file = t.put(".hermes/.env", "# keys\nOPENROUTER_API_KEY='sk-or'\n");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    t.put(".hermes/.env", "UNRELATED_KEY=x\nexport OPENAI_API_KEY=x\nHF_TOKEN=\n");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("needs a secret of at least four characters in auth.json", async () => {
    const t = makeDetection();
    for (const key of HERMES_SECRET_KEYS) {
      const file = t.put(".hermes/auth.json", JSON.stringify({ providers: { nous: { [key]: "abcd" } } }));
      expect(await status.authStatus({}, t.ctx), key).toEqual({ connected: true, mode: "external", authPath: file });
    }
    for (const value of ["abc", "  abc  ", ""]) {
      t.put(".hermes/auth.json", JSON.stringify({ token: value }));
      expect((await status.authStatus({}, t.ctx)).connected, value).toBe(false);
    }
  });

  it("does not fall back to a text scan: auth.json must be JSON", async () => {
    const t = makeDetection();
    t.put(".hermes/auth.json", '"token": "abcdefgh", not json');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("reads $HERMES_HOME instead of ~/.hermes", async () => {
    const t = makeDetection({ env: { HERMES_HOME: "~/h" } });
    t.put(".hermes/auth.json", '{"token":"abcd"}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    const file = t.put("h/auth.json", '{"token":"abcd"}');
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(file);
  });

  it("stops with a display-safe error when .env cannot be read", async () => {
    const t = makeDetection();
    const env = t.put(".hermes/.env", Buffer.from("OPENAI_API_KEY=\xff\xfe", "latin1"));
    t.put(".hermes/auth.json", '{"token":"abcd"}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${env}: is not UTF-8 text` });
    expect(join(t.home, ".hermes", ".env")).toBe(env);
  });

  it("cannot be disconnected and has no device login", () => {
    expect(status.planDisconnect).toBeUndefined();
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});
