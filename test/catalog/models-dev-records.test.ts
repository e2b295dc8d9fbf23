import { describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/catalog.js";
import { catalogEditor } from "../../src/catalog/editor.js";
import type { ModelsDevData } from "../../src/catalog/models-dev-data.js";
import { applyModelsDev } from "../../src/catalog/models-dev-records.js";
import { emptyCatalog, type ModelRecord } from "../../src/catalog/records.js";
import { Scope } from "../../src/kernel/state/scope.js";
import { loadModelsDevFixture } from "../fixtures/models-dev-data.js";

const data: ModelsDevData = {
  openai: {
    id: "openai",
    name: "OpenAI",
    env: ["OPENAI_API_KEY"],
    npm: "@ai-sdk/openai",
    models: {
      "gpt-5.4": {
        id: "gpt-5.4",
        name: "GPT-5.4",
        family: "gpt",
        reasoning: true,
        tool_call: true,
        release_date: "2026-03-05",
        modalities: { input: ["text", "image"], output: ["text"] },
        limit: { context: 1_050_000, input: 922_000, output: 128_000 },
        cost: {
          input: 2.5,
          output: 15,
          cache_read: 0.25,
          tiers: [{ tier: { type: "context", size: 272_000 }, input: 5, output: 22.5 }],
          context_over_200k: { input: 5, output: 22.5 },
        },
        experimental: { modes: { fast: { cost: { input: 5, output: 30 }, provider: { headers: { "x-tier": "priority" }, body: { service_tier: "priority" } } } } },
      },
      "gpt-4o": { id: "gpt-4o", name: "GPT-4o", release_date: "2024-05", status: "deprecated", cost: { input: 2.5, output: 10, context_over_200k: { input: 5, output: 20 } } },
    },
  },
  gateway: {
    id: "gateway",
    name: "Gateway",
    env: [],
    npm: "@ai-sdk/openai-compatible",
    api: "https://gw.example.test/v1",
    models: {
      "vendor/model": { id: "vendor/model", name: "Vendor Model", provider: { npm: "@ai-sdk/anthropic", api: "https://gw.example.test/anthropic" } },
      "no-date": { id: "no-date", release_date: "soon" },
    },
  },
};

function build(input: ModelsDevData) {
  const value = emptyCatalog();
  applyModelsDev(catalogEditor(value), input);
  return value;
}

describe("models.dev data in the catalog", () => {
  it("maps providers: name, key variables, package and base URL", () => {
    const value = build(data);
    expect(value.providers.get("openai")!.provider).toEqual({
      id: "openai",
      name: "OpenAI",
      env: ["OPENAI_API_KEY"],
      api: { type: "aisdk", package: "@ai-sdk/openai" },
      request: { headers: {}, body: {} },
    });
    expect(value.providers.get("gateway")!.provider.api).toEqual({ type: "aisdk", package: "@ai-sdk/openai-compatible", url: "https://gw.example.test/v1" });
  });

  it("maps a model: capabilities, limits, release time, status, and prices with each tier once", () => {
    const model = build(data).providers.get("openai")!.models.get("gpt-5.4")!;
    expect(model).toMatchObject({
      id: "gpt-5.4",
      providerID: "openai",
      name: "GPT-5.4",
      family: "gpt",
      api: { id: "gpt-5.4", type: "native", settings: {} },
      capabilities: { tools: true, reasoning: true, input: ["text", "image"], output: ["text"] },
      time: { released: Date.parse("2026-03-05") },
      status: "active",
      enabled: true,
      limit: { context: 1_050_000, input: 922_000, output: 128_000 },
      variants: [],
    });
    expect(model.cost).toEqual([
      { input: 2.5, output: 15, cache: { read: 0.25, write: 0 } },
      { input: 5, output: 22.5, cache: { read: 0, write: 0 }, tier: { type: "context", size: 272_000 } },
    ]);
    const legacy = build(data).providers.get("openai")!.models.get("gpt-4o")!;
    expect(legacy.status).toBe("deprecated");
    expect(legacy.cost[1]).toEqual({ input: 5, output: 20, cache: { read: 0, write: 0 }, tier: { type: "context", size: 200_000 } });
    expect(build(data).providers.get("gateway")!.models.get("no-date")!.time.released).toBe(0);
  });

  it("turns each experimental mode into a model of its own", () => {
    const models = build(data).providers.get("openai")!.models;
    const fast = models.get("gpt-5.4-fast")!;
    expect(fast.name).toBe("GPT-5.4 Fast");
    expect(fast.api.id).toBe("gpt-5.4");
    expect(fast.request).toEqual({ headers: { "x-tier": "priority" }, body: { service_tier: "priority" } });
    expect(fast.cost[0]).toEqual({ input: 5, output: 30, cache: { read: 0.25, write: 0 } });
    expect(fast.cost[1]!.tier).toEqual({ type: "context", size: 272_000 });
    expect(models.get("gpt-5.4")!.request.body).toEqual({});
  });

  it("gives a model served by another package or URL an endpoint of its own", () => {
    const model = build(data).providers.get("gateway")!.models.get("vendor/model")!;
    expect(model.api).toEqual({ id: "vendor/model", type: "aisdk", package: "@ai-sdk/anthropic", url: "https://gw.example.test/anthropic" });
  });

  it("drops what is not models.dev-shaped instead of failing on it", () => {
    const odd = { broken: { id: "broken", name: 7, env: "NOT_A_LIST", models: { m: { id: "m", modalities: { input: "text" }, limit: { context: "big" } }, bad: null } } } as unknown as ModelsDevData;
    const entry = build(odd).providers.get("broken")!;
    expect(entry.provider).toMatchObject({ name: "broken", env: [] });
    expect(entry.models.get("m")).toMatchObject({ capabilities: { input: [] }, limit: { context: 0, output: 0 } });
    expect(entry.models.has("bad")).toBe(false);
  });

  it("gives every rebuild records of its own: what a transform edits reaches neither the data, nor the next rebuild, nor a published value", async () => {
    const source: ModelsDevData = structuredClone(data);
    source.openai!.models["gpt-5.4"]!.provider = { headers: { "x-a": "1" }, body: { reasoning: { effort: "high" }, list: [1] } };
    source.openai!.models["gpt-5.4"]!.experimental!.modes!.fast!.provider!.body = { service_tier: "priority", nested: { deep: [1] } };
    const pristine = structuredClone(source);
    const catalog = new Catalog({ location: "/work/app" });
    const scope = new Scope();
    await catalog.transform(scope, (editor) => applyModelsDev(editor, source));
    const published = catalog.value();
    const publishedCopy = structuredClone([...published.providers].map(([id, entry]) => [id, entry.provider, [...entry.models]]));
    const vandal = await catalog.transform(scope, (editor) => {
      for (const { provider, models } of editor.provider.list()) {
        provider.env.push("EXTRA");
        (provider.api as { settings?: Record<string, unknown> }).settings = { added: true };
        provider.request.headers.x = "y";
        for (const model of models.values()) vandalize(model);
      }
    });
    expect(catalog.value()).not.toBe(published);
    expect(source).toEqual(pristine);
    expect([...published.providers].map(([id, entry]) => [id, entry.provider, [...entry.models]])).toEqual(publishedCopy);
    await vandal.dispose();
    expect(catalog.value().providers).toEqual(build(pristine).providers);
    expect(source).toEqual(pristine);
  });

  it("builds the full models.dev list: every provider, every model and one extra per mode", () => {
    const fixture = loadModelsDevFixture();
    const value = build(fixture.data);
    const models = Object.values(fixture.data).reduce((n, p) => n + Object.keys(p.models).length, 0);
    const modes = Object.values(fixture.data).reduce((n, p) => n + Object.values(p.models).reduce((k, m) => k + Object.keys(m.experimental?.modes ?? {}).length, 0), 0);
    expect(value.providers.size).toBe(Object.keys(fixture.data).length);
    expect([...value.providers.values()].reduce((n, e) => n + e.models.size, 0)).toBe(models + modes);
    if (fixture.origin === "snapshot") expect(models + modes).toBe(5_316);
  });
});

/** Edits every part of a model in place, down to nested request values and price tiers. */
function vandalize(model: ModelRecord): void {
  model.name += "!";
  model.capabilities.input.push("audio");
  model.capabilities.output.length = 0;
  model.limit.context += 1;
  model.time.released += 1;
  for (const entry of model.cost) {
    entry.input += 1;
    entry.cache.read += 1;
    if (entry.tier) entry.tier.size += 1;
  }
  model.cost.push({ input: 0, output: 0, cache: { read: 0, write: 0 } });
  (model.api as { settings?: Record<string, unknown> }).settings ??= {};
  (model.api as { settings: Record<string, unknown> }).settings.touched = true;
  model.request.headers["x-a"] = "2";
  const body = model.request.body as Record<string, unknown>;
  for (const value of Object.values(body)) {
    if (Array.isArray(value)) value.push(2);
    else if (typeof value === "object" && value !== null) Object.assign(value, { effort: "low", deep: [9] });
  }
  body.extra = 1;
  model.variants.push({ id: "v", headers: {}, body: {} });
}
