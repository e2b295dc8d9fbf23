import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claude, claudeCredentialsPath } from "../../src/runtimes/claude.js";
import { carryOutDisconnect, planRuntimeDisconnect } from "../../src/runtimes/disconnect.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";

const status = claude.status;

describe("claude (Claude Code)", () => {
  it("is signed in via ANTHROPIC_API_KEY (the name is reported, never the value)", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "sk-ant-123" } });
    t.put(".claude/.credentials.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "env", authPath: "ANTHROPIC_API_KEY" });
    t.ctx.env.ANTHROPIC_API_KEY = " ";
    expect((await status.authStatus({}, t.ctx)).mode).toBe("env");
  });

  it("does not look at API_KEY_ANTHROPIC or an empty ANTHROPIC_API_KEY", async () => {
    const t = makeDetection({ env: { API_KEY_ANTHROPIC: "sk-ant", ANTHROPIC_API_KEY: "" } });
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("is signed in via a non-empty ~/.claude/.credentials.json, which it never reads", async () => {
    const reader = readerFailingAt(() => false, "read");
    const t = makeDetection({ files: reader });
    const file = t.put(".claude/.credentials.json", "not even json");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
    expect(reader.reads).toEqual([]);
    t.put(".claude/.credentials.json", "");
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  });

  it("uses only $CLAUDE_CONFIG_DIR/.credentials.json when CLAUDE_CONFIG_DIR is set", async () => {
    const t = makeDetection({ env: { CLAUDE_CONFIG_DIR: " ~/claude-config " } });
    t.put(".claude/.credentials.json", "{}");
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    const file = t.put("claude-config/.credentials.json", "{}");
    expect(claudeCredentialsPath(t.ctx)).toBe(file);
    expect(await status.authStatus({}, t.ctx)).toEqual({ connected: true, mode: "external", authPath: file });
  });

  it("ignores a folder where the file should be and follows a symlink to its real path", async () => {
    const t = makeDetection();
    mkdirSync(join(t.home, ".claude", ".credentials.json"), { recursive: true });
    expect((await status.authStatus({}, t.ctx)).connected).toBe(false);
    const u = makeDetection();
    const real = u.put("keys/claude.json", "{}");
    mkdirSync(join(u.home, ".claude"));
    symlinkSync(real, join(u.home, ".claude", ".credentials.json"));
    expect(await status.authStatus({}, u.ctx)).toEqual({ connected: true, mode: "external", authPath: real });
  });

  it("reports a path it cannot inspect as a display-safe error", async () => {
    const t = makeDetection({ files: readerFailingAt((path) => path.endsWith(".credentials.json")) });
    const auth = await status.authStatus({}, t.ctx);
    expect(auth).toEqual({ connected: false, mode: "", authPath: "", error: `cannot read ${join(t.home, ".claude", ".credentials.json")}: permission denied (EACCES)` });
  });

  it("has no device login", () => {
    expect(status.supportsDeviceLogin()).toBe(false);
  });

  describe("disconnect", () => {
    it("deletes the credentials file (even an empty one) and nothing else", async () => {
      const t = makeDetection();
      const file = t.put(".claude/.credentials.json", "");
      const settings = t.put(".claude/settings.json", "{}");
      const plan = await planRuntimeDisconnect(claude, {}, t.ctx);
      expect(plan).toEqual({ action: "remove-file", mode: "external", path: file });
      expect(await carryOutDisconnect(claude, plan, t.ctx)).toEqual({ agent: "claude", removed: true, mode: "external", authPath: file });
      expect(existsSync(file)).toBe(false);
      expect(existsSync(settings)).toBe(true);
    });

    it("removes a symlinked credentials file as the link, leaving what it points to", async () => {
      const t = makeDetection();
      const real = t.put("keys/claude.json", "{}");
      mkdirSync(join(t.home, ".claude"));
      const link = join(t.home, ".claude", ".credentials.json");
      symlinkSync(real, link);
      await carryOutDisconnect(claude, await planRuntimeDisconnect(claude, {}, t.ctx), t.ctx);
      expect(existsSync(link)).toBe(false);
      expect(existsSync(real)).toBe(true);
    });

    it("refuses while ANTHROPIC_API_KEY is set, and when there is nothing to remove", async () => {
      const t = makeDetection({ env: { ANTHROPIC_API_KEY: "sk" } });
      const file = t.put(".claude/.credentials.json", "{}");
      await expect(planRuntimeDisconnect(claude, {}, t.ctx)).rejects.toThrow("Claude Code: nothing to disconnect (ANTHROPIC_API_KEY is set in the environment; unset it to sign Claude Code out)");
      expect(existsSync(file)).toBe(true);
      const u = makeDetection();
      await expect(planRuntimeDisconnect(claude, {}, u.ctx)).rejects.toThrow("Claude Code: nothing to disconnect (no Claude Code credentials found)");
    });

    it("says the file was already gone when it vanished after the plan", async () => {
      const t = makeDetection();
      const file = t.put(".claude/.credentials.json", "{}");
      const plan = await planRuntimeDisconnect(claude, {}, t.ctx);
      await carryOutDisconnect(claude, plan, t.ctx);
      expect(await carryOutDisconnect(claude, plan, t.ctx)).toEqual({ agent: "claude", removed: false, mode: "external", authPath: file, message: "the credentials file was already gone" });
    });
  });
});
