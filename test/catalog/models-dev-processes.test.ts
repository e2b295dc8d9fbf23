import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/kernel/paths.js";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { loadModelsDevFixture, scaleModelsDevData } from "../fixtures/models-dev-data.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

interface Child {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
}

/** Starts the built bosun as its own process. */
function bosun(argv: string[], env: Env, cwd: string): Child {
  const child = spawn(process.execPath, [BOSUN_BIN, ...argv], { env: env as NodeJS.ProcessEnv, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return {
    exited: new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))),
    kill: () => child.kill("SIGKILL"),
  };
}

const small = JSON.stringify({ acme: { id: "acme", name: "Acme", env: ["ACME_API_KEY"], models: { m1: { id: "m1" } } } });

describe("models.dev cache across processes", () => {
  it("downloads once when two processes refresh at the same time", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(small, { delayMs: 600 });
    const env = { ...t.env, BOSUN_MODELS_URL: server.url };
    const [a, b] = await Promise.all([bosun(["models", "refresh"], env, t.home).exited, bosun(["models", "refresh"], env, t.home).exited]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(server.requests).toHaveLength(1);
    const said = [a.stdout, b.stdout].sort();
    expect(said[0]).toMatch(/^Downloaded the model list from/);
    expect(said[1]).toMatch(/^The model list is already up to date/);
    const cacheDir = join(t.paths.cache, "models-dev");
    const cacheFile = readdirSync(cacheDir).find((name) => name.endsWith(".json"))!;
    expect(readFileSync(join(cacheDir, cacheFile), "utf8")).toBe(small);
  });

  it("leaves the previous cache whole when a process is killed while writing a new one", async () => {
    const t = makeTempHome();
    const big = JSON.stringify(scaleModelsDevData(loadModelsDevFixture().data, 10));
    const server = await startModelsServer(big);
    const env = { ...t.env, BOSUN_MODELS_URL: server.url };
    // Learn where this source's cache lives, and put an old list there.
    const first = await bosun(["models", "refresh"], env, t.home).exited;
    expect(first.code).toBe(0);
    const cacheDir = join(t.paths.cache, "models-dev");
    const cacheFile = join(cacheDir, readdirSync(cacheDir).find((name) => name.endsWith(".json"))!);
    const outcomes = new Set<string>();
    for (const delayMs of [0, 40, 120, 250, 400, 600]) {
      writeFileSync(cacheFile, small);
      const child = bosun(["models", "refresh"], env, t.home);
      server.script.onSent = () => setTimeout(() => child.kill(), delayMs);
      await child.exited;
      const content = readFileSync(cacheFile, "utf8");
      // Either the old list or the whole new one: never a cut-off file.
      expect(content === small || content === big, `killed ${delayMs} ms after the download`).toBe(true);
      outcomes.add(content === small ? "old" : "new");
    }
    server.script.onSent = undefined;
    // The next refresh cleans up whatever a killed writer left and completes.
    const after = await bosun(["models", "refresh"], env, t.home).exited;
    expect(after.code).toBe(0);
    expect(readFileSync(cacheFile, "utf8")).toBe(big);
    expect(readdirSync(cacheDir).filter((name) => name !== cacheFile.split("/").pop())).toEqual([]);
    expect(outcomes.size).toBeGreaterThan(0);
  }, 60_000);

  it("a stale lock of a killed process does not block the next refresh", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(small);
    const env = { ...t.env, BOSUN_MODELS_URL: server.url };
    const lockDir = join(t.paths.state, "locks");
    mkdirSync(lockDir, { recursive: true });
    const first = await bosun(["models", "refresh", "--json"], env, t.home).exited;
    const cache = (JSON.parse(first.stdout) as { cache: string }).cache;
    writeFileSync(join(lockDir, `models-dev-${cache.split("/").pop()}.lock`), JSON.stringify({ pid: 2 ** 22 + 4321, host: hostname(), acquiredAt: new Date().toISOString() }));
    const second = await bosun(["models", "refresh"], env, t.home).exited;
    expect(second.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(existsSync(dirname(cache))).toBe(true);
  });
});
