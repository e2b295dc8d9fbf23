import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { claude } from "../../src/runtimes/claude.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import { carryOutDisconnect, planRuntimeDisconnect } from "../../src/runtimes/kit/disconnect.js";
import type { AuthStatus, DetectionContext } from "../../src/runtimes/kit/types.js";
import { claudeStates, plantClaudeState, type ClaudeState } from "../fixtures/claude-signin-states.js";
import { runBinAsync } from "../fixtures/cli.js";
import { realCli, runRealCli, type RealCli } from "../fixtures/real-clis.js";
import { makeTempHome } from "../fixtures/temp-home.js";
import { mapLimited } from "../fixtures/signin-matrix.js";

const RUN_TIMEOUT_MS = 90_000;
const PARALLEL = 3;

/** What `claude auth status` said: its exit code, its JSON, and (when the JSON does not name the source) its text view. */
interface Verdict {
  code: number | null;
  json: { loggedIn: boolean; authMethod: string; apiProvider: string; apiKeySource?: string };
  text: string;
}

async function authStatus(cli: RealCli, home: string, env: Env): Promise<Verdict> {
  const options = { home, env, cwd: join(home, "proj"), timeoutMs: RUN_TIMEOUT_MS };
  const run = await runRealCli(cli, ["auth", "status"], options);
  expect(run.timedOut, "claude auth status timed out").toBe(false);
  const json = JSON.parse(run.stdout) as Verdict["json"];
  // The JSON says "oauth_token" or "claude.ai" for several sources; the text view names which.
  const needsText = json.authMethod === "oauth_token" || (json.authMethod === "claude.ai" && json.apiKeySource === "/login managed key");
  const text = needsText ? (await runRealCli(cli, ["auth", "status", "--text"], options)).stdout : "";
  return { code: run.code, json, text };
}

// The variable that turns each provider on, by the name the CLI gives the provider.
const PROVIDER_VARIABLE: Record<string, string> = {
  bedrock: "CLAUDE_CODE_USE_BEDROCK",
  vertex: "CLAUDE_CODE_USE_VERTEX",
  foundry: "CLAUDE_CODE_USE_FOUNDRY",
  anthropicAws: "CLAUDE_CODE_USE_ANTHROPIC_AWS",
  mantle: "CLAUDE_CODE_USE_MANTLE",
  gateway: "CLAUDE_CODE_USE_GATEWAY",
};

/**
 * The CLI's verdict in bosun's terms: signed in or not, and the source it named (a variable, or
 * the one file of that kind the state planted).
 */
function expectedAuth(verdict: Verdict, state: ClaudeState, home: string): AuthStatus {
  const { json, text } = verdict;
  if (verdict.code !== 0) return { connected: false, mode: "", authPath: "" };
  const planted = (kind: keyof ClaudeState["planted"]): AuthStatus => {
    const path = state.planted[kind];
    if (!path) throw new Error(`the CLI named a ${kind} source the state did not plant (${JSON.stringify(json)} ${text})`);
    return { connected: true, mode: "external", authPath: join(home, path) };
  };
  const env = (name: string): AuthStatus => ({ connected: true, mode: "env", authPath: name });
  switch (json.authMethod) {
    case "third_party":
      return env(PROVIDER_VARIABLE[json.apiProvider]!);
    case "api_key":
      return env(json.apiKeySource!);
    case "api_key_helper":
      return planted("helper");
    case "oauth_token": {
      const token = /^Auth token: (\w+)$/m.exec(text);
      if (token) return env(token[1]!);
      if (/^Profile: env-quad/m.test(text)) return env("ANTHROPIC_FEDERATION_RULE_ID");
      if (/^Profile: credentials-file/m.test(text)) return planted("profile");
      throw new Error(`unknown oauth_token source: ${text}`);
    }
    case "claude.ai":
      return json.apiKeySource === "/login managed key" && !/^(Login method:|Auth token: claude\.ai)/m.test(text) ? planted("globalConfig") : planted("credentials");
    default:
      throw new Error(`unknown authMethod ${json.authMethod}`);
  }
}

function detectionContext(home: string, env: Env): DetectionContext {
  return {
    env: { HOME: home, PATH: "/usr/bin:/bin", ...env },
    home,
    cwd: join(home, "proj"),
    dataDir: join(home, ".bosun-data"),
    files: nodeFileReader,
    probeSocket: async () => false,
  };
}

describe("Claude Code sign-in: bosun agrees with the real `claude auth status`", () => {
  const states = claudeStates(8);

  it(`has a generated matrix of ${states.length} credential states`, () => {
    expect(states.length).toBeGreaterThanOrEqual(25);
    expect(new Set(states.map((state) => state.name)).size).toBe(states.length);
  });

  it("agrees on signed in or not, and on the source, in every state", async () => {
    const cli = realCli("claude");
    const outcomes = await mapLimited(states, PARALLEL, async (state) => {
      const t = makeTempHome();
      const env = plantClaudeState(state, t.home);
      const verdict = await authStatus(cli, t.home, env);
      const bosun = await claude.status.authStatus({}, detectionContext(t.home, env));
      const outcome = { state: state.name, cli: expectedAuth(verdict, state, t.home), bosun, agents: bosun };
      // A few states end to end: `bosun agents --json` from the built bin, in the project folder.
      if (states.indexOf(state) % 9 === 0) {
        const run = await runBinAsync(["agents", "--json"], { ...t.env, ...env }, { cwd: join(t.home, "proj"), timeoutMs: RUN_TIMEOUT_MS });
        expect(run.code, run.stderr).toBe(0);
        outcome.agents = (JSON.parse(run.stdout) as { agents: { id: string; auth: AuthStatus }[] }).agents.find((agent) => agent.id === "claude")!.auth;
      }
      return outcome;
    });
    const disagreements = outcomes.filter((outcome) => JSON.stringify(outcome.cli) !== JSON.stringify(outcome.bosun) || JSON.stringify(outcome.cli) !== JSON.stringify(outcome.agents));
    expect(disagreements).toEqual([]);
    // The matrix covers both verdicts and every kind of source.
    const kinds = new Set(outcomes.map((outcome) => (outcome.cli.connected ? `${outcome.cli.mode}` : "no")));
    expect([...kinds].sort()).toEqual(["env", "external", "no"]);
  }, 900_000);
});

describe("Claude Code disconnect, checked with the real CLI", () => {
  it("takes out exactly the stored login and /login's key: claude is signed out, every other byte is kept", async () => {
    const cli = realCli("claude");
    const t = makeTempHome();
    const credentials = '{\n  "mcpOAuth": {"server|1": {"accessToken": "mcp-token"}},\n  "claudeAiOauth": {"accessToken": "sk-ant-oat01-test-x", "scopes": ["user:inference"]}\n}\n';
    const config = '{\n  "numStartups": 4,\n  "primaryApiKey": "sk-ant-api03-test-x",\n  "projects": {"/p": {"allowedTools": []}},\n  "oauthAccount": {"emailAddress": "me@example.com"}\n}\n';
    const env = plantClaudeState({ name: "both", env: {}, files: { ".claude/.credentials.json": credentials, ".claude.json": config }, planted: {} }, t.home);
    const ctx = detectionContext(t.home, env);
    expect((await authStatus(cli, t.home, env)).code).toBe(0);
    // The CLI rewrites .claude.json itself (its own formatting, new keys): compare with what it left.
    const configBefore = readFileSync(join(t.home, ".claude.json"), "utf8");
    expect(configBefore).toMatch(/^ {2}"primaryApiKey": "sk-ant-api03-test-x",\n/m);
    const plan = await planRuntimeDisconnect(claude, {}, ctx);
    const outcome = await carryOutDisconnect(claude, plan, ctx);
    expect(outcome).toEqual({ agent: "claude", removed: true, mode: "external", authPath: join(t.home, ".claude/.credentials.json") });
    expect(readFileSync(join(t.home, ".claude/.credentials.json"), "utf8")).toBe('{\n  "mcpOAuth": {"server|1": {"accessToken": "mcp-token"}}\n}\n');
    expect(readFileSync(join(t.home, ".claude.json"), "utf8")).toBe(configBefore.replace('  "primaryApiKey": "sk-ant-api03-test-x",\n', ""));
    const after = await authStatus(cli, t.home, env);
    expect(after.code).toBe(1);
    expect(after.json.loggedIn).toBe(false);
    expect(await claude.status.authStatus({}, ctx)).toEqual({ connected: false, mode: "", authPath: "" });
  }, 300_000);

  it("deletes a credentials file that holds only the login, in $CLAUDE_CONFIG_DIR, and leaves ~/.claude alone", async () => {
    const cli = realCli("claude");
    const t = makeTempHome();
    const login = JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat01-test-y", scopes: ["user:inference"] } });
    const env = plantClaudeState({ name: "cfg", env: { CLAUDE_CONFIG_DIR: "$H/cfg" }, files: { "cfg/.credentials.json": login, ".claude/.credentials.json": login }, planted: {} }, t.home);
    const ctx = detectionContext(t.home, env);
    await carryOutDisconnect(claude, await planRuntimeDisconnect(claude, {}, ctx), ctx);
    expect(existsSync(join(t.home, "cfg/.credentials.json"))).toBe(false);
    expect(readFileSync(join(t.home, ".claude/.credentials.json"), "utf8")).toBe(login);
    expect((await authStatus(cli, t.home, env)).code).toBe(1);
  }, 300_000);
});
