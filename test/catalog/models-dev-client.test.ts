import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { MODELS_REFRESH_EVERY_MS, ModelsDevClient } from "../../src/catalog/models-dev-client.js";
import { packageRoot } from "../../src/kernel/package-info.js";
import type { Env } from "../../src/kernel/paths.js";
import { closedPortUrl, startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const served = JSON.stringify({ acme: { id: "acme", name: "Acme", env: ["ACME_API_KEY"], npm: "@ai-sdk/openai-compatible", api: "https://acme.test/v1", models: { m1: { id: "m1", name: "M1" } } } });
const cached = JSON.stringify({ cachedco: { id: "cachedco", name: "Cached Co", env: [], models: { c1: { id: "c1" } } } });

function client(t: TempHome, env: Env = {}, extra: Partial<ConstructorParameters<typeof ModelsDevClient>[0]> = {}) {
  return new ModelsDevClient({ env: { ...t.env, ...env }, cacheDir: t.paths.cache, stateDir: t.paths.state, packageRoot: packageRoot(), userAgent: "bosun/9.9.9", retries: 2, ...extra });
}

/** The real fetch, counting the calls made through it. */
function countingFetch(): { fetch: typeof globalThis.fetch; count: number } {
  const calls: { fetch: typeof globalThis.fetch; count: number } = { count: 0, fetch: (input, init) => (calls.count++, globalThis.fetch(input, init)) };
  return calls;
}

function writeCache(file: string, text: string, ageMs = 0): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  const when = new Date(Date.now() - ageMs);
  utimesSync(file, when, when);
}

describe("models.dev client", () => {
  it("reads the cache without touching the network", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(c.cacheFile, cached);
    expect(c.current()).toMatchObject({ source: "cache", data: { cachedco: { name: "Cached Co" } } });
    expect(server.requests).toHaveLength(0);
  });

  it("serves the embedded list when there is no cache, and never fetches to read", async () => {
    const t = makeTempHome();
    const c = client(t, { BOSUN_DISABLE_MODELS_FETCH: "1" });
    const snapshot = c.current();
    expect(snapshot.source).toBe("embedded");
    expect(Object.keys(snapshot.data)).toEqual(expect.arrayContaining(["anthropic", "openai", "google", "openrouter"]));
    expect(snapshot.problem).toBeUndefined();
    expect(await c.refresh({ force: true })).toEqual({ status: "disabled" });
  });

  it("downloads <source>/api.json with bosun's user agent and writes the text it received", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: `${server.url}/` });
    const heard: string[] = [];
    c.onRefreshed(() => heard.push("refreshed"));
    expect(await c.refresh()).toEqual({ status: "fetched", bytes: served.length });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe("/api.json");
    expect(server.requests[0]!.headers["user-agent"]).toBe("bosun/9.9.9");
    expect(readFileSync(c.cacheFile, "utf8")).toBe(served);
    expect(c.current()).toMatchObject({ source: "network", data: { acme: { name: "Acme" } } });
    expect(heard).toEqual(["refreshed"]);
    // A custom source has a cache file of its own.
    expect(c.cacheFile).toMatch(/models-dev\/api-[0-9a-f]{12}\.json$/);
  });

  it("skips the download while the cache is fresh (5 minutes) and downloads when it is older", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(c.cacheFile, cached, 60_000);
    expect(await c.refresh()).toEqual({ status: "fresh" });
    expect(server.requests).toHaveLength(0);
    writeCache(c.cacheFile, cached, 10 * 60_000);
    expect((await c.refresh()).status).toBe("fetched");
    expect(server.requests).toHaveLength(1);
  });

  it("downloads when forced, even with a fresh cache", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(c.cacheFile, cached, 1000);
    expect((await c.refresh({ force: true })).status).toBe("fetched");
    expect(readFileSync(c.cacheFile, "utf8")).toBe(served);
  });

  it("discards a corrupt cache (serves the embedded list and says why) and replaces it on the next download", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(c.cacheFile, "{");
    const snapshot = c.current();
    expect(snapshot.source).toBe("embedded");
    expect(snapshot.problem).toMatch(/cached list is unusable .*not valid JSON/);
    expect(c.isFresh()).toBe(false);
    expect((await c.refresh()).status).toBe("fetched");
    expect(readFileSync(c.cacheFile, "utf8")).toBe(served);
    c.invalidate();
    expect(c.current().source).toBe("cache");
  });

  it("keeps the cache and reports a failure when the server answers 500, after retrying", async () => {
    const t = makeTempHome();
    const server = await startModelsServer("oops", { status: 500 });
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(c.cacheFile, cached, 10 * 60_000);
    const outcome = await c.refresh();
    expect(outcome).toMatchObject({ status: "failed" });
    expect((outcome as { error: string }).error).toContain("answered 500");
    expect(server.requests).toHaveLength(3);
    expect(readFileSync(c.cacheFile, "utf8")).toBe(cached);
    expect(c.current().source).toBe("cache");
  });

  it("does not retry a 404, and refuses an answer that is not a models.dev list", async () => {
    const t = makeTempHome();
    const server = await startModelsServer("nope", { status: 404 });
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    expect((await c.refresh()).status).toBe("failed");
    expect(server.requests).toHaveLength(1);
    server.script.status = 200;
    server.script.body = "[1, 2, 3]";
    const outcome = await c.refresh();
    expect(outcome).toMatchObject({ status: "failed" });
    expect((outcome as { error: string }).error).toContain("must be a JSON object of providers");
    expect(existsSync(c.cacheFile)).toBe(false);
  });

  it("gives up on a server that does not answer in time", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served, { delayMs: 2_000 });
    const c = client(t, { BOSUN_MODELS_URL: server.url }, { timeoutMs: 150 });
    const outcome = await c.refresh();
    expect(outcome).toEqual({ status: "failed", error: `could not download ${server.url}/api.json: no answer in time` });
  });

  it("reports being offline without waiting, and keeps serving what it had", async () => {
    const t = makeTempHome();
    const c = client(t, { BOSUN_MODELS_URL: await closedPortUrl() });
    const outcome = await c.refresh();
    expect(outcome).toMatchObject({ status: "failed" });
    expect((outcome as { error: string }).error).toContain("ECONNREFUSED");
    expect(c.current().source).toBe("embedded");
  });

  it("fails at once, without trying again, on a server that cannot be reached: refused, bad port, unknown host", async () => {
    const t = makeTempHome();
    const cases: [string, RegExp][] = [
      [await closedPortUrl(), /: connection refused \(ECONNREFUSED\): is the server running\?$/],
      ["http://127.0.0.1:1", /: the port is one fetch refuses to use \(bad port\)$/],
      ["http://nonexistent.invalid", /: the host nonexistent\.invalid (is not found \(ENOTFOUND\)|could not be looked up \(EAI_AGAIN\))$/],
    ];
    for (const [source, reason] of cases) {
      const calls = countingFetch();
      const c = client(t, { BOSUN_MODELS_URL: source }, { fetch: calls.fetch });
      const outcome = await c.refresh({ force: true });
      expect(calls.count).toBe(1);
      expect(outcome).toMatchObject({ status: "failed" });
      expect((outcome as { error: string }).error).toMatch(new RegExp(`^could not download ${source.replace(/[.]/g, "\\.")}/api\\.json${reason.source}`));
    }
  });

  it("tries again after a reset connection or a 503, and then succeeds", async () => {
    const t = makeTempHome();
    const reset = await startModelsServer(served, { resets: 2 });
    expect(await client(t, { BOSUN_MODELS_URL: reset.url }).refresh({ force: true })).toEqual({ status: "fetched", bytes: served.length });
    expect(reset.requests).toHaveLength(3);

    const busy = await startModelsServer("busy", { status: 503 });
    busy.script.onSent = () => Object.assign(busy.script, { status: 200, body: served });
    expect(await client(t, { BOSUN_MODELS_URL: busy.url }).refresh({ force: true })).toEqual({ status: "fetched", bytes: served.length });
    expect(busy.requests).toHaveLength(2);
  });

  it("removes temp files an interrupted write left next to the cache", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    writeCache(`${c.cacheFile}.1234abcd`, "half a file");
    await c.refresh({ force: true });
    expect(readdirSync(dirname(c.cacheFile)).sort()).toEqual([c.cacheFile.split("/").pop()]);
  });

  it("picks up a list another process downloaded, and tells its listeners", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const c = client(t, { BOSUN_MODELS_URL: server.url });
    expect(c.current().source).toBe("embedded");
    const heard: string[] = [];
    c.onRefreshed(() => heard.push("refreshed"));
    writeCache(c.cacheFile, cached, 1000);
    expect(await c.refresh()).toEqual({ status: "fresh" });
    expect(heard).toEqual(["refreshed"]);
    expect(c.current()).toMatchObject({ source: "cache", data: { cachedco: {} } });
    expect(await c.refresh()).toEqual({ status: "fresh" });
    expect(heard).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it("refreshes at start and then every hour in a long-running process", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(served);
    const timers: { run: () => void; ms: number }[] = [];
    const c = client(t, { BOSUN_MODELS_URL: server.url }, { timers: { setTimeout: (run, ms) => timers.push({ run, ms }), clearTimeout: () => undefined } });
    const stop = c.startAutoRefresh();
    await waitFor(() => timers.length === 1);
    expect(server.requests).toHaveLength(1);
    expect(timers[0]!.ms).toBe(MODELS_REFRESH_EVERY_MS);
    writeCache(c.cacheFile, served, 2 * 60 * 60_000);
    timers[0]!.run();
    await waitFor(() => timers.length === 2);
    expect(server.requests).toHaveLength(2);
    stop();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
