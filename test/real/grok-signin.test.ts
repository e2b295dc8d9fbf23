// The real npm `grok` (@vibe-kit/grok-cli) is the judge of bosun's Grok sign-in detection: a
// generated matrix of credential states, each in its own temp home, run through both. grok has
// no status command, so its verdict is whether `grok -p` passes its key check; which source won
// is the key it then sends (to a mock on loopback inside its own network namespace).
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { reportRuntime, type AgentReport } from "../../src/runtimes/collect-status.js";
import { grok } from "../../src/runtimes/grok.js";
import type { AuthStatus } from "../../src/runtimes/kit/types.js";
import { grokPrompt, type GrokPromptVerdict } from "../fixtures/grok-key-probe.js";
import { realCli, type RealCli } from "../fixtures/real-clis.js";
import { grokStates, KEYS, SETTINGS } from "../fixtures/grok-signin-states.js";
import { layOut, mapLimited, MATRIX_PARALLEL, type CredentialState } from "../fixtures/signin-matrix.js";

const TIMEOUT_MS = 150_000;

interface Outcome {
  state: CredentialState;
  cli: GrokPromptVerdict;
  bosun: AuthStatus;
  report: AgentReport;
  dotenvPath: string;
  settingsPath: string;
}

const MATRIX = grokStates();
let outcomes: Outcome[] = [];
let cli: RealCli;

beforeAll(async () => {
  cli = realCli("grok");
  outcomes = await mapLimited(MATRIX, MATRIX_PARALLEL, async (item) => {
    const laid = layOut(item);
    laid.ctx.env.PATH = dirname(cli.bin);
    // bosun looks first: grok rewrites its settings (and writes the project's) as it runs.
    const bosun = await grok.status.authStatus({}, laid.ctx);
    const report = await reportRuntime(grok, {}, laid.ctx);
    const verdict = await grokPrompt(cli, { home: laid.home, cwd: laid.cwd, env: item.env, timeoutMs: TIMEOUT_MS });
    return { state: item, cli: verdict, bosun, report, dotenvPath: join(laid.cwd, ".env"), settingsPath: join(laid.home, SETTINGS) };
  });
}, 20 * 60_000);

describe("Grok (npm @vibe-kit/grok-cli) sign-in: bosun agrees with the real `grok -p`", () => {
  it("the matrix has at least 25 states, signed in and not", () => {
    expect(MATRIX.length).toBeGreaterThanOrEqual(25);
    expect(outcomes.some((o) => o.cli.keyRequired)).toBe(true);
    for (const key of Object.values(KEYS)) expect(outcomes.some((o) => o.cli.sentKey === key), key).toBe(true);
  });

  it.each(MATRIX.map((item, index) => [item.name, index] as const))("%s", (_name, index) => {
    const { cli: verdict, bosun, report, dotenvPath, settingsPath } = outcomes[index]!;
    expect(report).toMatchObject({ variant: "vibe-kit-grok-cli", installed: true });
    const started = verdict.code === 0 || verdict.sentKey !== undefined;
    expect(bosun.connected, JSON.stringify({ bosun, code: verdict.code, sentKey: verdict.sentKey })).toBe(!verdict.keyRequired && started);
    if (verdict.keyRequired) {
      expect(verdict.code).toBe(1);
      expect(bosun).toEqual({ connected: false, mode: "", authPath: settingsPath });
      return;
    }
    // grok did not start at all (a dotenv vault it cannot decrypt): not signed in, and bosun says why.
    if (verdict.code !== 0 && verdict.sentKey === undefined) {
      expect(bosun.connected).toBe(false);
      expect(bosun.error).toContain(".env.vault");
      return;
    }
    // Past the check grok exits 0 even though the model answered 401; the key it sent names the source.
    expect(verdict.code, verdict.output).toBe(0);
    const source = verdict.sentKey === KEYS.env ? "env" : verdict.sentKey === KEYS.dotenv ? "dotenv" : "settings";
    if (source === "env") expect(bosun).toEqual({ connected: true, mode: "env", authPath: "GROK_API_KEY" });
    if (source === "dotenv") expect(bosun).toEqual({ connected: true, mode: "external", authPath: dotenvPath });
    if (source === "settings") expect(bosun).toEqual({ connected: true, mode: "external", authPath: settingsPath });
  });
});

describe("grok --api-key", () => {
  it("is saved to ~/.grok/user-settings.json, where bosun then finds it", async () => {
    const grokCli = realCli("grok");
    const laid = layOut({ name: "--api-key", files: {}, env: {} });
    laid.ctx.env.PATH = dirname(grokCli.bin);
    expect((await grok.status.authStatus({}, laid.ctx)).connected).toBe(false);
    const { runRealCli } = await import("../fixtures/real-clis.js");
    const run = await runRealCli(grokCli, ["-k", "xai-test-flag", "-p", "hi"], { home: laid.home, cwd: laid.cwd, timeoutMs: TIMEOUT_MS });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await grok.status.authStatus({}, laid.ctx)).toEqual({ connected: true, mode: "external", authPath: join(laid.home, SETTINGS) });
    const again = await grokPrompt(grokCli, { home: laid.home, cwd: laid.cwd, env: {}, timeoutMs: TIMEOUT_MS });
    expect(again.sentKey).toBe("xai-test-flag");
  }, 3 * TIMEOUT_MS);
});
