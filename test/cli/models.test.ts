import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatTokens } from "../../src/llm/token-count.js";
import { runCli } from "../fixtures/cli.js";
import { ACME_PROVIDERS } from "../fixtures/models-dev-data.js";
import { closedPortUrl, startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const offline = { BOSUN_DISABLE_MODELS_FETCH: "1" };
const served = ACME_PROVIDERS;

describe("bosun models", () => {
  it("prints the catalog as JSON in the documented shape: available providers, their models, the default", async () => {
    const t = makeTempHome();
    const { code, stdout, stderr } = await runCli(["models", "--json"], { ...t.env, ...offline, ANTHROPIC_API_KEY: "sk-ant-test" }, t.home);
    expect(code).toBe(0);
    expect(stderr).toBe("bosun: BOSUN_DISABLE_MODELS_FETCH is set; showing bosun's built-in list\n");
    const listing = JSON.parse(stdout);
    expect(Object.keys(listing)).toEqual(["source", "providers", "default"]);
    expect(listing.source).toBe("embedded");
    expect(listing.providers.map((p: { id: string }) => p.id)).toEqual(["anthropic"]);
    expect(Object.keys(listing.providers[0])).toEqual(["id", "name", "available", "models"]);
    expect(listing.providers[0].models[0]).toEqual({
      id: "claude-sonnet-5",
      name: "Claude Sonnet 5",
      contextLimit: 1000000,
      outputLimit: 128000,
      toolCall: true,
      reasoning: true,
      cost: { input: 2, output: 10 },
    });
    expect(listing.default).toEqual({ providerID: "anthropic", modelID: "claude-sonnet-5" });
  });

  it("--all includes unavailable providers, marked; --provider shows one, even when unavailable", async () => {
    const t = makeTempHome();
    const env = { ...t.env, ...offline };
    const all = JSON.parse((await runCli(["models", "--json", "--all"], env, t.home)).stdout);
    expect(all.providers.length).toBeGreaterThan(5);
    expect(all.providers.every((p: { available: boolean }) => p.available === false)).toBe(true);
    expect(all.default).toBeNull();
    const one = JSON.parse((await runCli(["models", "--json", "--provider", "openai"], env, t.home)).stdout);
    expect(one.providers.map((p: { id: string; available: boolean }) => [p.id, p.available])).toEqual([["openai", false]]);
    const text = await runCli(["models", "--all"], env, t.home);
    expect(text.stdout).toContain("OpenAI (openai)  not available: set OPENAI_API_KEY, or run bosun auth set openai");
    expect(text.stdout).toContain("Default model: none (no model is available)");
  });

  it("says which provider is unknown", async () => {
    const t = makeTempHome();
    const result = await runCli(["models", "--provider", "nope"], { ...t.env, ...offline }, t.home);
    expect(result).toEqual({ code: 1, stdout: "", stderr: 'bosun: unknown provider "nope"; bosun models --all lists every provider\n' });
  });

  it("downloads the list when there is no fresh cache, and then uses the cache", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(JSON.stringify(served));
    const env = { ...t.env, BOSUN_MODELS_URL: server.url, ACME_API_KEY: "k" };
    const first = await runCli(["models", "--json"], env, t.home);
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toMatchObject({ source: "network", providers: [{ id: "acme", name: "Acme AI", available: true }], default: { providerID: "acme", modelID: "acme-large" } });
    const small = JSON.parse(first.stdout).providers[0].models[1];
    expect(small).toEqual({ id: "acme-small", name: "Acme Small", contextLimit: 128000, outputLimit: 8000, toolCall: true, reasoning: false, cost: { input: null, output: null } });
    const second = await runCli(["models", "--json"], env, t.home);
    expect(JSON.parse(second.stdout).source).toBe("cache");
    expect(server.requests).toHaveLength(1);
    const text = await runCli(["models"], env, t.home);
    expect(text.stdout).toMatch(/^Models {2}from http:\/\/127\.0\.0\.1:\d+ \(cached just now\)$/m);
    expect(text.stdout).toMatch(/acme-large\s+Acme Large\s+400K ctx\s+32K out\s+tools, reasoning\s+\$3 \/ \$15 per 1M/);
    expect(text.stdout).toContain("Acme AI (acme)  key from ACME_API_KEY");
  });

  it("shows token limits in decimal units with at most three significant digits (128K, not 125K)", async () => {
    const t = makeTempHome();
    // Limits as models.dev states them for real models (gpt-4o, claude-sonnet-4-5, gpt-4.1, gemini-2.5-pro, …).
    const limits: Record<string, [number, number]> = {
      "m-128k": [128_000, 16_384],
      "m-200k": [200_000, 64_000],
      "m-1047k": [1_047_576, 32_768],
      "m-1048k": [1_048_576, 65_536],
      "m-1m": [1_000_000, 128_000],
      "m-131k": [131_072, 8_192],
      "m-small": [4_096, 950],
    };
    const models = Object.fromEntries(Object.entries(limits).map(([id, [context, output]]) => [id, { id, name: id, limit: { context, output } }]));
    const server = await startModelsServer(JSON.stringify({ acme: { ...served.acme, models } }));
    const result = await runCli(["models"], { ...t.env, BOSUN_MODELS_URL: server.url, ACME_API_KEY: "k" }, t.home);
    expect(result.code).toBe(0);
    const shown = (id: string) => new RegExp(`^ {2}${id} +(\\S+) ctx +(\\S+) out`, "m").exec(result.stdout)?.slice(1);
    expect(shown("m-128k")).toEqual(["128K", "16.4K"]);
    expect(shown("m-200k")).toEqual(["200K", "64K"]);
    expect(shown("m-1047k")).toEqual(["1.05M", "32.8K"]);
    expect(shown("m-1048k")).toEqual(["1.05M", "65.5K"]);
    expect(shown("m-1m")).toEqual(["1M", "128K"]);
    expect(shown("m-131k")).toEqual(["131K", "8.19K"]);
    expect(shown("m-small")).toEqual(["4.1K", "950"]);
  });

  it("formats every token count with the same rule", () => {
    expect([0, 950, 999, 1_000, 1_500, 32_000, 128_000, 999_499, 999_999, 2_000_000, 1_050_000].map(formatTokens)).toEqual([
      "0",
      "950",
      "999",
      "1K",
      "1.5K",
      "32K",
      "128K",
      "999K",
      "1M",
      "2M",
      "1.05M",
    ]);
  });

  it("offline without a cache: serves the built-in list and says so", async () => {
    const t = makeTempHome();
    const env = { ...t.env, BOSUN_MODELS_URL: await closedPortUrl(), OPENAI_API_KEY: "k" };
    const result = await runCli(["models", "--json"], env, t.home);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ source: "embedded", providers: [{ id: "openai" }] });
    expect(result.stderr).toMatch(/^bosun: could not update the model list \(could not download http:\/\/127\.0\.0\.1:\d+\/api\.json: connection refused \(ECONNREFUSED\): is the server running\?\); showing bosun's built-in list\n$/);
    const text = await runCli(["models"], env, t.home);
    expect(text.stdout).toContain("Models  from bosun's built-in list");
  });

  it("offline with a cache: keeps the cached list and says how old it is", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(JSON.stringify(served));
    await runCli(["models", "refresh"], { ...t.env, BOSUN_MODELS_URL: server.url }, t.home);
    await server.close();
    const { utimesSync, readdirSync } = await import("node:fs");
    const dir = join(t.paths.cache, "models-dev");
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
    const result = await runCli(["models", "--json", "--all"], { ...t.env, BOSUN_MODELS_URL: server.url }, t.home);
    expect(JSON.parse(result.stdout).source).toBe("cache");
    expect(result.stderr).toMatch(/showing the cached list from 3 hours ago\n$/);
  });

  it("downloads again when the cache is corrupt, however new it is", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(JSON.stringify(served));
    const env = { ...t.env, BOSUN_MODELS_URL: server.url, ACME_API_KEY: "k" };
    await runCli(["models", "refresh"], env, t.home);
    const { readdirSync, writeFileSync } = await import("node:fs");
    const dir = join(t.paths.cache, "models-dev");
    for (const name of readdirSync(dir)) writeFileSync(join(dir, name), "{ not json");
    const result = await runCli(["models", "--json"], env, t.home);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ source: "network", providers: [{ id: "acme" }] });
    expect(server.requests).toHaveLength(2);
  });

  it("--offline never downloads", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(JSON.stringify(served));
    const result = await runCli(["models", "--offline", "--json", "--all"], { ...t.env, BOSUN_MODELS_URL: server.url }, t.home);
    expect(JSON.parse(result.stdout).source).toBe("embedded");
    expect(server.requests).toHaveLength(0);
  });

  it("refresh downloads whatever the age of the cache and reports it; --json gives the outcome", async () => {
    const t = makeTempHome();
    const server = await startModelsServer(JSON.stringify(served));
    const env = { ...t.env, BOSUN_MODELS_URL: server.url };
    const first = await runCli(["models", "refresh"], env, t.home);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Downloaded the model list from http:\/\/127\.0\.0\.1:\d+\/api\.json \(2 providers, 3 models\) to ~\/\.cache\/bosun\/models-dev\/api-[0-9a-f]{12}\.json\n$/);
    expect(first.stderr).toBe("");
    const json = JSON.parse((await runCli(["models", "refresh", "--json"], env, t.home)).stdout);
    expect(json).toMatchObject({ status: "fetched", url: `${server.url}/api.json`, providers: 2, models: 3 });
    expect(server.requests).toHaveLength(2);
  });

  it("refresh fails with one line when the download fails or is turned off, keeping the cache", async () => {
    const t = makeTempHome();
    const server = await startModelsServer("busy", { status: 503 });
    const failed = await runCli(["models", "refresh"], { ...t.env, BOSUN_MODELS_URL: server.url }, t.home);
    expect(failed).toEqual({ code: 1, stdout: "", stderr: `bosun: could not download ${server.url}/api.json: the server answered 503 Service Unavailable; bosun keeps using its built-in list\n` });
    const off = await runCli(["models", "refresh"], { ...t.env, ...offline }, t.home);
    expect(off.stderr).toBe("bosun: downloads are turned off by BOSUN_DISABLE_MODELS_FETCH; unset it to refresh the model list\n");
  });
});
