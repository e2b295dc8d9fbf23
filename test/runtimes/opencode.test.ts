import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { opencode, OPENCODE_ENV_KEYS, OPENCODE_SECRET_KEYS, opencodeAuthPath } from "../../src/runtimes/opencode.js";
import { makeDetection } from "../fixtures/detection.js";

const status = opencode.status;

describe("opencode (OpenCode)", () => {
  it("knows ten provider variables and checks them in code-point order", async () => {
    expect([...OPENCODE_ENV_KEYS].sort()).toEqual([
      "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY", "GEMINI_API_KEY", "GH_TOKEN", "GITHUB_TOKEN",
      "GOOGLE_API_KEY", "GROQ_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "XAI_API_KEY",
    ]);
    for (const name of OPENCODE_ENV_KEYS) {
      const t = makeDetection({ env: { [name]: "v" } });
      expect(await status.authStatus({}, t.ctx), name).toEqual({ connected: true, mode: "env", authPath: name });
    }
    const t = makeDetection({ env: { XAI_API_KEY: "v", OPENAI_API_KEY: "v", GITHUB_TOKEN: "v", GH_TOKEN: "v" } });
    expect((await status.authStatus({}, t.ctx)).authPath).toBe("GH_TOKEN");
  });

  it("finds a secret in ~/.local/share/opencode/auth.json, and reports that path when not signed in", async () => {
    const t = makeDetection();
    const path = join(t.home, ".local", "share", "opencode", "auth.json");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: path });
    for (const key of OPENCODE_SECRET_KEYS) {
      t.put(path, JSON.stringify({ anthropic: { type: "oauth", [key]: "x" } }));
      expect(await status.authStatus({}, t.ctx), key).toEqual({ connected: true, mode: "external", authPath: path });
    }
    t.put(path, JSON.stringify({ anthropic: { type: "api", key: "sk-only-under-key" } }));
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    t.put(path, JSON.stringify({ openai: { id_token: "x", refresh_token: " " } }));
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("treats invalid JSON as not signed in (no text scan)", async () => {
    const t = makeDetection();
    t.put(".local/share/opencode/auth.json", '{"api_key": "x"');
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
  });

  it("follows XDG_DATA_HOME (trimmed, ~ expanded)", async () => {
    const t = makeDetection({ env: { XDG_DATA_HOME: " ~/xdg " } });
    expect(opencodeAuthPath(t.ctx)).toBe(join(t.home, "xdg", "opencode", "auth.json"));
    const file = t.put("xdg/opencode/auth.json", '{"p":{"token":"t"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
  });

  it("stops with a display-safe error for a file over the size limit", async () => {
    const t = makeDetection();
    const file = t.put(".local/share/opencode/auth.json", "x".repeat(1024 * 1024 + 1));
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${file}: is larger than 1 MiB` });
  });

  it("cannot be disconnected and has no device login", () => {
    expect(status.planDisconnect).toBeUndefined();
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});
