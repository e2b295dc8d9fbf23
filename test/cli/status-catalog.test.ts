import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/cli.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const summaryFiles = (t: TempHome) => {
  try {
    return readdirSync(join(t.paths.cache, "status")).map((name) => join(t.paths.cache, "status", name));
  } catch {
    return [];
  }
};

/** Plants a marker in the stored summary, so a status that reuses it shows the marker. */
function plantMarker(t: TempHome): void {
  const [file] = summaryFiles(t);
  const stored = JSON.parse(readFileSync(file!, "utf8"));
  stored.summary.default = { providerID: "marker", modelID: "from-the-stored-summary" };
  writeFileSync(file!, JSON.stringify(stored));
}

describe("bosun status: the catalog", () => {
  it("shows the available providers, the default model and where the list came from", async () => {
    const t = makeTempHome();
    const env = { ...t.env, ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "g" };
    const text = await runCli(["status"], env, t.home);
    expect(text.stdout).toMatch(/^Catalog {2}2 of 8 providers available: anthropic, google$/m);
    expect(text.stdout).toContain("  default model  anthropic/claude-sonnet-5\n  source         bosun's built-in list\n");
    const json = JSON.parse((await runCli(["status", "--json"], env, t.home)).stdout);
    expect(json.subsystems.catalog).toMatchObject({
      state: "ready",
      source: "embedded",
      cacheAgeMs: null,
      providers: { available: ["anthropic", "google"], total: 8 },
      default: { providerID: "anthropic", modelID: "claude-sonnet-5" },
      problems: [],
    });
    expect(json.summary).toContain("default model anthropic/claude-sonnet-5");
  });

  it("never downloads, even without a cache", async () => {
    const t = makeTempHome();
    const server = await startModelsServer("{}");
    const result = await runCli(["status", "--json"], { ...t.env, BOSUN_MODELS_URL: server.url }, t.home);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("reuses its stored summary while nothing it depends on changed, and recomputes when something did", async () => {
    const t = makeTempHome();
    const env = { ...t.env, OPENAI_API_KEY: "k" };
    await runCli(["status"], env, t.home);
    expect(summaryFiles(t)).toHaveLength(1);
    plantMarker(t);
    expect((await runCli(["status"], env, t.home)).stdout).toContain("default model  marker/from-the-stored-summary");

    // A key variable set: recomputed.
    const withKey = { ...env, ANTHROPIC_API_KEY: "k" };
    expect((await runCli(["status"], withKey, t.home)).stdout).toContain("default model  anthropic/claude-sonnet-5");
    plantMarker(t);
    // A variable no provider uses changes nothing.
    expect((await runCli(["status"], { ...withKey, UNRELATED: "1" }, t.home)).stdout).toContain("marker/from-the-stored-summary");
    // A config file appears: recomputed.
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ model: "openai/gpt-5.4-mini" }));
    expect((await runCli(["status"], withKey, t.home)).stdout).toContain("default model  openai/gpt-5.4-mini");
    plantMarker(t);
    // A stored key appears: recomputed.
    await runCli(["auth", "set", "deepseek"], { ...withKey, BOSUN_DISABLE_MODELS_FETCH: "1" }, t.home, "k");
    expect((await runCli(["status"], withKey, t.home)).stdout).toMatch(/3 of 8 providers available: anthropic, openai, deepseek/);
  });

  it("computes the summary every time when a plugin on disk runs code, and stores none", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "plugins/acme/plugin.json"), JSON.stringify({ main: "index.mjs" }));
    t.write(join(t.paths.data, "plugins/acme/index.mjs"), `export async function activate(ctx) { await ctx.catalog.transform((e) => e.model.update("acme", "m", () => {})); }`);
    const json = JSON.parse((await runCli(["status", "--json"], t.env, t.home)).stdout);
    expect(json.subsystems.catalog.providers.available).toEqual(["acme"]);
    expect(json.subsystems.catalog.default).toEqual({ providerID: "acme", modelID: "m" });
    expect(summaryFiles(t)).toEqual([]);
  });
});
