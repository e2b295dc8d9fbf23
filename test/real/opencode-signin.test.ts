// The real `opencode auth list` is the judge of bosun's OpenCode sign-in detection: a generated
// matrix of credential states, each in its own temp home, run through both.
import { closeSync, openSync, readSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/boot/paths.js";
import { opencode, OPENCODE_ENV_KEYS } from "../../src/runtimes/opencode.js";
import { readOpencodeStore } from "../../src/runtimes/opencode-credentials.js";
import type { AuthStatus, DetectionContext } from "../../src/runtimes/types.js";
import { realCli, runRealCli, type RealCli } from "../fixtures/real-clis.js";
import { combinations, layOut, mapLimited, MATRIX_PARALLEL, stripAnsi, type CredentialState } from "../fixtures/signin-matrix.js";

const TIMEOUT_MS = 150_000;
const AUTH = ".local/share/opencode/auth.json";
// XDG_DATA_HOME is relative here (to the project folder OpenCode runs in), the "~/" one is taken literally.
const XDG_DATA_HOME = "xdg-data";
const XDG_AUTH = "project:xdg-data/opencode/auth.json";

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

const FILES: Record<string, string | undefined> = {
  none: undefined,
  api: '{"anthropic":{"type":"api","key":"sk-ant-test-1"}}',
  "api, empty key": '{"anthropic":{"type":"api","key":""}}',
  "api, metadata": '{"azure":{"type":"api","key":"k","metadata":{"resourceName":"r"}}}',
  "api, numeric metadata": '{"azure":{"type":"api","key":"k","metadata":{"n":1}}}',
  oauth: '{"openai":{"type":"oauth","refresh":"r","access":"a","expires":1764633600000,"accountId":"acct"}}',
  "oauth, no expires": '{"openai":{"type":"oauth","refresh":"r","access":"a"}}',
  "oauth, fractional expires": '{"openai":{"type":"oauth","refresh":"r","access":"a","expires":1.5}}',
  wellknown: '{"https://ai.example":{"type":"wellknown","key":"EXAMPLE_TOKEN","token":"t"}}',
  "wellknown, no token": '{"https://ai.example":{"type":"wellknown","key":"EXAMPLE_TOKEN"}}',
  "unknown type": '{"anthropic":{"type":"bearer","key":"k"}}',
  "legacy bosun fields": '{"anthropic":{"type":"oauth","access_token":"a","refresh_token":"r"}}',
  "two providers and junk": '{"anthropic":{"type":"api","key":"k"},"openai":{"type":"oauth","refresh":"r","access":"a","expires":0},"junk":5}',
  "invalid JSON": '{"anthropic":{"type":"api","key":"k"},}',
  "byte-order mark": '\uFEFF{"anthropic":{"type":"api","key":"k"}}',
  array: '[{"type":"api","key":"k"}]',
  null: "null",
  empty: "",
};

const ENVS: Record<string, Env> = {
  none: {},
  "ANTHROPIC_API_KEY": { ANTHROPIC_API_KEY: "sk-ant-test-2" },
  "empty ANTHROPIC_API_KEY": { ANTHROPIC_API_KEY: "" },
  "blank OPENROUTER_API_KEY": { OPENROUTER_API_KEY: " " },
  "AWS_REGION only": { AWS_REGION: "eu-west-1" },
  "GH_TOKEN only": { GH_TOKEN: "ghp-test" },
};

const CONTENTS: Record<string, string | undefined> = {
  unset: undefined,
  "one provider": '{"anthropic":{"type":"api","key":"sk-ant-test-3"}}',
  "unchecked entries": '{"x":{"type":"nonsense"},"y":1}',
  "{}": "{}",
  "not JSON": "{nope",
  null: "null",
};

/**
 * The matrix: every auth.json variant in the default folder, every third one under XDG_DATA_HOME
 * (with a decoy in the default folder), every variable and every OPENCODE_AUTH_CONTENT variant on
 * its own, then each variable paired with a content and a file, rotating.
 */
function states(): CredentialState[] {
  const out: CredentialState[] = [];
  const fileNames = Object.keys(FILES);
  const add = (file: string, where: "default" | "xdg", env: string, content: string) => {
    const files: Record<string, string> = {};
    const text = FILES[file];
    if (text !== undefined) files[where === "xdg" ? XDG_AUTH : AUTH] = text;
    const vars: Env = { ...ENVS[env] };
    if (where === "xdg") {
      vars.XDG_DATA_HOME = XDG_DATA_HOME;
      files[AUTH] = FILES.api!;
    }
    if (CONTENTS[content] !== undefined) vars.OPENCODE_AUTH_CONTENT = CONTENTS[content];
    out.push({ name: `auth.json ${file} (${where}), env ${env}, OPENCODE_AUTH_CONTENT ${content}`, files, env: vars });
  };
  for (const file of fileNames) add(file, "default", "none", "unset");
  for (const file of fileNames.filter((_, index) => index % 4 === 0)) add(file, "xdg", "none", "unset");
  out.push({ name: "XDG_DATA_HOME=~/xdg-data (OpenCode does not expand ~)", files: { "xdg-data/opencode/auth.json": FILES.api! }, env: { XDG_DATA_HOME: "~/xdg-data" } });
  for (const env of Object.keys(ENVS).slice(1)) add("none", "default", env, "unset");
  for (const content of Object.keys(CONTENTS).slice(1)) add("api", "default", "none", content);
  for (const [index, { env, content }] of combinations({ env: Object.keys(ENVS).slice(1), content: ["one provider", "{}", "not JSON"] }).entries()) {
    if (index % 4 === 0) add(["none", "api", "invalid JSON"][index % 3]!, "default", env, content);
  }
  return out;
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

const MATRIX = states();
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
