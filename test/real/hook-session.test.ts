import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { bodyStrings, runRealCliWithModelServer, trustCodexHooks, type ModelRequest } from "../fixtures/real-clis-loopback.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

// Each CLI's session runs in its own temp home: `bosun install` (bosun's own pack, global scope),
// `bosun status` once, then the real CLI offline. The line must be the summary bosun status
// printed, never the helper's fallback. The tests run one after another: a temp home is removed
// after each test, so tests sharing the file cannot overlap.
const SESSION_TIMEOUT_MS = 120_000;

interface Installed {
  t: TempHome;
  project: string;
  summary: string;
}

function installBosun(runtime: string): Installed {
  const t = makeTempHome();
  const project = join(t.home, "project");
  mkdirSync(project);
  const install = runBin(["install", "--runtime", runtime, "--scope", "global", "--yes"], t.env, t.home);
  expect(install.code, install.stderr).toBe(0);
  const status = runBin(["status", "--json"], t.env, t.home);
  expect(status.code, status.stderr).toBe(0);
  const summary: string = JSON.parse(status.stdout).summary;
  expect(summary).toMatch(/^bosun \d+\.\d+\.\d+: \d+ of 8 agents signed in/);
  expect(summary).not.toContain("not cached");
  return { t, project, summary };
}

function sentToModel(requests: ModelRequest[], line: string): boolean {
  return requests.some((request) => bodyStrings(request).some((text) => text.includes(line)));
}

/** `codex exec hello` with a custom provider pointed at the loopback model server: the requests it sent. */
async function codexExec(t: TempHome, project: string): Promise<ModelRequest[]> {
  const provider = 'model_providers.loopback={name="loopback",base_url="{model-base}/v1",env_key="LOOPBACK_KEY",wire_api="responses",request_max_retries=0,stream_max_retries=0}';
  const args = ["exec", "--skip-git-repo-check", "--json", "-c", "model_provider=loopback", "-c", provider, "hello"];
  const { run, requests } = await runRealCliWithModelServer(realCli("codex"), args, { home: t.home, cwd: project, env: { LOOPBACK_KEY: "sk-test-hook-session-0000" }, timeoutMs: SESSION_TIMEOUT_MS });
  expect(run.timedOut).toBe(false);
  expect(requests.length, run.stdout + run.stderr).toBeGreaterThan(0);
  return requests;
}

describe("a real session right after bosun install shows bosun's summary line", () => {
  it("claude: the SessionStart hook answers with the line, and the model gets it", { timeout: 4 * SESSION_TIMEOUT_MS }, async () => {
    const cli = realCli("claude");
    const { t, project, summary } = installBosun("claude");
    const quiet = { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" };
    const session = await runRealCli(cli, ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "x"], { home: t.home, cwd: project, env: quiet, timeoutMs: SESSION_TIMEOUT_MS });
    expect(session.timedOut).toBe(false);
    const events = session.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
    const responses = events.filter((event) => event.type === "system" && event.subtype === "hook_response" && event.hook_event === "SessionStart");
    expect(responses.map(({ stdout, exit_code, outcome }) => ({ stdout, exit_code, outcome }))).toEqual([{ stdout: `${summary}\n`, exit_code: 0, outcome: "success" }]);

    const { run, requests } = await runRealCliWithModelServer(cli, ["-p", "x"], {
      home: t.home,
      cwd: project,
      env: { ...quiet, ANTHROPIC_API_KEY: "sk-ant-test-hook-session-0000", ANTHROPIC_BASE_URL: "{model-base}", CLAUDE_CODE_MAX_RETRIES: "0" },
      timeoutMs: SESSION_TIMEOUT_MS,
    });
    expect(run.timedOut).toBe(false);
    expect(requests.length, run.stderr).toBeGreaterThan(0);
    expect(sentToModel(requests, summary)).toBe(true);
  });

  it("codex: once the user trusted the hook, its plain line is in the request to the model", { timeout: 4 * SESSION_TIMEOUT_MS }, async () => {
    const cli = realCli("codex");
    const { t, project, summary } = installBosun("codex");
    const hooks = await trustCodexHooks(cli, { home: t.home, cwd: project, timeoutMs: SESSION_TIMEOUT_MS }, project);
    expect(hooks.filter((hook) => hook.command.includes("bosun-hook.mjs")).map((hook) => hook.trustStatus)).toEqual(["trusted"]);
    expect(sentToModel(await codexExec(t, project), summary)).toBe(true);
  });

  it("codex: an untrusted hook does not run (what the README tells the user to do first)", { timeout: 4 * SESSION_TIMEOUT_MS }, async () => {
    const { t, project, summary } = installBosun("codex");
    expect(sentToModel(await codexExec(t, project), summary)).toBe(false);
  });

  it("gemini: the line reaches the model as additionalContext (JSON output), not only the user's screen", { timeout: 4 * SESSION_TIMEOUT_MS }, async () => {
    const cli = realCli("gemini");
    const { t, project, summary } = installBosun("gemini");
    // A Gemini API key user's settings: bosun's hook beside the auth type.
    const settingsFile = join(t.home, ".gemini", "settings.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toMatch(/ --format json session-start$/);
    writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { auth: { selectedType: "gemini-api-key" } } }, null, 2));
    const { run, requests } = await runRealCliWithModelServer(cli, ["-p", "hello", "-o", "json"], {
      home: t.home,
      cwd: project,
      env: { GEMINI_API_KEY: "test-hook-session-0000", GOOGLE_GEMINI_BASE_URL: "{model-base}", GEMINI_CLI_TRUST_WORKSPACE: "true" },
      timeoutMs: SESSION_TIMEOUT_MS,
    });
    expect(run.timedOut).toBe(false);
    expect(requests.length, run.stderr).toBeGreaterThan(0);
    expect(sentToModel(requests, summary)).toBe(true);
    // What the helper prints is JSON for Gemini to read, not text for the user's screen.
    expect(run.stdout).not.toContain("hookSpecificOutput");
  });
});
