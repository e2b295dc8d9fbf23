// Agent Zero's orchestrator adapter suite (twelve tests), ported as behaviour.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claude } from "../../src/runtimes/claude.js";
import { cursor } from "../../src/runtimes/cursor.js";
import { gemini } from "../../src/runtimes/gemini.js";
import { grok } from "../../src/runtimes/grok.js";
import { dotenvHoldsKey, grokTomlHoldsSecret } from "../../src/runtimes/kit/detect/secret-rules.js";
import { getRuntime, listRuntimes, UnknownRuntimeError } from "../../src/runtimes/registry.js";
import { makeDetection } from "../fixtures/detection.js";

const SRC = new URL("../../src/", import.meta.url).pathname;
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The only members a status adapter may have: detection, device-login support, the disconnect plan, its folder, where its credentials are. */
const STATUS_MEMBERS = ["resolveBinary", "isInstalled", "authStatus", "supportsDeviceLogin", "planDisconnect", "dataDir", "credentialLocations"];
/** Hooks that would run, install or build an agent, or drive its sessions. */
const COMMAND_HOOKS = /^(install|build|run|exec|spawn|launch|start)(_?command)?$|^(install|build)_?command$|^parse_?session_?id$|^format_?output$/i;

function memberNames(value: object): string[] {
  return Object.keys(value);
}

describe("Agent Zero's adapter suite, ported", () => {
  it("configured absolute binary is installed", () => {
    const t = makeDetection();
    const binary = t.fakeBinary("my-agent");
    for (const runtime of listRuntimes()) {
      expect(runtime.status.resolveBinary({ binary: `  ${binary} ` }, t.ctx)).toBe(binary);
      expect(runtime.status.isInstalled({ binary }, t.ctx)).toBe(true);
    }
  });

  it("registry order puts a0 first", () => {
    expect(listRuntimes().map((runtime) => runtime.id)).toEqual(["a0", "claude", "codex", "gemini", "opencode", "cursor", "hermes", "grok"]);
    expect(getRuntime("  CoDeX ").id).toBe("codex");
    expect(() => getRuntime("aider")).toThrow(UnknownRuntimeError);
    expect(() => getRuntime("aider")).toThrow('unknown agent "aider"; available: a0, claude, codex, cursor, gemini, grok, hermes, opencode');
  });

  it("adapters are status only: no hook that runs, installs or builds an agent", () => {
    for (const runtime of listRuntimes()) {
      for (const name of memberNames(runtime)) expect(name, `${runtime.id}.${name}`).not.toMatch(COMMAND_HOOKS);
      for (const name of memberNames(runtime.status)) expect(STATUS_MEMBERS, `${runtime.id}.status.${name}`).toContain(name);
      for (const name of ["installCommand", "buildCommand", "parseSessionId", "formatOutput", "install_command", "build_command", "parse_session_id", "format_output"]) {
        expect(name in runtime || name in runtime.status, `${runtime.id} has ${name}`).toBe(false);
      }
    }
  });

  it("tool runner files are gone: nothing under src/runtimes starts a process but the confirmed disconnect's runner", () => {
    const files = readdirSync(join(SRC, "runtimes"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    expect(files.filter((file) => /runner|terminal[-_]agent/i.test(file))).toEqual([]);
    const spawning = files.filter((file) => /node:child_process|from "child_process"/.test(readFileSync(join(SRC, "runtimes", file), "utf8")));
    // The one runner of another program is the kernel's run-command.ts, used only by the confirmed disconnect.
    expect(spawning).toEqual([]);
    const importers = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter(
      (file) => file.endsWith(".ts") && /run-command\.js"/.test(readFileSync(join(SRC, file), "utf8")),
    );
    expect(importers).toEqual([join("runtimes", "kit", "disconnect.ts")]);
  });

  it("Claude defaults skip permissions", () => {
    expect(claude.headless.values).toMatchObject({ binary: "claude", permission_mode: "bypassPermissions", allowed_tools: "Bash,Read,Edit", bare: false, model: "" });
  });

  it("Grok defaults are headless automation", () => {
    expect(grok.headless.values).toMatchObject({ output_format: "json", always_approve: true, no_auto_update: true });
  });

  it("Cursor defaults are headless automation", () => {
    expect(cursor.headless.values).toEqual({ binary: "agent", output_format: "text", force: true, delegate: "read-only" });
  });

  it("Cursor detects Agent Zero's API_KEY_CURSOR", async () => {
    const t = makeDetection({ env: { API_KEY_CURSOR: "secret" } });
    expect((await cursor.status.authStatus({}, t.ctx)).authPath).toBe("API_KEY_CURSOR");
  });

  it("Gemini detects its supported auth sources", async () => {
    const t = makeDetection({ env: { GEMINI_API_KEY: "secret" } });
    expect((await gemini.status.authStatus({}, t.ctx)).authPath).toBe("GEMINI_API_KEY");
    expect(dotenvHoldsKey('GEMINI_API_KEY="secret"\n', new Set(["GEMINI_API_KEY", "GOOGLE_API_KEY"]))).toBe(true);
  });

  it("Grok's env_key needs the variable to be set", () => {
    const line = 'env_key = "GROK_TEST_KEY"\n';
    expect(grokTomlHoldsSecret(line, {})).toBe(false);
    expect(grokTomlHoldsSecret(line, { GROK_TEST_KEY: "secret" })).toBe(true);
  });

  it("Grok detects Agent Zero's API_KEY_XAI", async () => {
    const t = makeDetection({ env: { API_KEY_XAI: "secret" } });
    expect((await grok.status.authStatus({}, t.ctx)).authPath).toBe("API_KEY_XAI");
  });

  it("sign-in guidance is an explicit command a person runs (never a bare TUI), and the README documents it", () => {
    const hints = Object.fromEntries(listRuntimes().map((runtime) => [runtime.id, runtime.loginHint]));
    expect(hints.a0).toContain("AGENT_ZERO_HOST");
    expect(hints.codex).toContain("bosun agents login codex");
    expect(hints.claude).toContain("claude auth login --claudeai");
    expect(hints.claude).toMatch(/--console.*--sso/);
    expect(hints.cursor).toContain("NO_OPEN_BROWSER=1 agent login");
    expect(hints.gemini).toContain("GEMINI_API_KEY");
    expect(hints.grok).toContain("grok login --device-auth");
    expect(hints.hermes).toContain("hermes setup --portal");
    expect(hints.opencode).toContain("opencode auth login");
    for (const [id, hint] of Object.entries(hints)) {
      expect(hint, id).not.toMatch(/^(claude|gemini|grok|agent|hermes|opencode|codex)$/);
      expect(README, `README documents ${id}'s sign-in`).toContain(hint);
    }
  });
});
