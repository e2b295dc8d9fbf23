// The real `opencode auth list` is the judge of bosun's OpenCode sign-in detection: a generated
// matrix of credential states, each in its own temp home, run through both.
import { closeSync, openSync, readSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { opencode, OPENCODE_ENV_KEYS } from "../../src/runtimes/opencode.js";
import { readOpencodeStore } from "../../src/runtimes/opencode-credentials.js";
import type { AuthStatus, DetectionContext } from "../../src/runtimes/kit/types.js";
import { realCli, runRealCli, type RealCli } from "../fixtures/real-clis.js";
import { AUTH, FILES, opencodeStates } from "../fixtures/opencode-signin-states.js";
import { layOut, mapLimited, MATRIX_PARALLEL, stripAnsi, type CredentialState } from "../fixtures/signin-matrix.js";

const TIMEOUT_MS = 150_000;

/** What `opencode auth list` says: its stored credentials and the provider variables it sees. */
interface OpencodeVerdict {
  ran: boolean;
  /** The header's path (`~` for HOME, but a relative XDG_DATA_HOME shows as it is). */
  shownPath: string;
  credentials: number;
  variables: string[];
}

function parseAuthList(stdout: string): Omit<OpencodeVerdict, "ran"> {
  const lines = stripAnsi(stdout).split("\n");
  const count = lines.map((line) => /└\s+(\d+) credentials/.exec(line)).find(Boolean);
  const header = lines.map((line) => /┌\s+Credentials\s+(.*\S)/.exec(line)).find(Boolean);
  const envStart = lines.findIndex((line) => /┌\s+Environment/.test(line));
  const variables = envStart < 0 ? [] : lines.slice(envStart).flatMap((line) => /^●\s+.*\s(\S+)$/.exec(line)?.[1] ?? []);
  if (!count || !header) throw new Error(`opencode auth list printed no credentials block:\n${stdout}`);
  return { shownPath: header[1]!, credentials: Number(count[1]), variables };
}

async function authList(cli: RealCli, home: string, cwd: string, env: Env): Promise<OpencodeVerdict> {
  const run = await runRealCli(cli, ["auth", "list"], { home, cwd, env: { OPENCODE_DISABLE_MODELS_FETCH: "1", ...env }, timeoutMs: TIMEOUT_MS });
  if (run.timedOut) throw new Error(`opencode auth list timed out after ${TIMEOUT_MS} ms`);
  // OpenCode cannot start at all with some stored values (a `null` auth.json): no credential counts then.
  if (run.code !== 0) return { ran: false, shownPath: "", credentials: 0, variables: [] };
  return { ran: true, ...parseAuthList(run.stdout) };
}

interface Outcome {
  state: CredentialState;
  cli: OpencodeVerdict;
  bosun: AuthStatus;
  storedProviders: number | "broken";
  /** Where the CLI's header says its auth.json is, as the absolute paths it can stand for. */
  authPaths: string[];
}

/** Whether a variable's value is JSON (the state's input, not anyone's verdict). */
function parsesAsJson(value: string | undefined): boolean {
  if (!value) return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

function absolute(shown: string, home: string, cwd: string): string[] {
  if (shown.startsWith("/")) return [shown];
  return shown.startsWith("~/") ? [join(home, shown.slice(2)), resolve(cwd, shown)] : [resolve(cwd, shown)];
}

function bosunStored(ctx: DetectionContext): number | "broken" {
  const { stored } = readOpencodeStore(ctx);
  return "broken" in stored ? "broken" : stored.providers.length;
}

const MATRIX = opencodeStates();
let outcomes: Outcome[] = [];
let cli: RealCli;

beforeAll(async () => {
  cli = realCli("opencode");
  outcomes = await mapLimited(MATRIX, MATRIX_PARALLEL, async (state) => {
    const laid = layOut(state);
    const verdict = await authList(cli, laid.home, laid.cwd, state.env);
    const bosun = await opencode.status.authStatus({}, laid.ctx);
    return { state, cli: verdict, bosun, storedProviders: bosunStored(laid.ctx), authPaths: absolute(verdict.shownPath, laid.home, laid.cwd) };
  });
}, 20 * 60_000);

describe("OpenCode sign-in: bosun agrees with the real `opencode auth list`", () => {
  it("the matrix has at least 25 states, signed in and not", () => {
    expect(MATRIX.length).toBeGreaterThanOrEqual(25);
    expect(outcomes.some((o) => o.cli.credentials > 0)).toBe(true);
    expect(outcomes.some((o) => o.cli.variables.length > 0 && o.cli.credentials === 0)).toBe(true);
    expect(outcomes.some((o) => o.cli.ran && o.cli.credentials === 0 && o.cli.variables.length === 0)).toBe(true);
    expect(outcomes.some((o) => !o.cli.ran)).toBe(true);
  });

  it.each(MATRIX.map((state, index) => [state.name, index] as const))("%s", (_name, index) => {
    const { cli: verdict, bosun, storedProviders, authPaths, state } = outcomes[index]!;
    const signedIn = verdict.credentials > 0 || verdict.variables.length > 0;
    expect(bosun.connected, JSON.stringify({ verdict, bosun })).toBe(signedIn);
    if (!verdict.ran) {
      expect(storedProviders).toBe("broken");
      expect(bosun.error).toContain("holds null");
      return;
    }
    // The same stored credentials, counted as OpenCode counts them.
    expect(storedProviders).toBe(verdict.credentials);
    if (verdict.credentials > 0) {
      const inline = parsesAsJson(state.env.OPENCODE_AUTH_CONTENT);
      expect(bosun.mode).toBe(inline ? "env" : "external");
      expect(inline ? ["OPENCODE_AUTH_CONTENT"] : authPaths).toContain(bosun.authPath);
    } else if (verdict.variables.length > 0) {
      expect(bosun.mode).toBe("env");
      expect(verdict.variables).toContain(bosun.authPath);
    } else {
      expect(bosun.mode).toBe("");
      expect(authPaths).toContain(bosun.authPath);
    }
  });
});

/** Every `env:[…]` list of names in the binary: a superset of the catalogue's provider variables. */
function envNamesInBinary(bin: string): Set<string> {
  const names = new Set<string>();
  const fd = openSync(bin, "r");
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  const overlap = 64 * 1024;
  try {
    for (let position = 0; ; position += chunk.length - overlap) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read <= 0) break;
      for (const match of chunk.toString("latin1", 0, read).matchAll(/env:\[((?:"[A-Z0-9_]+",?)+)\]/g)) {
        for (const name of match[1]!.matchAll(/"([A-Z0-9_]+)"/g)) names.add(name[1]!);
      }
      if (read < chunk.length) break;
    }
  } finally {
    closeSync(fd);
  }
  return names;
}

describe("OpenCode's provider variables", () => {
  it("are exactly the ones the real CLI lists when every candidate is set", async () => {
    const candidates = new Set([...envNamesInBinary(realCli("opencode").bin), ...OPENCODE_ENV_KEYS, "GH_TOKEN", "XAI_KEY"]);
    const env: Env = Object.fromEntries([...candidates].map((name) => [name, "x"]));
    const laid = layOut({ name: "all variables", files: {}, env: {} });
    const verdict = await authList(realCli("opencode"), laid.home, laid.cwd, env);
    const listed = new Set(verdict.variables);
    const missing = [...listed].filter((name) => !OPENCODE_ENV_KEYS.includes(name)).sort();
    const extra = OPENCODE_ENV_KEYS.filter((name) => !listed.has(name));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  }, TIMEOUT_MS + 30_000);
});

describe("OpenCode disconnect", () => {
  it("runs what OpenCode runs for one stored credential, after which `opencode auth list` shows none", async () => {
    const oc = realCli("opencode");
    const laid = layOut({ name: "one api key", files: { [AUTH]: FILES.api! }, env: {} });
    laid.ctx.env.PATH = join(oc.bin, "..");
    const plan = await opencode.status.planDisconnect!({}, laid.ctx);
    expect(plan).toMatchObject({ action: "run-logout", args: ["auth", "logout", "anthropic"] });
    if (plan.action !== "run-logout") return;
    const logout = await runRealCli(oc, plan.args, { home: laid.home, cwd: laid.cwd, env: { OPENCODE_DISABLE_MODELS_FETCH: "1" }, timeoutMs: TIMEOUT_MS });
    expect(logout.code, stripAnsi(logout.stdout + logout.stderr)).toBe(0);
    expect((await authList(oc, laid.home, laid.cwd, {})).credentials).toBe(0);
    expect((await opencode.status.authStatus({}, laid.ctx)).connected).toBe(false);
  }, 3 * TIMEOUT_MS);
});
