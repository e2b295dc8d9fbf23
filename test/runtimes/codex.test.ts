import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codex, codexExternalAuthPath, codexPluginAuthPath } from "../../src/runtimes/codex.js";
import { judgeCodexAuthFile } from "../../src/runtimes/codex-auth-file.js";
import { codexSignIn } from "../../src/runtimes/codex-signin.js";
import { carryOutDisconnect, planRuntimeDisconnect } from "../../src/runtimes/kit/disconnect.js";
import { codexAuthJson } from "../fixtures/codex-auth.js";
import { makeDetection } from "../fixtures/detection.js";

const status = codex.status;
// What `printf KEY | codex login --with-api-key` writes (codex 0.171.0).
const API_KEY_LOGIN = JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-test-abcdefghijklmnop" }, null, 2);
const jwtOf = (claims: unknown) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ln`;

describe("codex (OpenAI Codex CLI) sign-in", () => {
  it("counts the file `codex login --with-api-key` writes (external mode, an API key)", async () => {
    const t = makeDetection();
    const file = t.put(".codex/auth.json", API_KEY_LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    expect(await codexSignIn(t.ctx)).toMatchObject({ signedIn: true, source: "file", method: "api-key" });
  });

  it("takes CODEX_API_KEY (not blank) ahead of any file, as codex exec does; OPENAI_API_KEY in the environment is not read", async () => {
    const t = makeDetection({ env: { CODEX_API_KEY: "sk-env-1" } });
    t.put(".codex/auth.json", codexAuthJson());
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "env", authPath: "CODEX_API_KEY" });
    t.ctx.env.CODEX_API_KEY = "   ";
    expect(await status.authStatus({}, t.ctx)).toMatchObject({ connected: true, mode: "external" });
    const other = makeDetection({ env: { OPENAI_API_KEY: "sk-env-2", CODEX_API_KEY: "" } });
    expect(await status.authStatus({}, other.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("reads auth.json as Codex does: which files are a login, of which kind, and which Codex refuses", () => {
    const cases: [string, string][] = [
      ["{}", "chatgpt"],
      ['{"OPENAI_API_KEY": null}', "chatgpt"],
      ['{"OPENAI_API_KEY": ""}', "api-key"],
      ['{"auth_mode": "chatgpt", "OPENAI_API_KEY": "sk-1"}', "chatgpt"],
      ['{"auth_mode": "chatgptAuthTokens"}', "chatgpt"],
      ['{"unknown_field": [1, 2], "last_refresh": "2026-01-02T03:04:05.123Z"}', "chatgpt"],
      [codexAuthJson(), "chatgpt"],
      [JSON.stringify({ tokens: { id_token: jwtOf({ "https://api.openai.com/auth": { chatgpt_plan_type: "pro" } }), access_token: "", refresh_token: "" } }), "chatgpt"],
      ['{"auth_mode": "apikey"}', "auth_mode is apikey but there is no OPENAI_API_KEY"],
      ['{"auth_mode": "api_key", "OPENAI_API_KEY": "sk-1"}', "auth_mode is not one Codex knows (apikey, chatgpt)"],
      ['{"auth_mode": "toString"}', "auth_mode is not one Codex knows (apikey, chatgpt)"],
      ['{"OPENAI_API_KEY": 5}', "OPENAI_API_KEY is not a string"],
      ['{"OPENAI_API_KEY": "a", "OPENAI_API_KEY": "b"}', "a field appears twice"],
      ['{"last_refresh": "yesterday"}', "last_refresh is not a date-time"],
      ['{"tokens": {}}', "tokens.access_token is missing or not a string"],
      [codexAuthJson({ id: "not-a-jwt" }), "tokens.id_token is not a JWT"],
      [codexAuthJson({ id: "a.e30=.c" }), "tokens.id_token is not a JWT (its payload is not base64url)"],
      [codexAuthJson({ id: `a.${Buffer.from("hello").toString("base64url")}.c` }), "tokens.id_token is not a JWT (its payload is not JSON)"],
      [codexAuthJson({ id: jwtOf({ email: 5 }) }), "tokens.id_token has claims of the wrong type"],
      ["[]", "it is not a JSON object"],
      ["", "it is not valid JSON"],
      ["\uFEFF{}", "it is not valid JSON"],
      ["{} x", "it is not valid JSON"],
    ];
    for (const [text, expected] of cases) {
      const verdict = judgeCodexAuthFile(text);
      expect(verdict.usable ? verdict.method : verdict.problem, text).toBe(expected);
    }
  });

  it("reports a file Codex refuses as an error naming the file and what is wrong, never its content", async () => {
    const t = makeDetection();
    const file = t.put(".codex/auth.json", '{"auth_mode": "apikey", "tokens": {"id_token": "sk-SECRET-value"}}');
    const auth = await status.authStatus({}, t.ctx);
    expect(auth).toEqual({ connected: false, mode: "", authPath: "", error: `${file} is not a login Codex can read: tokens.access_token is missing or not a string` });
    expect(await planRuntimeDisconnect(codex, {}, t.ctx).catch((error: Error) => error.message)).toBe(`OpenAI Codex CLI: nothing to disconnect (${file} is not a login Codex can read: tokens.access_token is missing or not a string)`);
  });

  describe("CODEX_HOME", () => {
    it("is taken exactly as set: not trimmed, no ~, relative to the working folder; empty means ~/.codex", async () => {
      const t = makeDetection({ env: { CODEX_HOME: "rel" } });
      const file = t.put(join(t.ctx.cwd, "rel", "auth.json"), API_KEY_LOGIN);
      t.put(".codex/auth.json", codexAuthJson());
      expect(codexExternalAuthPath(t.ctx)).toBe(file);
      expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
      t.ctx.env.CODEX_HOME = "~/rel";
      expect((await status.authStatus({}, t.ctx)).error).toBe('CODEX_HOME points to "~/rel", which does not exist (Codex stops there)');
      t.ctx.env.CODEX_HOME = ` ${join(t.ctx.cwd, "rel")} `;
      expect((await status.authStatus({}, t.ctx)).error).toMatch(/^CODEX_HOME points to " \/.*\/rel ", which does not exist/);
      t.ctx.env.CODEX_HOME = "";
      expect(codexExternalAuthPath(t.ctx)).toBe(join(t.home, ".codex", "auth.json"));
    });

    it("must be a folder that exists: Codex stops otherwise, even with CODEX_API_KEY set", async () => {
      const t = makeDetection({ env: { CODEX_API_KEY: "sk-env-1" } });
      t.ctx.env.CODEX_HOME = t.put("a-file", "");
      expect((await status.authStatus({}, t.ctx)).error).toBe(`CODEX_HOME points to ${JSON.stringify(t.ctx.env.CODEX_HOME)}, which is not a folder (Codex stops there)`);
    });
  });

  describe("config.toml", () => {
    it("that does not parse is an error naming file:line:column, without the file's text", async () => {
      const t = makeDetection({ env: { CODEX_API_KEY: "sk-env-1" } });
      t.put(".codex/auth.json", API_KEY_LOGIN);
      const config = t.put(".codex/config.toml", 'model = "gpt-5"\napi_key = sk-SECRET-0123456789\n');
      const auth = await status.authStatus({}, t.ctx);
      expect(auth).toMatchObject({ connected: false, error: `${config}:2:11: invalid value (Codex refuses a config.toml that does not parse)` });
      expect(JSON.stringify(auth)).not.toContain("SECRET");
    });

    it("keyring store: not readable by bosun, said so; ephemeral: no stored login; auto and file: auth.json", async () => {
      const t = makeDetection();
      t.put(".codex/auth.json", API_KEY_LOGIN);
      const config = t.put(".codex/config.toml", '# mine\n\ncli_auth_credentials_store = "keyring"\n');
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:3: cli_auth_credentials_store = "keyring" keeps Codex's login in the system keyring, which bosun does not read (codex login status shows it)`);
      await expect(planRuntimeDisconnect(codex, {}, t.ctx)).rejects.toThrow("Codex keeps its login in the system keyring (cli_auth_credentials_store = \"keyring\"); sign out with codex logout");
      t.ctx.env.CODEX_API_KEY = "sk-env-1";
      expect(await status.authStatus({}, t.ctx)).toMatchObject({ connected: true, mode: "env" });
      delete t.ctx.env.CODEX_API_KEY;
      t.put(".codex/config.toml", 'cli_auth_credentials_store = "ephemeral"\n');
      expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
      for (const store of ["auto", "file"]) {
        t.put(".codex/config.toml", `cli_auth_credentials_store = "${store}"\n`);
        expect(await status.authStatus({}, t.ctx)).toMatchObject({ connected: true, mode: "external" });
      }
      t.put(".codex/config.toml", 'cli_auth_credentials_store = "vault"\n');
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:1: cli_auth_credentials_store must be one of file, keyring, auto, ephemeral`);
    });

    it("forced_login_method refuses the other kind of login; the legacy profile key stops Codex", async () => {
      const t = makeDetection();
      const file = t.put(".codex/auth.json", API_KEY_LOGIN);
      const config = t.put(".codex/config.toml", 'forced_login_method = "chatgpt"\n');
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:1: forced_login_method = "chatgpt" refuses the API key in ${file} (codex exec deletes it)`);
      t.ctx.env.CODEX_API_KEY = "sk-env-1";
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:1: forced_login_method = "chatgpt" refuses the key in CODEX_API_KEY`);
      delete t.ctx.env.CODEX_API_KEY;
      t.put(".codex/auth.json", "{}");
      t.put(".codex/config.toml", 'forced_login_method = "api"\n');
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:1: forced_login_method = "api" refuses the ChatGPT login in ${file}`);
      t.put(".codex/config.toml", '\nprofile = "work"\n');
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${config}:2: the top-level profile key is no longer supported by Codex (use codex --profile NAME)`);
    });
  });

  describe("bosun's own login", () => {
    it("counts when Codex as started is not signed in, by the same rules (plugin mode)", async () => {
      const t = makeDetection();
      const plugin = t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
      expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "plugin", authPath: plugin });
      t.put(codexPluginAuthPath(t.ctx), codexAuthJson({ id: "x.y.z" }));
      expect((await status.authStatus({}, t.ctx)).error).toBe(`${plugin} is not a login Codex can read: tokens.id_token is not a JWT (its payload is not base64url)`);
    });

    it("gives way to Codex's own login, which is the one plain `codex` uses", async () => {
      const t = makeDetection();
      t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
      const own = t.put(".codex/auth.json", API_KEY_LOGIN);
      expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: own });
    });

    it("is what Codex uses when CODEX_HOME points at bosun's folder", async () => {
      const t = makeDetection();
      const plugin = t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
      t.ctx.env.CODEX_HOME = join(t.ctx.dataDir, "runtimes", "codex");
      expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "plugin", authPath: plugin });
      expect(await status.planDisconnect!({}, t.ctx)).toEqual({ action: "remove-file", mode: "plugin", path: plugin });
    });
  });

  it("reports the real path of a symlinked auth file, and disconnect removes the link (as codex logout), not the target", async () => {
    const t = makeDetection();
    const real = t.put("vault/codex-auth.json", API_KEY_LOGIN);
    mkdirSync(join(t.home, ".codex"));
    const link = join(t.home, ".codex", "auth.json");
    symlinkSync(real, link);
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: real });
    const plan = await planRuntimeDisconnect(codex, {}, t.ctx);
    expect(plan).toEqual({ action: "remove-file", mode: "external", path: link });
    await carryOutDisconnect(codex, plan, t.ctx);
    expect(() => lstatSync(link)).toThrow();
    expect(readFileSync(real, "utf8")).toBe(API_KEY_LOGIN);
  });

  describe("disconnect", () => {
    it("removes Codex's own auth.json first, then bosun's, then says there is nothing left", async () => {
      const t = makeDetection();
      const plugin = t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
      const external = t.put(".codex/auth.json", API_KEY_LOGIN);
      const config = t.put(".codex/config.toml", 'model = "gpt-5"\n');
      const first = await planRuntimeDisconnect(codex, {}, t.ctx);
      expect(first).toEqual({ action: "remove-file", mode: "external", path: external });
      expect(await carryOutDisconnect(codex, first, t.ctx)).toEqual({ agent: "codex", removed: true, mode: "external", authPath: external });
      expect([existsSync(external), existsSync(plugin), existsSync(config)]).toEqual([false, true, true]);
      const second = await planRuntimeDisconnect(codex, {}, t.ctx);
      expect(second).toEqual({ action: "remove-file", mode: "plugin", path: plugin });
      await carryOutDisconnect(codex, second, t.ctx);
      await expect(planRuntimeDisconnect(codex, {}, t.ctx)).rejects.toThrow("OpenAI Codex CLI: nothing to disconnect (no Codex credentials found)");
    });

    it("refuses a key in the environment, naming the variable", async () => {
      const t = makeDetection({ env: { CODEX_API_KEY: "sk-env-SECRET-1" } });
      const external = t.put(".codex/auth.json", API_KEY_LOGIN);
      const refusal = await planRuntimeDisconnect(codex, {}, t.ctx).catch((error: Error) => error.message);
      expect(refusal).toBe("OpenAI Codex CLI: nothing to disconnect (Codex uses the key in CODEX_API_KEY; unset it in your environment to sign out)");
      expect(existsSync(external)).toBe(true);
    });
  });

  it("does not create any folder just by looking, and names the CLI its rules were checked against", async () => {
    const t = makeDetection();
    await status.authStatus({}, t.ctx);
    await status.planDisconnect!({}, t.ctx);
    expect(existsSync(t.ctx.dataDir)).toBe(false);
    expect(existsSync(join(t.home, ".codex"))).toBe(false);
    expect(status.dataDir(t.ctx)).toBe(join(t.ctx.dataDir, "runtimes", "codex"));
    expect(codex.signInVerifiedAgainst).toMatch(/^codex 0\.171\.0 \(codex login status/);
    expect(status.supportsDeviceLogin()).toBe(true);
  });

  it("treats an auth.json Codex cannot open as an error: a folder, bytes that are not UTF-8 (a FIFO: odd-inputs.test.ts)", async () => {
    const t = makeDetection();
    const file = join(t.home, ".codex", "auth.json");
    mkdirSync(file, { recursive: true });
    expect((await status.authStatus({}, t.ctx)).error).toBe(`${file} is not a regular file (Codex cannot read its login)`);
    const other = makeDetection();
    const bytes = other.put(".codex/auth.json", Buffer.from([0x7b, 0xc3, 0x28, 0x7d]));
    expect((await status.authStatus({}, other.ctx)).error).toBe(`cannot read ${bytes}: is not UTF-8 text`);
    writeFileSync(bytes, "{}");
    expect(await status.authStatus({}, other.ctx)).toMatchObject({ connected: true });
  });
});
