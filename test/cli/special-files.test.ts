import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kernel/package-info.js";
import { DEFAULT_MODELS_SOURCE, modelsCacheFile } from "../../src/catalog/catalog-files.js";
import { runBinAsync, type CliResult } from "../fixtures/cli.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeFifo, makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

// Every run is a child process with a deadline: reading a FIFO blocks the whole process (no
// timer fires), so a hang must fail the test from outside instead of blocking the test run.
const DEADLINE = { timeoutMs: 15_000 };
const offline = { BOSUN_DISABLE_MODELS_FETCH: "1" };

function bosun(t: TempHome, argv: string[], env: Record<string, string | undefined> = {}, input?: string) {
  return runBinAsync(argv, { ...t.env, ...offline, ...env }, { ...DEADLINE, cwd: t.home, ...(input === undefined ? {} : { input }) });
}

function devModel(): Record<string, string> {
  return {
    SCRIPTED_API_KEY: "sk-scripted-key-0123456789",
    BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, apiKeyEnv: "SCRIPTED_API_KEY", context: 50_000, output: 2_000 }),
  };
}

function fifoAt(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  makeFifo(path);
  return path;
}

function expectRefused(result: CliResult & { timedOut: boolean }, line: string): void {
  expect({ timedOut: result.timedOut, code: result.code, stderr: result.stderr }).toEqual({ timedOut: false, code: 1, stderr: `bosun: ${line}\n` });
}

/** A session made by a real run, to put special files in its place. */
async function recordedSession(t: TempHome): Promise<string> {
  llm.reply().text("Hi.");
  const first = await bosun(t, ["run", "hello"], devModel());
  expect(first.code, first.stderr).toBe(0);
  return /session (\S+)/.exec(first.stderr)![1]!;
}

describe("a FIFO where bosun expects one of its files", () => {
  it("<data>/auth.json: auth list, models and run refuse it in one line instead of waiting forever", async () => {
    const t = makeTempHome();
    const file = fifoAt(join(t.paths.data, "auth.json"));
    const line = `${file}: is a FIFO (named pipe), not a regular file; move it away, then run bosun auth set again`;
    expectRefused(await bosun(t, ["auth", "list"]), line);
    expectRefused(await bosun(t, ["models"]), line);
    // run reads the stored keys when its model comes from the catalog (here a local server in bosun.json).
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ providers: { local: { baseURL: llm.openaiURL, models: { m1: {} } } }, model: "local/m1" }));
    expectRefused(await bosun(t, ["run", "hello"]), line);
    expect(llm.requests).toEqual([]);
    const status = await bosun(t, ["status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`! stored keys are not used: ${line}`);
    expect(status.stdout).not.toContain("can be read by other users");
  }, 60_000);

  it("a session file: listings skip it, show and resume refuse it", async () => {
    const t = makeTempHome();
    const id = await recordedSession(t);
    const file = join(t.paths.data, "sessions", `${id}.jsonl`);
    rmSync(file);
    makeFifo(file);
    const list = await bosun(t, ["sessions", "--json"]);
    expect([list.timedOut, list.code, JSON.parse(list.stdout).sessions]).toEqual([false, 0, []]);
    const status = await bosun(t, ["status", "--json"]);
    expect([status.timedOut, status.code, JSON.parse(status.stdout).subsystems.agent.lastSession]).toEqual([false, 0, null]);
    const line = `${file} is a FIFO (named pipe), not a regular file: move it away`;
    expectRefused(await bosun(t, ["sessions", "show", id]), line);
    expectRefused(await bosun(t, ["run", "--session", id, "again"], devModel()), line);
  }, 60_000);

  it("a session's lock: resume refuses it", async () => {
    const t = makeTempHome();
    const id = await recordedSession(t);
    const lock = fifoAt(join(t.paths.data, "sessions", `${id}.lock`));
    expectRefused(await bosun(t, ["run", "--session", id, "again"], devModel()), `${lock} is a FIFO (named pipe), not a regular file: move it away`);
  }, 60_000);

  it("a spill file: a command's output is not written into a FIFO, and the model is told why", async () => {
    const t = makeTempHome();
    const id = await recordedSession(t);
    const spill = fifoAt(join(t.paths.data, "sessions", id, "bash-call-big.txt"));
    llm.reply().tool("bash", { command: "seq 1 20000" }, { id: "call-big" });
    llm.reply().text("Noted.");
    const run = await bosun(t, ["run", "--yes", "--session", id, "count"], devModel());
    expect([run.timedOut, run.code]).toEqual([false, 0]);
    // The tool's failure went back to the model, which carried on.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain(`${spill} is a FIFO (named pipe), not a regular file: move it away`);
  }, 60_000);

  it("the models.dev cache and the status cache: not used, and replaced by the next write", async () => {
    const t = makeTempHome();
    const cache = fifoAt(modelsCacheFile(t.paths.cache, DEFAULT_MODELS_SOURCE));
    const models = await bosun(t, ["models", "--offline"]);
    expect([models.timedOut, models.code]).toEqual([false, 0]);
    expect(models.stderr).toContain(`the cached list is unusable and will be replaced by the next download (${cache} is a FIFO (named pipe), not a regular file: move it away)`);
    expect(models.stdout).toContain("from bosun's built-in list");

    expect((await bosun(t, ["status"])).code).toBe(0);
    const statusDir = join(t.paths.cache, "status");
    const [summary] = readdirSync(statusDir);
    rmSync(join(statusDir, summary!));
    makeFifo(join(statusDir, summary!));
    const status = await bosun(t, ["status", "--json"]);
    expect([status.timedOut, status.code, JSON.parse(status.stdout).subsystems.catalog.source]).toEqual([false, 0, "embedded"]);
    expect(JSON.parse(readFileSync(join(statusDir, summary!), "utf8")).version).toBe(1);
  }, 60_000);

  it("the models.dev lock and the log: models refresh names the file instead of waiting (the log only in a warning)", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(readFileSync(join(packageRoot(), "assets", "providers.json"), "utf8"));
    try {
      const env = { BOSUN_DISABLE_MODELS_FETCH: "", BOSUN_MODELS_URL: server.url };
      const lock = fifoAt(join(t.paths.state, "locks", `models-dev-${basename(modelsCacheFile(t.paths.cache, server.url))}.lock`));
      expectRefused(await bosun(t, ["models", "refresh"], env), `${lock} is a FIFO (named pipe), not a regular file: move it away`);

      // A log that cannot be written never stops a command.
      const u = makeTempHome();
      const log = fifoAt(join(u.paths.state, "logs", "bosun.log"));
      const refresh = await bosun(u, ["models", "refresh"], env);
      expect({ timedOut: refresh.timedOut, code: refresh.code }).toEqual({ timedOut: false, code: 0 });
      expect(refresh.stderr).toContain(`bosun: warning: not logging: ${log} is a FIFO (named pipe), not a regular file: move it away\n`);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("the startup migrations' lock (taken when a step has something to do): the start names it", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "sessions", "old.jsonl"), "");
    const lock = fifoAt(join(t.paths.state, "startup-migrations.lock"));
    expectRefused(await bosun(t, ["status"]), `${lock} is a FIFO (named pipe), not a regular file: move it away`);
  }, 60_000);

  it("bosun.json, directly or through a symlink (dotfile setups link their config): one line naming it", async () => {
    const t = makeTempHome();
    const config = join(t.paths.config, "bosun.json");
    const fifo = fifoAt(join(t.root, "dotfiles", "bosun.json"));
    mkdirSync(t.paths.config, { recursive: true, mode: 0o700 });
    symlinkSync(fifo, config);
    expectRefused(await bosun(t, ["status"]), `${config}: is not a regular file`);
    rmSync(config);
    makeFifo(config);
    expectRefused(await bosun(t, ["config", "check"]), `${config}: is not a regular file`);
  });

  it("a plugin's plugin.json and the hook helper's snapshot: reported or skipped at once", async () => {
    const t = makeTempHome();
    fifoAt(join(t.paths.data, "plugins", "piped", "plugin.json"));
    const status = await bosun(t, ["status", "--json"]);
    expect([status.timedOut, status.code]).toEqual([false, 0]);
    expect(JSON.parse(status.stdout).plugins).toEqual([{ name: "piped", version: null, enabled: false, problem: "plugin.json is not a small regular file" }]);

    const helper = join(packageRoot(), "assets", "bin", "bosun-hook.mjs");
    mkdirSync(join(t.root, "helper", "bin"), { recursive: true });
    const installed = join(t.root, "helper", "bin", "bosun-hook.mjs");
    t.write(installed, readFileSync(helper, "utf8"));
    fifoAt(join(t.root, "helper", "hook-status.json"));
    const hook = spawnSync(process.execPath, [installed, "session-start"], { encoding: "utf8", timeout: 10_000 });
    expect([hook.status, hook.stdout]).toEqual([0, "bosun: status not cached yet; run `bosun status` to see your agents\n"]);
  }, 60_000);
});
