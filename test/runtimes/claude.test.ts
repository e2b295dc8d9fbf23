import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claude, claudeCredentialsPath } from "../../src/runtimes/claude.js";
import { signInLabel } from "../../src/runtimes/collect-status.js";
import { carryOutDisconnect, describeDisconnectPlan, planRuntimeDisconnect } from "../../src/runtimes/kit/disconnect.js";
import { removeJsonMember } from "../../src/runtimes/kit/json-member-removal.js";
import type { AuthStatus } from "../../src/runtimes/kit/types.js";
import { makeDetection, readerFailingAt } from "../fixtures/detection.js";

const status = claude.status;
const LOGIN = JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat01-x", scopes: ["user:inference"] } });
const env = (name: string): AuthStatus => ({ connected: true, mode: "env", authPath: name });
const file = (path: string): AuthStatus => ({ connected: true, mode: "external", authPath: path });
const NO: AuthStatus = { connected: false, mode: "", authPath: "" };

function project(t: ReturnType<typeof makeDetection>): string {
  const dir = join(t.root, "proj");
  mkdirSync(dir, { recursive: true });
  t.ctx.cwd = dir;
  return dir;
}

describe("claude (Claude Code) sign-in", () => {
  it("reads the environment's credentials by name, in the CLI's order", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "sk-ant-123" } });
    expect(await status.authStatus({}, t.ctx)).toEqual(env("ANTHROPIC_API_KEY"));
    t.ctx.env.CLAUDE_CODE_OAUTH_TOKEN = "tok";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("CLAUDE_CODE_OAUTH_TOKEN"));
    t.ctx.env.ANTHROPIC_AUTH_TOKEN = " ";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("ANTHROPIC_AUTH_TOKEN"));
    t.ctx.env.CLAUDE_CODE_USE_VERTEX = " Yes ";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("CLAUDE_CODE_USE_VERTEX"));
    t.ctx.env.CLAUDE_CODE_USE_FOUNDRY = "on";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("CLAUDE_CODE_USE_FOUNDRY"));
  });

  it("does not count an empty key, a switch that is off, or a gateway without its URL and token", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "", API_KEY_ANTHROPIC: "sk", CLAUDE_CODE_USE_BEDROCK: "0", CLAUDE_CODE_USE_GATEWAY: "1" } });
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.ctx.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9";
    t.ctx.env.ANTHROPIC_AUTH_TOKEN = "tok";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("CLAUDE_CODE_USE_GATEWAY"));
  });

  it("counts a stored login only with an access token and the user:inference scope", async () => {
    const t = makeDetection();
    const path = join(t.home, ".claude", ".credentials.json");
    for (const broken of ["", "{}", "not json", '{"claudeAiOauth":{"accessToken":"t"}}', '{"claudeAiOauth":{"accessToken":"","scopes":["user:inference"]}}', '{"claudeAiOauth":{"accessToken":"t","scopes":"user:inference"}}']) {
      t.put(".claude/.credentials.json", broken);
      expect(await status.authStatus({}, t.ctx), broken).toEqual(NO);
    }
    t.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(file(path));
  });

  it("prefers the stored login to ANTHROPIC_API_KEY, and the key to /login's primaryApiKey", async () => {
    const t = makeDetection({ env: { ANTHROPIC_API_KEY: "sk" } });
    const config = t.put(".claude.json", '{"primaryApiKey":"sk-ant-api03"}');
    expect(await status.authStatus({}, t.ctx)).toEqual(env("ANTHROPIC_API_KEY"));
    delete t.ctx.env.ANTHROPIC_API_KEY;
    expect(await status.authStatus({}, t.ctx)).toEqual(file(config));
    const login = t.put(".claude/.credentials.json", LOGIN);
    t.ctx.env.ANTHROPIC_API_KEY = "sk";
    expect(await status.authStatus({}, t.ctx)).toEqual(file(login));
  });

  it("reads primaryApiKey from ~/.claude/.config.json instead of ~/.claude.json when that file exists", async () => {
    const t = makeDetection();
    t.put(".claude.json", '{"primaryApiKey":"sk-ant-api03"}');
    const legacy = t.put(".claude/.config.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.put(".claude/.config.json", '{"primaryApiKey":"k"}');
    expect(await status.authStatus({}, t.ctx)).toEqual(file(legacy));
  });

  it("takes apiKeyHelper from the last settings file that sets it: user, project, project local", async () => {
    const t = makeDetection();
    const dir = project(t);
    const user = t.put(".claude/settings.json", '{"apiKeyHelper":"printf k"}');
    expect(await status.authStatus({}, t.ctx)).toEqual(file(user));
    const local = t.put(join(dir, ".claude/settings.local.json"), '{"apiKeyHelper":"printf k"}');
    expect(await status.authStatus({}, t.ctx)).toEqual(file(local));
    t.put(join(dir, ".claude/settings.local.json"), '{"apiKeyHelper":""}');
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.put(join(dir, ".claude/settings.local.json"), "// a comment makes the file invalid\n{}");
    expect(await status.authStatus({}, t.ctx)).toEqual(file(user));
    t.ctx.env.ANTHROPIC_API_KEY = "sk";
    expect(await status.authStatus({}, t.ctx)).toEqual(file(user));
  });

  it("moves everything to CLAUDE_CONFIG_DIR, taken literally: relative to the working folder, an empty value is the working folder", async () => {
    const t = makeDetection({ env: { CLAUDE_CONFIG_DIR: join("..", "home", "cfg") } });
    const dir = project(t);
    t.put(".claude/.credentials.json", LOGIN);
    t.put(".claude.json", '{"primaryApiKey":"k"}');
    t.put(".claude/settings.json", '{"apiKeyHelper":"printf k"}');
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    const moved = t.put("cfg/.credentials.json", LOGIN);
    expect(claudeCredentialsPath(t.ctx)).toBe(moved);
    expect(await status.authStatus({}, t.ctx)).toEqual(file(moved));
    t.ctx.env.CLAUDE_CONFIG_DIR = "~/cfg";
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.ctx.env.CLAUDE_CONFIG_DIR = "";
    const here = t.put(join(dir, ".credentials.json"), LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(file(here));
  });

  it("finds the stored login in CLAUDE_SECURESTORAGE_CONFIG_DIR when that is set", async () => {
    const t = makeDetection({ env: { CLAUDE_SECURESTORAGE_CONFIG_DIR: join(makeDetection().home, "x") } });
    t.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    const secure = t.put(join(t.ctx.env.CLAUDE_SECURESTORAGE_CONFIG_DIR!, ".credentials.json"), LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(file(secure));
  });

  it("signs in with an ant profile (federation, or a user login with its credentials), and with the two federation variables", async () => {
    const t = makeDetection();
    const config = t.put(".config/anthropic/configs/default.json", '{"authentication":{"type":"user_oauth"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.put(".config/anthropic/credentials/default.json", "{}");
    expect(await status.authStatus({}, t.ctx)).toEqual(file(config));
    t.put(".config/anthropic/active_config", "work\n");
    const work = t.put(".config/anthropic/configs/work.json", '{"authentication":{"type":"oidc_federation"}}');
    expect(await status.authStatus({}, t.ctx)).toEqual(file(work));
    t.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(file(work));
    const u = makeDetection({ env: { ANTHROPIC_FEDERATION_RULE_ID: "r", ANTHROPIC_ORGANIZATION_ID: "o" } });
    expect(await status.authStatus({}, u.ctx)).toEqual(env("ANTHROPIC_FEDERATION_RULE_ID"));
  });

  it("in bare mode (CLAUDE_CODE_SIMPLE) counts only ANTHROPIC_API_KEY", async () => {
    const t = makeDetection({ env: { CLAUDE_CODE_SIMPLE: "1" } });
    t.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
    t.ctx.env.ANTHROPIC_API_KEY = "sk";
    expect(await status.authStatus({}, t.ctx)).toEqual(env("ANTHROPIC_API_KEY"));
  });

  it("shows a symlinked file by its real path and skips a file it cannot read", async () => {
    const t = makeDetection();
    const real = t.put("keys/claude.json", LOGIN);
    mkdirSync(join(t.home, ".claude"));
    symlinkSync(real, join(t.home, ".claude", ".credentials.json"));
    expect(await status.authStatus({}, t.ctx)).toEqual(file(real));
    // A file Claude Code cannot read is skipped, as the CLI does: the next source decides.
    const u = makeDetection({ files: readerFailingAt((path) => path.endsWith(".credentials.json")), env: { ANTHROPIC_API_KEY: "sk" } });
    u.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, u.ctx)).toEqual(env("ANTHROPIC_API_KEY"));
    const w = makeDetection({ files: readerFailingAt((path) => path.endsWith(".credentials.json"), "read") });
    w.put(".claude/.credentials.json", LOGIN);
    expect(await status.authStatus({}, w.ctx)).toEqual(NO);
  });

  it("words the source shortly for the agents table", () => {
    const label = (auth: AuthStatus) => signInLabel({ id: "claude", auth } as Parameters<typeof signInLabel>[0]);
    expect(label(env("CLAUDE_CODE_USE_BEDROCK"))).toBe("Bedrock");
    expect(label(env("ANTHROPIC_API_KEY"))).toBe("env");
    expect(label(file("/h/.claude/settings.json"))).toBe("helper");
    expect(label(file("/h/.claude.json"))).toBe("login key");
    expect(label(file("/h/.claude/.credentials.json"))).toBe("own login");
    expect(claude.signInVerifiedAgainst).toBe("claude 2.1.197 (claude auth status)");
  });

  it("has no device login", () => {
    expect(status.supportsDeviceLogin()).toBe(false);
  });
});

describe("claude disconnect", () => {
  it("deletes a credentials file that holds only the login, and nothing else", async () => {
    const t = makeDetection();
    const path = t.put(".claude/.credentials.json", LOGIN);
    const settings = t.put(".claude/settings.json", "{}");
    const plan = await planRuntimeDisconnect(claude, {}, t.ctx);
    expect(plan).toEqual({ action: "edit-credentials", mode: "external", authPath: path, edits: [{ kind: "remove-file", path }] });
    expect(describeDisconnectPlan(plan, t.home)).toBe("delete ~/.claude/.credentials.json");
    expect(await carryOutDisconnect(claude, plan, t.ctx)).toEqual({ agent: "claude", removed: true, mode: "external", authPath: path });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(settings)).toBe(true);
  });

  it("takes claudeAiOauth and primaryApiKey out of files that hold more, byte for byte", async () => {
    const t = makeDetection();
    const credentials = t.put(".claude/.credentials.json", `{"mcpOAuth":{"a":{"accessToken":"m"}},"claudeAiOauth":${JSON.stringify(JSON.parse(LOGIN).claudeAiOauth)}}`);
    const config = t.put(".claude.json", '{\n\t"primaryApiKey" : "sk-ant-api03",\n\t"x": [1, {"y": "}"}]\n}\n');
    const plan = await planRuntimeDisconnect(claude, {}, t.ctx);
    expect(describeDisconnectPlan(plan, t.home)).toBe('remove "claudeAiOauth" from ~/.claude/.credentials.json and remove "primaryApiKey" from ~/.claude.json');
    await carryOutDisconnect(claude, plan, t.ctx);
    expect(readFileSync(credentials, "utf8")).toBe('{"mcpOAuth":{"a":{"accessToken":"m"}}}');
    expect(readFileSync(config, "utf8")).toBe('{\n\t"x": [1, {"y": "}"}]\n}\n');
    expect(await status.authStatus({}, t.ctx)).toEqual(NO);
  });

  it("edits a symlinked file's target and keeps the link", async () => {
    const t = makeDetection();
    const real = t.put("dotfiles/claude.json", '{"primaryApiKey":"k","theme":"dark"}');
    symlinkSync(real, join(t.home, ".claude.json"));
    await carryOutDisconnect(claude, await planRuntimeDisconnect(claude, {}, t.ctx), t.ctx);
    expect(readFileSync(real, "utf8")).toBe('{"theme":"dark"}');
    expect(readFileSync(join(t.home, ".claude.json"), "utf8")).toBe('{"theme":"dark"}');
  });

  it("refuses, naming the source and where it is removed, when something bosun does not remove signs Claude Code in", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ANTHROPIC_API_KEY: "sk" }, "removing the stored login would leave Claude Code signed in: ANTHROPIC_API_KEY is set in the environment; unset it to sign Claude Code out"],
      [{ CLAUDE_CODE_OAUTH_TOKEN: "t" }, "CLAUDE_CODE_OAUTH_TOKEN is set in the environment; unset it to sign Claude Code out"],
      [{ CLAUDE_CODE_USE_BEDROCK: "1" }, "CLAUDE_CODE_USE_BEDROCK is on, so Claude Code uses Bedrock's own login; sign out there, or unset CLAUDE_CODE_USE_BEDROCK"],
    ];
    for (const [vars, reason] of cases) {
      const t = makeDetection({ env: vars });
      const path = t.put(".claude/.credentials.json", LOGIN);
      await expect(planRuntimeDisconnect(claude, {}, t.ctx)).rejects.toThrow(`Claude Code: nothing to disconnect (${reason})`);
      expect(readFileSync(path, "utf8")).toBe(LOGIN);
    }
    const u = makeDetection();
    const settings = u.put(".claude/settings.json", '{"apiKeyHelper":"printf k"}');
    await expect(planRuntimeDisconnect(claude, {}, u.ctx)).rejects.toThrow(`Claude Code gets its key from the apiKeyHelper command in ${settings}; remove it there`);
    const v = makeDetection();
    v.put(".claude/.credentials.json", "{}");
    await expect(planRuntimeDisconnect(claude, {}, v.ctx)).rejects.toThrow("Claude Code: nothing to disconnect (no Claude Code credentials found)");
  });

  it("says the credentials were already gone when they vanished after the plan", async () => {
    const t = makeDetection();
    const path = t.put(".claude/.credentials.json", LOGIN);
    const plan = await planRuntimeDisconnect(claude, {}, t.ctx);
    await carryOutDisconnect(claude, plan, t.ctx);
    expect(await carryOutDisconnect(claude, plan, t.ctx)).toEqual({ agent: "claude", removed: false, mode: "external", authPath: path, message: "the credentials were already gone" });
  });
});

describe("removeJsonMember", () => {
  it("removes a first, middle, last or only member and every duplicate, keeping the rest of the text", () => {
    expect(removeJsonMember('{"a":1, "b":2, "c":3}', "a")).toBe('{"b":2, "c":3}');
    expect(removeJsonMember('{"a":1, "b":2, "c":3}', "b")).toBe('{"a":1, "c":3}');
    expect(removeJsonMember('{"a":1, "b":2, "c":3}\n', "c")).toBe('{"a":1, "b":2}\n');
    expect(removeJsonMember('{ "a": {"k": "]}"} }', "a")).toBe("{ }");
    expect(removeJsonMember('{"a":1,"b":2,"a":3}', "a")).toBe('{"b":2}');
    expect(removeJsonMember('{"a\\"":1,"b":2}', 'a"')).toBe('{"b":2}');
    expect(removeJsonMember('{"b":{"a":1}}', "a")).toBeUndefined();
    expect(() => removeJsonMember("[1]", "a")).toThrow(SyntaxError);
    expect(() => removeJsonMember("{bad", "a")).toThrow(SyntaxError);
  });
});
