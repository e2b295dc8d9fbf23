import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportRuntime } from "../../src/runtimes/collect-status.js";
import { grok, grokVariant, GROK_BUILD, NPM_GROK } from "../../src/runtimes/grok.js";
import { dotenvAssigns } from "../../src/runtimes/grok-npm.js";
import { isNpmGrok } from "../../src/runtimes/grok-variant.js";
import { makeDetection, type DetectionFixture } from "../fixtures/detection.js";

const status = grok.status;

/** A `grok` on PATH as `npm install -g @vibe-kit/grok-cli` lays it out: a symlink into the package. */
function installNpmGrok(t: DetectionFixture, name = "@vibe-kit/grok-cli"): string {
  const pkg = join(t.root, "lib", "node_modules", ...name.split("/"));
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version: "0.0.34", bin: { grok: "dist/index.js" } }));
  writeFileSync(join(pkg, "dist", "index.js"), "#!/usr/bin/env node\n");
  chmodSync(join(pkg, "dist", "index.js"), 0o755);
  symlinkSync(join(pkg, "dist", "index.js"), join(t.binDir, "grok"));
  return join(pkg, "dist", "index.js");
}

describe("which grok is installed", () => {
  it("is the npm grok when the binary leads into the @vibe-kit/grok-cli package", () => {
    const t = makeDetection();
    expect(grokVariant({}, t.ctx)).toBe(GROK_BUILD);
    installNpmGrok(t);
    expect(grokVariant({}, t.ctx)).toBe(NPM_GROK);
  });

  it("is Grok Build for another package, a native binary, or a configured path elsewhere", () => {
    const t = makeDetection();
    installNpmGrok(t, "grok-lookalike");
    expect(grokVariant({}, t.ctx)).toBe(GROK_BUILD);
    const u = makeDetection();
    writeFileSync(join(u.binDir, "grok"), Buffer.concat([Buffer.from("\x7fELF"), Buffer.alloc(70 * 1024)]));
    chmodSync(join(u.binDir, "grok"), 0o755);
    expect(grokVariant({}, u.ctx)).toBe(GROK_BUILD);
    const npm = makeDetection();
    installNpmGrok(npm);
    expect(grokVariant({ binary: u.binDir + "/grok" }, npm.ctx)).toBe(GROK_BUILD);
  });

  it("is the npm grok for a launcher script that starts the package (pnpm, volta)", () => {
    const t = makeDetection();
    const shim = join(t.binDir, "grok");
    writeFileSync(shim, '#!/bin/sh\nexec node "$basedir/global/5/node_modules/@vibe-kit/grok-cli/dist/index.js" "$@"\n');
    chmodSync(shim, 0o755);
    expect(isNpmGrok(shim, t.ctx.files)).toBe(true);
    expect(grokVariant({}, t.ctx)).toBe(NPM_GROK);
  });

  it("shows the variant's title, hints and id in bosun agents", async () => {
    const t = makeDetection();
    installNpmGrok(t);
    const report = await reportRuntime(grok, {}, t.ctx);
    expect(report).toMatchObject({ id: "grok", variant: "vibe-kit-grok-cli", title: "Grok CLI (npm @vibe-kit/grok-cli)", installed: true, installHint: "npm install -g @vibe-kit/grok-cli", loginHint: NPM_GROK.loginHint });
    expect(NPM_GROK.signInVerifiedAgainst).toContain("@vibe-kit/grok-cli 0.0.34");
    expect(GROK_BUILD.signInVerifiedAgainst).toBeUndefined();
    expect(grok.signInVerifiedAgainst).toBeUndefined();
    const none = await reportRuntime(grok, {}, makeDetection().ctx);
    expect(none).toMatchObject({ variant: "grok-build", title: "Grok Build", installed: false, loginHint: GROK_BUILD.loginHint });
  });
});

describe("the npm grok's sign-in", () => {
  const npm = (env: Record<string, string> = {}) => {
    const t = makeDetection({ env });
    installNpmGrok(t);
    return t;
  };

  it("reads GROK_API_KEY, not XAI_API_KEY", async () => {
    expect(await status.authStatus({}, npm({ GROK_API_KEY: "xai-test" }).ctx)).toEqual({ connected: true, mode: "env", authPath: "GROK_API_KEY" });
    const t = npm({ XAI_API_KEY: "xai-test", API_KEY_XAI: "x" });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: join(t.home, ".grok", "user-settings.json") });
  });

  it("reads a truthy apiKey in ~/.grok/user-settings.json, not the project's .grok/settings.json", async () => {
    const t = npm();
    t.put(join(t.ctx.cwd, ".grok", "settings.json"), '{"apiKey":"xai-test"}');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    const settings = join(t.home, ".grok", "user-settings.json");
    for (const value of ['"xai-test"', '" "', "5", "true", "{}", "[]"]) {
      t.put(settings, `{"baseURL":"https://api.x.ai/v1","apiKey":${value}}`);
      expect(await status.authStatus({}, t.ctx), value).toEqual({ connected: true, mode: "external", authPath: settings });
    }
    for (const text of ['{"apiKey":""}', '{"apiKey":0}', '{"apiKey":null}', '{"apiKey":"k",}', '\uFEFF{"apiKey":"k"}', "null", '"apiKey"', '[{"apiKey":"k"}]', '{"api_key":"k"}']) {
      t.put(settings, text);
      expect((await status.authStatus({}, t.ctx)).connected, text).toBe(false);
    }
  });

  it("reads GROK_API_KEY from the working folder's .env unless the variable is there (even empty)", async () => {
    const t = npm();
    const dotenv = t.put(join(t.ctx.cwd, ".env"), "OTHER=1\nGROK_API_KEY=xai-test\n");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: dotenv });
    t.ctx.env.GROK_API_KEY = "";
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    delete t.ctx.env.GROK_API_KEY;
    t.ctx.env.DOTENV_KEY = "dotenv://:key@dotenvx.com/vault/.env.vault?environment=production";
    expect((await status.authStatus({}, t.ctx)).connected).toBe(true);
    const vault = t.put(join(t.ctx.cwd, ".env.vault"), "DOTENV_VAULT_PRODUCTION=x\n");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: vault, error: `grok loads ${vault} (DOTENV_KEY is set) and stops if it cannot decrypt it; bosun does not open it` });
  });

  it("names GROK_API_KEY before .env before the settings file", async () => {
    const t = npm({ GROK_API_KEY: "a" });
    t.put(join(t.ctx.cwd, ".env"), "GROK_API_KEY=b\n");
    t.put(".grok/user-settings.json", '{"apiKey":"c"}');
    expect((await status.authStatus({}, t.ctx)).authPath).toBe("GROK_API_KEY");
    delete t.ctx.env.GROK_API_KEY;
    expect((await status.authStatus({}, t.ctx)).authPath).toBe(join(t.ctx.cwd, ".env"));
  });

  it("says why it does not disconnect", async () => {
    const t = npm({ GROK_API_KEY: "a" });
    const plan = () => status.planDisconnect!({}, t.ctx);
    expect(await plan()).toEqual({ action: "none", reason: "grok uses the environment variable GROK_API_KEY; unset it" });
    delete t.ctx.env.GROK_API_KEY;
    const dotenv = t.put(join(t.ctx.cwd, ".env"), "GROK_API_KEY=b\n");
    expect(await plan()).toEqual({ action: "none", reason: `grok reads GROK_API_KEY from ${dotenv}; remove that line` });
    t.put(dotenv, "");
    const settings = t.put(".grok/user-settings.json", '{"apiKey":"c"}');
    expect(await plan()).toEqual({ action: "none", reason: `the key is the "apiKey" field of ${settings}, next to your other grok settings; remove that field` });
    t.put(settings, "x".repeat(1024 * 1024 + 1));
    expect(await plan()).toEqual({ action: "none", reason: `cannot read ${settings}: is larger than 1 MiB` });
  });
});

describe("dotenv's reading of GROK_API_KEY", () => {
  const cases: [string, boolean | undefined][] = [
    ["GROK_API_KEY=k", true],
    ["export GROK_API_KEY=k", true],
    ["  GROK_API_KEY = k  ", true],
    ["GROK_API_KEY: k", true],
    ["GROK_API_KEY:k", undefined],
    ["GROK_API_KEY=", false],
    ["GROK_API_KEY=   # none", false],
    ["GROK_API_KEY=#k", false],
    ['GROK_API_KEY=""', false],
    ["GROK_API_KEY=''", false],
    ['GROK_API_KEY=" "', true],
    ['GROK_API_KEY="k" # note', true],
    ["GROK_API_KEY=k\r\nGROK_API_KEY=", false],
    ["GROK_API_KEY=\nGROK_API_KEY=k", true],
    ["# GROK_API_KEY=k", undefined],
    ["XGROK_API_KEY=k", undefined],
    ['CERT="-----BEGIN\nGROK_API_KEY=k\n-----END"', undefined],
    ['CERT="unterminated\nGROK_API_KEY=k', true],
    ["\uFEFFGROK_API_KEY=k", true],
  ];
  it.each(cases)("%j → %s", (text, expected) => {
    expect(dotenvAssigns(text, "GROK_API_KEY")).toBe(expected);
  });
});
