import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { opencode, OPENCODE_ENV_KEYS, opencodeAuthPath } from "../../src/runtimes/opencode.js";
import { isOpencodeCredential } from "../../src/runtimes/opencode-credentials.js";
import { makeDetection } from "../fixtures/detection.js";

const status = opencode.status;
const AUTH = ".local/share/opencode/auth.json";

describe("opencode (OpenCode)", () => {
  it("knows the provider variables of OpenCode 1.18.33's bundled catalogue, in code-point order", async () => {
    expect(OPENCODE_ENV_KEYS.length).toBe(221);
    expect([...OPENCODE_ENV_KEYS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(OPENCODE_ENV_KEYS);
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "AWS_REGION", "GOOGLE_GENERATIVE_AI_API_KEY", "MISTRAL_API_KEY", "OPENCODE_API_KEY"]) expect(OPENCODE_ENV_KEYS, name).toContain(name);
    // Not in OpenCode's catalogue, whatever one might expect.
    expect(OPENCODE_ENV_KEYS).not.toContain("GH_TOKEN");
    const t = makeDetection({ env: { XAI_API_KEY: "v", OPENAI_API_KEY: "v", GITHUB_TOKEN: "v", AWS_REGION: "eu-west-1" } });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "env", authPath: "AWS_REGION" });
    const empty = makeDetection({ env: { ANTHROPIC_API_KEY: "" } });
    expect((await status.authStatus({}, empty.ctx)).connected).toBe(false);
    const blank = makeDetection({ env: { ANTHROPIC_API_KEY: " " } });
    expect((await status.authStatus({}, blank.ctx)).authPath).toBe("ANTHROPIC_API_KEY");
  });

  it("takes what `opencode auth login` writes: an api key, an OAuth login, a well-known token", async () => {
    const t = makeDetection();
    const path = join(t.home, AUTH);
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: path });
    for (const entry of [
      { type: "api", key: "sk-ant-test-1" },
      { type: "api", key: "", metadata: { region: "eu" } },
      { type: "oauth", refresh: "r", access: "a", expires: 0 },
      { type: "oauth", refresh: "", access: "", expires: 1764633600000, accountId: "acct", enterpriseUrl: "https://ghe.example" },
      { type: "wellknown", key: "TOKEN_VAR", token: "t" },
    ]) {
      t.put(path, JSON.stringify({ anthropic: entry }));
      expect(await status.authStatus({}, t.ctx), JSON.stringify(entry)).toEqual({ connected: true, mode: "external", authPath: path });
    }
  });

  it("drops entries OpenCode's schema drops", () => {
    for (const entry of [
      null, 5, "api", [], {}, { type: "API", key: "k" }, { type: "weird", key: "k" }, { key: "k" },
      { type: "api" }, { type: "api", key: 5 }, { type: "api", key: "k", metadata: { n: 1 } }, { type: "api", key: "k", metadata: null },
      { type: "oauth", refresh: "r", access: "a" }, { type: "oauth", refresh: "r", access: "a", expires: "1" },
      { type: "oauth", refresh: "r", access: "a", expires: 1.5 }, { type: "oauth", refresh: "r", access: "a", expires: -1 },
      { type: "oauth", refresh: "r", access: "a", expires: 2 ** 53 }, { type: "oauth", refresh: "r", access: "a", expires: 1, accountId: 5 },
      { type: "oauth", access: "a", expires: 1 }, { type: "wellknown", key: "k" },
    ]) {
      expect(isOpencodeCredential(entry), JSON.stringify(entry)).toBe(false);
    }
  });

  it("reads auth.json as OpenCode does: invalid JSON is no credentials, a BOM is fine, an array's items count", async () => {
    const t = makeDetection();
    const file = t.put(AUTH, '{"a":{"type":"api","key":"k"},}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put(AUTH, '{"a":{"type":"api","key":"k"} // a comment\n}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put(AUTH, '\uFEFF{"a":{"type":"api","key":"k"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    t.put(AUTH, '[{"type":"api","key":"k"}]');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(true);
    for (const text of ['"abc"', "5", "true", '{"a":{"type":"api","key":"k"},"a":{"type":"api"}}']) {
      t.put(AUTH, text);
      expect((await status.authStatus({}, t.ctx)).connected, text).toBe(false);
    }
  });

  it("a null auth.json is an error, even with a provider variable set: OpenCode stops on it", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "sk-ant-test-1" } });
    const file = t.put(AUTH, "null");
    const auth = await status.authStatus({}, t.ctx);
    expect(auth).toMatchObject({ connected: false, mode: "", authPath: file });
    expect(auth.error).toContain(`${file} holds null`);
  });

  it("OPENCODE_AUTH_CONTENT replaces auth.json when it parses, its entries unchecked", async () => {
    const t = makeDetection({ env: { OPENCODE_AUTH_CONTENT: '{"anthropic":{"type":"nonsense"}}' } });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "env", authPath: "OPENCODE_AUTH_CONTENT" });
    t.put(AUTH, '{"a":{"type":"api","key":"k"}}');
    t.ctx.env.OPENCODE_AUTH_CONTENT = "{}";
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.ctx.env.ANTHROPIC_API_KEY = "k";
    expect((await status.authStatus({}, t.ctx)).authPath).toBe("ANTHROPIC_API_KEY");
    delete t.ctx.env.ANTHROPIC_API_KEY;
    for (const unparsed of ["{bad", " ", ""]) {
      t.ctx.env.OPENCODE_AUTH_CONTENT = unparsed;
      expect((await status.authStatus({}, t.ctx)).authPath, unparsed).toBe(join(t.home, AUTH));
    }
    t.ctx.env.OPENCODE_AUTH_CONTENT = "null";
    expect((await status.authStatus({}, t.ctx)).error).toContain("OPENCODE_AUTH_CONTENT holds null");
    t.ctx.env.OPENCODE_AUTH_CONTENT = '"ab"';
    expect((await status.authStatus({}, t.ctx)).authPath).toBe("OPENCODE_AUTH_CONTENT");
  });

  it("names stored credentials before a provider variable", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "k" } });
    const file = t.put(AUTH, '{"openai":{"type":"api","key":"k"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
  });

  it("follows XDG_DATA_HOME as OpenCode does: as it is, relative to the working folder, no ~", async () => {
    const t = makeDetection({ env: { XDG_DATA_HOME: join("/", "srv", "xdg") } });
    expect(opencodeAuthPath(t.ctx)).toBe(join("/", "srv", "xdg", "opencode", "auth.json"));
    t.ctx.env.XDG_DATA_HOME = "~/xdg";
    expect(opencodeAuthPath(t.ctx)).toBe(join(t.ctx.cwd, "~", "xdg", "opencode", "auth.json"));
    t.ctx.env.XDG_DATA_HOME = " data ";
    expect(opencodeAuthPath(t.ctx)).toBe(join(t.ctx.cwd, " data ", "opencode", "auth.json"));
    t.put("xdg/opencode/auth.json", '{"p":{"type":"api","key":"k"}}');
    t.ctx.env.XDG_DATA_HOME = join(t.home, "xdg");
    t.put(AUTH, '{"p":{"type":"api","key":"k"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: join(t.home, "xdg", "opencode", "auth.json") });
    t.ctx.env.XDG_DATA_HOME = "~/xdg";
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.ctx.env.XDG_DATA_HOME = "";
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(join(t.home, AUTH));
  });

  it("stops with a display-safe error for a file over the size limit", async () => {
    const t = makeDetection();
    const file = t.put(AUTH, "x".repeat(1024 * 1024 + 1));
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${file}: is larger than 1 MiB` });
  });

  it("disconnects one stored credential with `opencode auth logout PROVIDER`, and says why not otherwise", async () => {
    const t = makeDetection();
    const plan = () => status.planDisconnect!({}, t.ctx);
    expect(await plan()).toEqual({ action: "none", reason: `no credentials in ${join(t.home, AUTH)}` });
    const file = t.put(AUTH, '{"anthropic":{"type":"api","key":"k"},"junk":{"type":"x"}}');
    expect(await plan()).toEqual({ action: "run-logout", mode: "external", command: "opencode", args: ["auth", "logout", "anthropic"], authPath: file, secretFiles: [file] });
    expect(await status.planDisconnect!({ binary: "/opt/oc/opencode" }, t.ctx)).toMatchObject({ command: "/opt/oc/opencode" });
    t.put(AUTH, '{"anthropic":{"type":"api","key":"k"},"openai":{"type":"oauth","refresh":"r","access":"a","expires":1}}');
    expect(await plan()).toEqual({ action: "none", reason: `${file} holds 2 credentials (anthropic, openai); sign out of each with \`opencode auth logout PROVIDER\`` });
    t.put(AUTH, '{"--help":{"type":"api","key":"k"}}');
    expect((await plan()).action).toBe("none");
    t.put(AUTH, "{}");
    t.ctx.env.GROQ_API_KEY = "k";
    expect(await plan()).toEqual({ action: "none", reason: "OpenCode uses the environment variable GROQ_API_KEY; unset it" });
    t.ctx.env.OPENCODE_AUTH_CONTENT = '{"a":{}}';
    expect(await plan()).toEqual({ action: "none", reason: "OpenCode takes its credentials from OPENCODE_AUTH_CONTENT; unset it" });
    const big = makeDetection();
    const huge = big.put(AUTH, "x".repeat(1024 * 1024 + 1));
    expect(await status.planDisconnect!({}, big.ctx)).toEqual({ action: "none", reason: `cannot read ${huge}: is larger than 1 MiB` });
  });

  it("has no device login, and names the real CLI its rules were checked against", () => {
    expect(status.supportsDeviceLogin()).toBe(false);
    expect(opencode.signInVerifiedAgainst).toBe("opencode 1.18.33 (opencode auth list)");
  });
});
