import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codex, codexExternalAuthPath, codexPluginAuthPath } from "../../src/runtimes/codex.js";
import { carryOutDisconnect, machineDisconnectTools, planRuntimeDisconnect } from "../../src/runtimes/disconnect.js";
import { codexAuthJson } from "../fixtures/codex-auth.js";
import { makeDetection, type DetectionFixture } from "../fixtures/detection.js";

const status = codex.status;

/** A stand-in `codex` on PATH: `logout` removes Codex's auth file, or fails loudly when asked to. */
function stubCodexLogout(t: DetectionFixture): void {
  const script = join(t.binDir, "codex");
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      'echo "$@" > "$HOME/logout-args"',
      'AUTH="${CODEX_HOME:-$HOME/.codex}/auth.json"',
      'if [ -n "$STUB_LOGOUT_FAIL" ]; then',
      '  echo "Error: could not revoke key sk-fake-***lmnop" >&2',
      '  echo "token file was: $(/bin/cat "$AUTH")" >&2',
      "  exit 3",
      "fi",
      '/bin/rm -f "$AUTH"',
      'echo "Successfully logged out"',
    ].join("\n") + "\n",
  );
  chmodSync(script, 0o755);
}

describe("codex (OpenAI Codex CLI)", () => {
  it("ignores API keys in the environment", async () => {
    const t = makeDetection({ env: { OPENAI_API_KEY: "sk-1", CODEX_API_KEY: "sk-2" } });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("finds bosun's own login first (plugin mode)", async () => {
    const t = makeDetection();
    const plugin = t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
    t.put(".codex/auth.json", codexAuthJson());
    expect(plugin).toBe(join(t.ctx.dataDir, "runtimes", "codex", "auth.json"));
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "plugin", authPath: plugin });
  });

  it("finds Codex's own login in ~/.codex/auth.json (external mode)", async () => {
    const t = makeDetection();
    const file = t.put(".codex/auth.json", codexAuthJson());
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
  });

  it("reads $CODEX_HOME/auth.json instead when CODEX_HOME is set (trimmed, ~ expanded)", async () => {
    const t = makeDetection({ env: { CODEX_HOME: "  ~/codex-home  " } });
    t.put(".codex/auth.json", codexAuthJson());
    expect(await status.authStatus({}, t.ctx)).toMatchObject({ connected: false });
    const file = t.put("codex-home/auth.json", codexAuthJson());
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    t.ctx.env.CODEX_HOME = "   ";
    expect(codexExternalAuthPath(t.ctx)).toBe(join(t.home, ".codex", "auth.json"));
  });

  it("needs both an access and a refresh token, each truthy", async () => {
    const t = makeDetection();
    const cases: [string, boolean][] = [
      [codexAuthJson({ access: "" }), false],
      [codexAuthJson({ refresh: "" }), false],
      [codexAuthJson({ access: null }), false],
      [codexAuthJson({ refresh: [] }), false],
      [codexAuthJson({ access: {} }), false],
      [codexAuthJson({ access: 0 }), false],
      [codexAuthJson({ access: 1, refresh: ["r"] }), true],
      [JSON.stringify({ OPENAI_API_KEY: "sk-only-a-key" }), false],
      [JSON.stringify({ tokens: "access_token refresh_token" }), false],
      [JSON.stringify([{ tokens: { access_token: "a", refresh_token: "r" } }]), false],
      ['{"tokens": {"access_token": "a", "refresh_token": "r"', false],
      ["", false],
    ];
    for (const [content, connected] of cases) {
      t.put(".codex/auth.json", content);
      expect((await status.authStatus({}, t.ctx)).connected, content).toBe(connected);
    }
  });

  it("treats an unreadable plugin file as no login and goes on to Codex's own", async () => {
    const t = makeDetection();
    t.put(codexPluginAuthPath(t.ctx), Buffer.from([0xff, 0xfe, 0x00]));
    const file = t.put(".codex/auth.json", codexAuthJson());
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
  });

  it("reports the real path of a symlinked auth file", async () => {
    const t = makeDetection();
    const real = t.put("vault/codex-auth.json", codexAuthJson());
    t.put(".codex/.keep", "");
    symlinkSync(real, join(t.home, ".codex", "auth.json"));
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: real });
  });

  it("supports device login, and can disconnect exactly when signed in", async () => {
    const t = makeDetection();
    expect(status.supportsDeviceLogin()).toBe(true);
    expect(await status.planDisconnect!({}, t.ctx)).toEqual({ action: "none", reason: "no Codex credentials found" });
    t.put(".codex/auth.json", codexAuthJson());
    expect((await status.planDisconnect!({}, t.ctx)).action).toBe("run-logout");
  });

  it("does not create its data folder just by looking", async () => {
    const t = makeDetection();
    await status.authStatus({}, t.ctx);
    await status.planDisconnect!({}, t.ctx);
    expect(existsSync(t.ctx.dataDir)).toBe(false);
    expect(status.dataDir(t.ctx)).toBe(join(t.ctx.dataDir, "runtimes", "codex"));
  });

  describe("disconnect", () => {
    it("removes only bosun's own file when both logins exist, then Codex's via `codex logout`", async () => {
      const t = makeDetection();
      stubCodexLogout(t);
      const plugin = t.put(codexPluginAuthPath(t.ctx), codexAuthJson());
      const external = t.put(".codex/auth.json", codexAuthJson());

      const first = await planRuntimeDisconnect(codex, {}, t.ctx);
      expect(first).toEqual({ action: "remove-file", mode: "plugin", path: plugin });
      expect(await carryOutDisconnect(codex, first, t.ctx)).toEqual({ agent: "codex", removed: true, mode: "plugin", authPath: plugin });
      expect(existsSync(plugin)).toBe(false);
      expect(existsSync(external)).toBe(true);
      expect(existsSync(join(t.home, "logout-args"))).toBe(false);

      const second = await planRuntimeDisconnect(codex, {}, t.ctx);
      expect(second).toMatchObject({ action: "run-logout", command: "codex", args: ["logout"], authPath: external });
      expect(await carryOutDisconnect(codex, second, t.ctx)).toEqual({ agent: "codex", removed: true, mode: "external", authPath: external });
      expect(readFileSync(join(t.home, "logout-args"), "utf8").trim()).toBe("logout");
      expect(existsSync(external)).toBe(false);
      await expect(planRuntimeDisconnect(codex, {}, t.ctx)).rejects.toThrow("OpenAI Codex CLI: nothing to disconnect (no Codex credentials found)");
    });

    it("runs the configured binary, with CODEX_HOME passed through", async () => {
      const t = makeDetection();
      t.ctx.env.CODEX_HOME = join(t.home, "ch");
      stubCodexLogout(t);
      const external = t.put("ch/auth.json", codexAuthJson());
      const plan = await planRuntimeDisconnect(codex, { binary: join(t.binDir, "codex") }, t.ctx);
      expect(plan).toMatchObject({ command: join(t.binDir, "codex") });
      await carryOutDisconnect(codex, plan, t.ctx);
      expect(existsSync(external)).toBe(false);
    });

    it("relays a failing logout's complaint short and with every secret redacted", async () => {
      const t = makeDetection({ env: { STUB_LOGOUT_FAIL: "1" } });
      stubCodexLogout(t);
      t.put(".codex/auth.json", codexAuthJson({ access: "acc-SECRET-aaaaaaaaaaaaaaaa", refresh: "ref-SECRET-bbbbbbbbbbbb", id: "eyJhbGciOi.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ" }));
      const plan = await planRuntimeDisconnect(codex, {}, t.ctx);
      const failure = carryOutDisconnect(codex, plan, t.ctx);
      await expect(failure).rejects.toThrow(/^OpenAI Codex CLI: `codex logout` failed \(exit 3\): Error: could not revoke key \[redacted\]/);
      const message = await failure.then(() => "", (error: Error) => error.message);
      expect(message).not.toMatch(/SECRET|lmnop|eyJ|c2lnbmF0dXJl/);
      expect(message.length).toBeLessThan(300);
    });

    it("says so when codex is not installed or hangs", async () => {
      const t = makeDetection();
      const external = t.put(".codex/auth.json", codexAuthJson());
      const plan = await planRuntimeDisconnect(codex, {}, t.ctx);
      await expect(carryOutDisconnect(codex, plan, t.ctx)).rejects.toThrow(`OpenAI Codex CLI: cannot run \`codex logout\` (not found); install it, or remove ${external} yourself`);
      const hanging = { ...machineDisconnectTools, runCommand: async () => ({ exitCode: null, stdout: "", stderr: "", timedOut: true }) };
      await expect(carryOutDisconnect(codex, plan, t.ctx, hanging)).rejects.toThrow("`codex logout` did not finish within 30 s");
      expect(existsSync(external)).toBe(true);
    });

    it("passes the 30 s timeout, the environment and the working folder to the logout", async () => {
      const t = makeDetection();
      t.put(".codex/auth.json", codexAuthJson());
      const calls: unknown[] = [];
      const tools = { ...machineDisconnectTools, runCommand: async (...args: unknown[]) => (calls.push(args), { exitCode: 0, stdout: "", stderr: "", timedOut: false }) };
      await carryOutDisconnect(codex, await planRuntimeDisconnect(codex, {}, t.ctx), t.ctx, tools);
      expect(calls).toEqual([["codex", ["logout"], { env: t.ctx.env, cwd: t.ctx.cwd, timeoutMs: 30_000 }]]);
    });
  });
});
