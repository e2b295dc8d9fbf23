// Differential test: for each generated credential state, the real Codex 0.171 CLI says whether it
// is signed in (and from what); bosun's detection must say the same. The CLI is the only oracle.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { codex } from "../../src/runtimes/codex.js";
import { codexSignIn, type CodexSignIn } from "../../src/runtimes/codex-signin.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import type { DetectionContext } from "../../src/runtimes/kit/types.js";
import { runBinAsync } from "../fixtures/cli.js";
import { ALL_FAKE_SECRETS, codexStates, codexVerdict, FAKE, materialize, written, type CodexState, type CodexVerdict, type MaterializedState } from "../fixtures/codex-signin-states.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { mapLimited } from "../fixtures/signin-matrix.js";

const cli = realCli("codex");
// Each state's temp home holds what Codex wrote there (a `codex exec` leaves about 2 MB); removing them all takes a while on a busy machine.
vi.setConfig({ hookTimeout: 60_000 });
const PARALLEL = 4;

/** Leaks of 8 characters or more of any fake secret (Codex itself prints 8 + 5 of a key). */
function leaks(text: string): string[] {
  return ALL_FAKE_SECRETS.filter((secret) => [...Array(secret.length - 7).keys()].some((i) => text.includes(secret.slice(i, i + 8))));
}

function detectionContext(s: MaterializedState): DetectionContext {
  return { env: { HOME: s.home, ...s.env }, home: s.home, cwd: s.cwd, dataDir: s.dataDir, files: nodeFileReader, probeSocket: async () => false };
}

function sameAnswer(bosun: CodexSignIn, cli: CodexVerdict): boolean {
  if (bosun.signedIn !== cli.signedIn) return false;
  if (bosun.signedIn) return bosun.source === cli.source && bosun.method === cli.method;
  // Where Codex stops with an error, bosun reports one too (not a plain "not signed in").
  return !cli.failed || bosun.problem !== undefined;
}

function describeBosun(found: CodexSignIn): string {
  return found.signedIn ? `signed in (${found.source}, ${found.method})` : found.problem ? `not signed in: ${found.problem}` : "not signed in";
}

function describeCli(verdict: CodexVerdict): string {
  return verdict.signedIn ? `signed in (${verdict.source}, ${verdict.method})` : verdict.failed ? "not signed in (error)" : "not signed in";
}

function inState(state: CodexState): { t: TempHome; s: MaterializedState } {
  const t = makeTempHome();
  return { t, s: materialize(state, t.root, t.home, t.paths.data) };
}

beforeAll(async () => {
  // The file exactly as Codex writes it for an API key.
  const t = makeTempHome();
  const run = await runRealCli(cli, ["login", "--with-api-key"], { home: t.home, input: FAKE.fileKey, timeoutMs: 30_000 });
  expect(run.code, "codex login --with-api-key").toBe(0);
  written.apiKeyLogin = readFileSync(join(t.home, ".codex", "auth.json"), "utf8");
}, 60_000);

describe(`bosun agrees with the real ${cli.id} ${cli.version} on who is signed in`, () => {
  const states = codexStates();

  it("the matrix is large and covers every kind of source", () => {
    expect(states.length).toBeGreaterThanOrEqual(25);
    expect(new Set(states.map((state) => state.name)).size).toBe(states.length);
  });

  it(
    "on every generated state: signed in or not, the kind of source and the login method",
    async () => {
      const rows = await mapLimited(states, PARALLEL, async (state) => {
        const { s } = inState(state);
        const ctx = detectionContext(s);
        // bosun looks first: `codex exec` logs out of a key that forced_login_method refuses.
        const bosun = await codexSignIn(ctx);
        const auth = await codex.status.authStatus({}, ctx);
        const plan = await codex.status.planDisconnect!({}, ctx);
        const verdict = await codexVerdict(cli, s);
        return { state, bosun, auth, plan, verdict };
      });
      const disagreements = rows.filter((row) => !sameAnswer(row.bosun, row.verdict)).map((row) => `${row.state.name}: codex ${describeCli(row.verdict)}, bosun ${describeBosun(row.bosun)}`);
      expect(disagreements).toEqual([]);
      // What `bosun agents` shows follows the verdict: the mode names the source, authPath the env var's name or the file.
      for (const { state, bosun, auth, plan } of rows) {
        const mode = bosun.signedIn ? { env: "env", file: "external", plugin: "plugin" }[bosun.source] : "";
        expect(auth, state.name).toMatchObject({ connected: bosun.signedIn, mode });
        if (bosun.signedIn && bosun.source === "env") expect(auth.authPath).toBe("CODEX_API_KEY");
        expect(leaks(JSON.stringify([auth, plan])), state.name).toEqual([]);
      }
      // Every kind of verdict occurs, so the matrix really exercises each of them.
      const kinds = new Set(rows.map(({ verdict }) => describeCli(verdict)));
      for (const kind of ["signed in (file, api-key)", "signed in (file, chatgpt)", "signed in (env, api-key)", "signed in (plugin, chatgpt)", "not signed in", "not signed in (error)"]) expect(kinds).toContain(kind);
    },
    300_000,
  );

  it.each([
    "auth.json written by codex login --with-api-key",
    "CODEX_API_KEY, auth.json API key only",
    "bosun's login alone",
    "config.toml does not parse, auth.json API key only",
    "config.toml store keyring, auth.json API key only",
  ])("bosun agents --json agrees with codex: %s", async (name) => {
    const state = states.find((candidate) => candidate.name === name)!;
    const { t, s } = inState(state);
    const run = await runBinAsync(["agents", "--json"], { ...t.env, ...s.env }, { cwd: s.cwd, timeoutMs: 20_000 });
    expect(run.code, run.stderr).toBe(0);
    const report = (JSON.parse(run.stdout) as { agents: { id: string; auth: { connected: boolean; mode: string; error?: string } }[] }).agents.find((agent) => agent.id === "codex")!;
    const verdict = await codexVerdict(cli, s);
    expect(report.auth.connected).toBe(verdict.signedIn);
    expect(report.auth.mode).toBe(verdict.signedIn ? { env: "env", file: "external", plugin: "plugin" }[verdict.source!] : "");
    if (verdict.failed) expect(report.auth.error).toBeTruthy();
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
  }, 60_000);
});

describe("bosun agents disconnect codex against the real CLI", () => {
  async function signedInNow(t: TempHome, env: Record<string, string>): Promise<string> {
    const run = await runRealCli(cli, ["login", "status"], { home: t.home, env, timeoutMs: 30_000 });
    return run.code === 0 ? "signed in" : (run.stdout + run.stderr).trim();
  }

  it("removes the auth.json `codex login --with-api-key` wrote, and nothing else in CODEX_HOME", async () => {
    const t = makeTempHome();
    const codexHome = join(t.root, "codex-home");
    const env = { CODEX_HOME: codexHome };
    t.write(join(codexHome, "config.toml"), 'model = "gpt-5"\n');
    t.write(join(codexHome, "AGENTS.md"), "be brief\n");
    const login = await runRealCli(cli, ["login", "--with-api-key"], { home: t.home, env, input: FAKE.fileKey, timeoutMs: 30_000 });
    expect(login.code).toBe(0);
    expect(await signedInNow(t, env)).toBe("signed in");
    const before = snapshotTree(codexHome);

    const run = await runBinAsync(["agents", "disconnect", "codex", "--yes"], { ...t.env, ...env }, { timeoutMs: 20_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Disconnected OpenAI Codex CLI");
    const after = snapshotTree(codexHome);
    const except = (tree: Record<string, string>, ...paths: string[]) => Object.fromEntries(Object.entries(tree).filter(([path]) => !paths.includes(path)));
    expect(except(after, ".")).toEqual(except(before, ".", "auth.json"));
    expect(await signedInNow(t, env)).toBe("Not logged in");
  }, 60_000);

  it("removes bosun's own login and leaves Codex's folder alone when Codex itself is not signed in", async () => {
    const t = makeTempHome();
    const { s } = { s: materialize({ name: "bosun's login alone", home: "default", plugin: "bosun login", config: "store file" }, t.root, t.home, t.paths.data) };
    const before = snapshotTree(s.codexDir);
    const run = await runBinAsync(["agents", "disconnect", "codex", "--yes"], { ...t.env, ...s.env }, { timeoutMs: 20_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(s.pluginDir, "auth.json"))).toBe(false);
    expect(snapshotTree(s.codexDir)).toEqual(before);
    expect(await signedInNow(t, { CODEX_HOME: s.pluginDir })).toBe("Not logged in");
  }, 60_000);

  it.each([
    ["CODEX_API_KEY, auth.json API key only", /uses the key in CODEX_API_KEY; unset it/],
    ["config.toml store keyring, auth.json API key only", /system keyring/],
    ["auth.json invalid JSON", /not a login Codex can read: it is not valid JSON/],
    ["nothing at all", /no Codex credentials found/],
  ])("says why it cannot, and changes nothing: %s", async (name, why) => {
    const state = codexStates().find((candidate) => candidate.name === name)!;
    const { t, s } = inState(state);
    const before = snapshotTree(t.root);
    const run = await runBinAsync(["agents", "disconnect", "codex", "--yes"], { ...t.env, ...s.env }, { cwd: s.cwd, timeoutMs: 20_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(why);
    expect(leaks(run.stderr + run.stdout)).toEqual([]);
    const after = snapshotTree(t.root);
    // bosun's own start writes its log and state; Codex's folder and the rest stay as they were.
    const outsideBosun = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([path]) => !path.startsWith("home/.local/") && !path.startsWith("home/.config/") && !path.startsWith("home/.cache/") && path !== "home" && path !== "."));
    expect(outsideBosun(after)).toEqual(outsideBosun(before));
  }, 60_000);
});
