import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kernel/package-info.js";
import { runBinAsync, runCli, type CliResult } from "../fixtures/cli.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { APPROVED, DEVICE_AUTH_ID, startOAuthServer, USER_CODE } from "../fixtures/oauth-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const KEY = "sk-folder-test-0123456789";

function withModel(t: TempHome, env: Record<string, string | undefined> = t.env): Record<string, string | undefined> {
  return {
    ...env,
    BOSUN_DISABLE_MODELS_FETCH: "1",
    SCRIPTED_API_KEY: "sk-scripted-key-0123456789",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
}

async function withModelsServer(env: Record<string, string | undefined>): Promise<Record<string, string | undefined>> {
  const server = await startModelsServer(readFileSync(join(packageRoot(), "assets", "providers.json"), "utf8"));
  closers.push(() => server.close());
  return { ...env, BOSUN_DISABLE_MODELS_FETCH: "", BOSUN_MODELS_URL: server.url };
}

/** The env for `agents login codex` against a local OAuth server, and the requests it got. */
async function withOAuthServer(env: Record<string, string | undefined>): Promise<[Record<string, string | undefined>, unknown[]]> {
  const server = await startOAuthServer({ usercode: { status: 200, body: { device_auth_id: DEVICE_AUTH_ID, user_code: USER_CODE, interval: 1 } }, token: APPROVED });
  closers.push(() => server.close());
  return [{ ...env, BOSUN_CODEX_AUTH_BASE: server.base }, server.requests];
}

/** A user error: exit 1 and exactly one line on stderr. */
function expectOneLine(result: CliResult, line: string): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: `bosun: ${line}\n` });
}

describe("a data, cache or state folder that is a file", () => {
  it("bosun auth set, run and agents login (before anyone signs in) say so in one line naming the folder and the fix, and write nothing", async () => {
    const t = makeTempHome();
    const data = t.write(t.paths.data, "not a folder");
    const line = `${data} is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME or BOSUN_HOME`;
    const env = withModel(t);
    const before = snapshotTree(t.root);
    expectOneLine(await runCli(["auth", "set", "openai"], env, t.home, KEY), line);
    expect(snapshotTree(t.root)).toEqual(before);

    expectOneLine(await runCli(["run", "hello"], env, t.home), line);
    expect(llm.requests).toEqual([]);

    // Before the user is asked to sign in: the login could not be saved.
    const [loginEnv, requests] = await withOAuthServer(env);
    expectOneLine(await runCli(["agents", "login", "codex", "--json"], loginEnv, t.home), line);
    expect(requests).toEqual([]);
  }, 60_000);

  it("bosun models refresh names the cache or state folder", async () => {
    const t = makeTempHome();
    const cache = t.write(t.paths.cache, "");
    expectOneLine(await runCli(["models", "refresh"], await withModelsServer(t.env), t.home), `${cache} is a file, not a folder: move it away, or choose another folder with XDG_CACHE_HOME or BOSUN_HOME`);

    const u = makeTempHome();
    const state = u.write(u.paths.state, "");
    expectOneLine(await runCli(["models", "refresh"], await withModelsServer(u.env), u.home), `${state} is a file, not a folder: move it away, or choose another folder with XDG_STATE_HOME or BOSUN_HOME`);
  });

  it("bosun status shows each unusable folder (state attention, with the fix) and still exits 0", async () => {
    const t = makeTempHome();
    const data = t.write(t.paths.data, "");
    const state = t.write(t.paths.state, "");
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" };
    const json = await runCli(["status", "--json"], env, t.home);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.subsystems.folders).toEqual({
      state: "attention",
      detail: "bosun cannot write the data and state folders",
      problems: [
        { folder: "data", path: data, at: data, problem: "file", message: `${data} is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME or BOSUN_HOME` },
        { folder: "state", path: state, at: state, problem: "file", message: `${state} is a file, not a folder: move it away, or choose another folder with XDG_STATE_HOME or BOSUN_HOME` },
      ],
    });
    expect(report.next[0]).toBe(`fix the data and state folders: ${data} is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME or BOSUN_HOME`);
    expect(report.summary).toContain("cannot write the data and state folders");

    const screen = await runCli(["status"], env, t.home);
    expect(screen.code).toBe(0);
    expect(screen.stdout).toContain("Folders  bosun cannot write the data and state folders\n");
    expect(screen.stdout).toContain("  data   ~/.local/share/bosun is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME or BOSUN_HOME\n");
    expect(screen.stdout).toContain("  state  ~/.local/state/bosun is a file, not a folder: move it away, or choose another folder with XDG_STATE_HOME or BOSUN_HOME\n");

    const healthy = JSON.parse((await runCli(["status", "--json"], { ...makeTempHome().env, BOSUN_DISABLE_MODELS_FETCH: "1" })).stdout);
    expect(healthy.subsystems.folders).toEqual({ state: "ready", detail: "config, data, cache and state can be written", problems: [] });
  });
});

describe("a folder under a file (ENOTDIR)", () => {
  it("names the file in the way and every variable that moves a folder under it", async () => {
    const t = makeTempHome();
    const local = t.write(join(t.home, ".local"), "");
    const line = `${local} is a file, not a folder: move it away, or choose another folder with XDG_DATA_HOME, XDG_STATE_HOME or BOSUN_HOME`;
    expectOneLine(await runCli(["auth", "set", "openai"], withModel(t), t.home, KEY), line);
    expectOneLine(await runCli(["run", "hello"], withModel(t), t.home), line);
    const status = JSON.parse((await runCli(["status", "--json"], { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home)).stdout);
    expect(status.subsystems.folders.problems.map((p: { folder: string; at: string; problem: string }) => [p.folder, p.at, p.problem])).toEqual([
      ["data", local, "file"],
      ["state", local, "file"],
    ]);
  });

  it("with BOSUN_HOME below a file, names BOSUN_HOME only", async () => {
    const t = makeTempHome();
    const file = t.write("plain-file", "");
    const env = withModel(t, { ...t.env, BOSUN_HOME: join(file, "bosun") });
    expectOneLine(await runCli(["auth", "set", "openai"], env, t.home, KEY), `${file} is a file, not a folder: move it away, or choose another folder with BOSUN_HOME`);
    expectOneLine(await runCli(["run", "hello"], env, t.home), `${file} is a file, not a folder: move it away, or choose another folder with BOSUN_HOME`);
  });
});

describe("a folder bosun cannot write even as root", () => {
  it("a read-only mount: auth set, run, agents login and models refresh fail in one line; status shows it", async () => {
    const t = makeTempHome();
    const mount = join(t.root, "ro");
    mkdirSync(mount);
    // A read-only tmpfs in a mount namespace of the child's own: nothing to unmount afterwards.
    const readOnly = { wrapper: ["unshare", "-m"], setup: `mount -t tmpfs -o ro tmpfs ${mount}`, cwd: t.home, timeoutMs: 30_000 };
    const env = withModel(t, { ...t.env, BOSUN_HOME: mount });
    const line = `${mount} is on a read-only file system: remount it read-write, or choose another folder with BOSUN_HOME`;
    expectOneLine(await runBinAsync(["auth", "set", "openai"], env, { ...readOnly, input: KEY }), line);
    expectOneLine(await runBinAsync(["run", "hello"], env, readOnly), line);
    const [loginEnv, requests] = await withOAuthServer(env);
    expectOneLine(await runBinAsync(["agents", "login", "codex", "--json"], loginEnv, readOnly), line);
    expect(requests).toEqual([]);
    expectOneLine(await runBinAsync(["models", "refresh"], await withModelsServer(env), readOnly), line);
    const status = await runBinAsync(["status", "--json"], env, readOnly);
    expect(status.code).toBe(0);
    const folders = JSON.parse(status.stdout).subsystems.folders;
    expect(folders.state).toBe("attention");
    expect(folders.problems.map((p: { folder: string; problem: string; message: string }) => [p.folder, p.problem, p.message])).toEqual(
      ["config", "data", "cache", "state"].map((folder) => [folder, "read-only", line]),
    );
  }, 60_000);

  it("a folder in /sys (EPERM even for root): auth set, run and agents login fail in one line", async () => {
    const t = makeTempHome();
    const env = withModel(t, { ...t.env, BOSUN_HOME: "/sys/bosun-test-home" });
    const line = "/sys is not writable for you: give yourself write access to it, or choose another folder with BOSUN_HOME";
    expectOneLine(await runCli(["auth", "set", "openai"], env, t.home, KEY), line);
    expectOneLine(await runCli(["run", "hello"], env, t.home), line);
    // Root passes the access check made before sign-in; saving the login then fails the same way.
    const [loginEnv] = await withOAuthServer({ ...t.env, XDG_DATA_HOME: "/sys/bosun-test-data" });
    const login = await runCli(["agents", "login", "codex", "--json"], loginEnv, t.home);
    expect(login.stdout).toContain(USER_CODE);
    expectOneLine(login, "/sys is not writable for you: give yourself write access to it, or choose another folder with XDG_DATA_HOME or BOSUN_HOME");
  }, 60_000);
});
