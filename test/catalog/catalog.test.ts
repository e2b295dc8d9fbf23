import { describe, expect, it } from "vitest";
import { Catalog, type CatalogUpdated } from "../../src/catalog/catalog.js";
import { catalogEditor, type CatalogEditor } from "../../src/catalog/editor.js";
import { Policy } from "../../src/catalog/policy.js";
import { emptyCatalog, type CatalogValue } from "../../src/catalog/records.js";
import { Scope } from "../../src/kernel/state/scope.js";
import { pick, seededRandom } from "../fixtures/random.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-07-01");

function setUp(policy?: Policy) {
  const catalog = new Catalog({ location: "/work/app", now: () => NOW, ...(policy ? { policy } : {}) });
  const scope = new Scope();
  const events: CatalogUpdated[] = [];
  catalog.onUpdated((event) => events.push(event));
  return { catalog, scope, events, add: (transform: (editor: CatalogEditor) => void) => catalog.transform(scope, transform) };
}

const keyedProvider = (editor: CatalogEditor, id = "acme", env = ["ACME_API_KEY"]) =>
  editor.provider.update(id, (provider) => {
    provider.env = env;
    provider.api = { type: "aisdk", package: "@ai-sdk/openai-compatible", url: "https://api.acme.test/v1" };
  });

describe("Catalog", () => {
  it("publishes one catalog.updated per rebuild that changed something, with the location and a diff", async () => {
    const { add, events } = setUp();
    await add((editor) => editor.model.update("acme", "m1", () => undefined));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "catalog.updated", location: "/work/app", diff: { providers: { added: ["acme"] }, models: { added: ["acme/m1"] } } });
  });

  it("sends no event for a rebuild that changed nothing, and keeps the committed value", async () => {
    const { add, catalog, events } = setUp();
    await add((editor) => editor.model.update("acme", "m1", (model) => void (model.limit.context = 1000)));
    const value = catalog.value();
    const reader = catalog.read();
    await catalog.reload();
    await catalog.reload();
    expect(events).toHaveLength(1);
    expect(catalog.value()).toBe(value);
    expect(catalog.read()).toBe(reader);
  });

  it("describes what changed: models changed and removed, the default, credentials", async () => {
    const { add, catalog, events } = setUp();
    let context = 1000;
    let withSecond = true;
    let stored: string[] = [];
    await add((editor) => {
      keyedProvider(editor);
      editor.model.update("acme", "m1", (model) => void (model.limit.context = context));
      if (withSecond) editor.model.update("acme", "m2", () => undefined);
      editor.credentials.set({ stored: new Set(stored), env: new Set() });
    });
    context = 2000;
    withSecond = false;
    stored = ["acme"];
    await catalog.reload();
    expect(events.at(-1)!.diff).toMatchObject({
      providers: { added: [], removed: [], changed: ["acme"] },
      models: { added: [], removed: ["acme/m2"], changed: ["acme/m1"] },
      credentials: true,
    });
  });

  it("derives availability from stored credentials without putting them in the provider", async () => {
    const { add, catalog } = setUp();
    let stored: string[] = [];
    let env: string[] = [];
    await add((editor) => {
      keyedProvider(editor);
      editor.credentials.set({ stored: new Set(stored), env: new Set(env) });
    });
    expect(catalog.read().isAvailable("acme")).toBe(false);
    stored = ["acme"];
    await catalog.reload();
    expect(catalog.read().isAvailable("acme")).toBe(true);
    expect(catalog.read().provider.get("acme")!.request.body).toEqual({});
    env = ["ACME_API_KEY"];
    await catalog.reload();
    expect(catalog.read().credential("acme")).toEqual({ source: "auth" });
    expect(catalog.read().provider.get("acme")!.request.body).toEqual({});
  });

  it("derives availability from the provider's integration: unavailable until that integration has a key", async () => {
    const { add, catalog } = setUp();
    let stored: string[] = [];
    await add((editor) => {
      editor.provider.update("acme-eu", (provider) => void (provider.integrationID = "acme"));
      editor.credentials.set({ stored: new Set(stored), env: new Set() });
    });
    expect(catalog.read().isAvailable("acme-eu")).toBe(false);
    stored = ["acme"];
    await catalog.reload();
    expect(catalog.read().isAvailable("acme-eu")).toBe(true);
  });

  it("makes a provider available when one of its key variables is set, and names which", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      keyedProvider(editor, "google", ["GOOGLE_API_KEY", "GEMINI_API_KEY"]);
      editor.credentials.set({ stored: new Set(), env: new Set(["GEMINI_API_KEY"]) });
    });
    expect(catalog.read().isAvailable("google")).toBe(true);
    expect(catalog.read().credential("google")).toEqual({ source: "env", variable: "GEMINI_API_KEY" });
  });

  it("treats a provider that names no key variable as available (a local server), and a disabled one as not", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      editor.provider.update("local", () => undefined);
      editor.provider.update("off", (provider) => void (provider.disabled = true));
    });
    expect(catalog.read().isAvailable("local")).toBe(true);
    expect(catalog.read().isAvailable("off")).toBe(false);
  });

  it("moves a provider's baseURL from the request body into api.url", async () => {
    const { add, catalog } = setUp();
    await add((editor) => editor.provider.update("acme", (provider) => void (provider.request.body.baseURL = "http://127.0.0.1:8080/v1")));
    const provider = catalog.read().provider.get("acme")!;
    expect(provider.api.url).toBe("http://127.0.0.1:8080/v1");
    expect(provider.request.body).toEqual({});
  });

  it("moves a model's baseURL into its api.url; the projection keeps the model's package", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      keyedProvider(editor);
      editor.model.update("acme", "m", (model) => {
        model.api = { id: "m", type: "aisdk", package: "@ai-sdk/openai" };
        model.request.body.baseURL = "https://eu.acme.test/v1";
      });
    });
    expect(catalog.read().model.get("acme", "m")!.api).toEqual({ id: "m", type: "aisdk", package: "@ai-sdk/openai", url: "https://eu.acme.test/v1", settings: {} });
    expect(catalog.read().model.get("acme", "m")!.request.body).toEqual({});
  });

  it("gives a model without an endpoint of its own the provider's, under its own api id", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      keyedProvider(editor);
      editor.model.update("acme", "m", (model) => void (model.api.id = "acme-m-2026"));
    });
    expect(catalog.read().model.get("acme", "m")!.api).toEqual({ id: "acme-m-2026", type: "aisdk", package: "@ai-sdk/openai-compatible", url: "https://api.acme.test/v1", settings: {} });
  });

  it("merges headers and body provider first, model second", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      editor.provider.update("acme", (provider) => {
        provider.request.headers = { "x-a": "provider", "x-b": "provider" };
        provider.request.body = { temperature: 1, top_p: 1 };
      });
      editor.model.update("acme", "m", (model) => {
        model.request.headers = { "x-b": "model" };
        model.request.body = { top_p: 0.5 };
        model.request.variant = "fast";
      });
    });
    expect(catalog.read().model.get("acme", "m")!.request).toEqual({ headers: { "x-a": "provider", "x-b": "model" }, body: { temperature: 1, top_p: 0.5 }, variant: "fast" });
  });

  it("falls back to the newest available model when no default is configured", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      editor.model.update("acme", "old", (model) => void (model.time.released = 1000));
      editor.model.update("acme", "new", (model) => void (model.time.released = 2000));
    });
    expect(catalog.read().model.default()!.id).toBe("new");
  });

  it("uses a transform's default until that transform stops setting it", async () => {
    const { add, catalog } = setUp();
    let setsDefault = true;
    await add((editor) => {
      editor.model.update("acme", "old", (model) => void (model.time.released = 1000));
      editor.model.update("acme", "new", (model) => void (model.time.released = 2000));
      if (setsDefault) editor.model.default.set("acme", "old");
    });
    expect(catalog.read().model.default()!.id).toBe("old");
    setsDefault = false;
    await catalog.reload();
    expect(catalog.read().model.default()!.id).toBe("new");
  });

  it("ignores a configured default whose provider is disabled, or whose model is switched off or missing", async () => {
    const { add, catalog } = setUp();
    let target: [string, string] = ["off", "m"];
    await add((editor) => {
      editor.provider.update("off", (provider) => void (provider.disabled = true));
      editor.model.update("off", "m", (model) => void (model.time.released = 3000));
      editor.model.update("on", "x", (model) => void (model.time.released = 1000));
      editor.model.update("on", "switched-off", (model) => void (model.enabled = false));
      editor.model.default.set(...target);
    });
    expect(catalog.read().model.default()).toMatchObject({ providerID: "on", id: "x" });
    target = ["on", "switched-off"];
    await catalog.reload();
    expect(catalog.read().model.default()!.id).toBe("x");
    target = ["on", "missing"];
    await catalog.reload();
    expect(catalog.read().model.default()!.id).toBe("x");
  });

  it("counts deprecated models as available: availability is the switch, not the status", async () => {
    const { add, catalog } = setUp();
    await add((editor) => editor.model.update("acme", "legacy", (model) => void (model.status = "deprecated")));
    expect(catalog.read().model.available().map((m) => m.id)).toEqual(["legacy"]);
  });

  it("picks a small model: names with small words first, then price and age", async () => {
    const { add, catalog } = setUp();
    const model = (id: string, input: number, ageDays: number) => (editor: CatalogEditor) =>
      editor.model.update("acme", id, (m) => {
        m.capabilities.input = ["text"];
        m.capabilities.output = ["text"];
        m.cost = [{ input, output: input, cache: { read: 0, write: 0 } }];
        m.time.released = NOW - ageDays * DAY;
      });
    await add((editor) => {
      model("cheap-large", 0.1, 30)(editor);
      model("expensive-mini", 5, 30)(editor);
      model("ancient-nano", 0.01, 900)(editor);
    });
    expect(catalog.read().model.small("acme")!.id).toBe("expensive-mini");
    expect(catalog.read().model.small("nobody")).toBeUndefined();
  });

  it("removes providers the policy denies, after every transform, with their models", async () => {
    const { add, catalog } = setUp(new Policy([{ action: "provider.use", effect: "deny", resource: "blocked" }]));
    await add((editor) => {
      editor.model.update("blocked", "m", () => undefined);
      editor.model.update("open", "m", () => undefined);
    });
    // A later transform re-adding the provider cannot bring it back: policy runs last.
    await add((editor) => editor.model.update("blocked", "again", () => undefined));
    const reader = catalog.read();
    expect(reader.provider.get("blocked")).toBeUndefined();
    expect(reader.model.all().map((m) => `${m.providerID}/${m.id}`)).toEqual(["open/m"]);
  });

  it("removes models that model.use denies, and applies a new policy to everything again", async () => {
    const { add, catalog } = setUp(new Policy([{ action: "model.use", effect: "deny", resource: "acme/*-preview" }]));
    await add((editor) => {
      editor.model.update("acme", "a-preview", () => undefined);
      editor.model.update("acme", "a", () => undefined);
      editor.model.update("other", "b-preview", () => undefined);
    });
    expect(catalog.read().model.all().map((m) => `${m.providerID}/${m.id}`).sort()).toEqual(["acme/a", "other/b-preview"]);
    await catalog.setPolicy(new Policy([{ action: "provider.use", effect: "deny", resource: "*" }, { action: "provider.use", effect: "allow", resource: "other" }]));
    expect(catalog.read().provider.all().map((p) => p.id)).toEqual(["other"]);
  });

  it("lists models newest first and shares one projection per committed value", async () => {
    const { add, catalog } = setUp();
    await add((editor) => {
      editor.model.update("a", "one", (m) => void (m.time.released = 1));
      editor.model.update("a", "three", (m) => void (m.time.released = 3));
      editor.model.update("b", "two", (m) => void (m.time.released = 2));
    });
    const reader = catalog.read();
    expect(reader.model.all().map((m) => m.id)).toEqual(["three", "two", "one"]);
    expect(reader.model.all()).toBe(reader.model.all());
  });
});

describe("catalog diff", () => {
  it("sees a change in a field a plugin added to a model, and in every field of the record", async () => {
    const { diffCatalogs } = await import("../../src/catalog/diff.js");
    const { catalogEditor } = await import("../../src/catalog/editor.js");
    const { emptyCatalog } = await import("../../src/catalog/records.js");
    const build = (edit: (model: Record<string, unknown>) => void) => {
      const value = emptyCatalog();
      catalogEditor(value).model.update("p", "m", (model) => edit(model as unknown as Record<string, unknown>));
      return value;
    };
    const base = build(() => undefined);
    expect(diffCatalogs(base, build(() => undefined))).toBeNull();
    const edits: ((model: Record<string, unknown>) => void)[] = [
      (m) => (m.extra = 1),
      (m) => (m.family = "x"),
      (m) => (m.name = "other"),
      (m) => ((m.limit as { input?: number }).input = 5),
      (m) => ((m.capabilities as { input: string[] }).input.push("text")),
      (m) => ((m.request as { headers: Record<string, string> }).headers.a = "b"),
      (m) => ((m.variants as unknown[]).push({ id: "v", headers: {}, body: {} })),
      (m) => ((m.api as { url?: string }).url = "https://x.test"),
      (m) => ((m.cost as unknown[]).push({ input: 1, output: 1, cache: { read: 0, write: 0 } })),
      (m) => (m.enabled = false),
    ];
    for (const edit of edits) expect(diffCatalogs(base, build(edit))?.models.changed, edit.toString()).toEqual(["p/m"]);
    const withExtra = build((m) => (m.extra = 1));
    expect(diffCatalogs(withExtra, build((m) => (m.extra = 2)))?.models.changed).toEqual(["p/m"]);
  });

  it("compares models as deepEqual does: plugin keys, keys set to undefined, nested prices, variant order", async () => {
    const { diffCatalogs } = await import("../../src/catalog/diff.js");
    const changed = (before: (m: AnyRecord) => void, after: (m: AnyRecord) => void) => diffCatalogs(modelCatalog(before), modelCatalog(after))?.models.changed ?? [];
    const priced = (m: AnyRecord) => (m.cost = [{ input: 1, output: 2, cache: { read: 0.1, write: 0.2 } }, { tier: { type: "context", size: 200_000 }, input: 2, output: 4, cache: { read: 0.2, write: 0.4 } }]);
    const twoVariants = (m: AnyRecord, order: string[]) => (m.variants = order.map((id) => ({ id, headers: {}, body: { effort: id } })));
    // The same plugin key on both sides is no change; a nested plugin value is compared deeply.
    expect(changed((m) => (m.extra = { a: [1] }), (m) => (m.extra = { a: [1] }))).toEqual([]);
    expect(changed((m) => (m.extra = { a: [1] }), (m) => (m.extra = { a: [2] }))).toEqual(["p/m"]);
    expect(changed((m) => ((m.limit as AnyRecord).extra = 1), () => undefined)).toEqual(["p/m"]);
    // A key set to undefined is the same as no key, on the record and inside it.
    expect(changed((m) => (m.family = undefined), () => undefined)).toEqual([]);
    expect(changed((m) => (m.extra = undefined), () => undefined)).toEqual([]);
    expect(changed((m) => ((m.limit as AnyRecord).input = undefined), () => undefined)).toEqual([]);
    expect(changed((m) => ((m.api as AnyRecord).url = undefined), (m) => ((m.api as AnyRecord).url = "https://x.test"))).toEqual(["p/m"]);
    expect(changed((m) => (m.family = undefined), (m) => (m.family = "f"))).toEqual(["p/m"]);
    // Every price field counts, down to the cache prices of a tier.
    expect(changed(priced, priced)).toEqual([]);
    const nested: ((m: AnyRecord) => void)[] = [
      (m) => (((m.cost as AnyRecord[])[1]!.cache as AnyRecord).write = 0.5),
      (m) => (((m.cost as AnyRecord[])[0]!.cache as AnyRecord).read = 0),
      (m) => (((m.cost as AnyRecord[])[1]!.tier as AnyRecord).size = 100_000),
      (m) => delete (m.cost as AnyRecord[])[1]!.tier,
      (m) => ((m.cost as AnyRecord[])[0]!.note = "plugin"),
    ];
    for (const edit of nested) {
      expect(
        changed(priced, (m) => {
          priced(m);
          edit(m);
        }),
        edit.toString(),
      ).toEqual(["p/m"]);
    }
    // Variants are a list: the same ones in another order are a change.
    expect(changed((m) => twoVariants(m, ["low", "high"]), (m) => twoVariants(m, ["low", "high"]))).toEqual([]);
    expect(changed((m) => twoVariants(m, ["low", "high"]), (m) => twoVariants(m, ["high", "low"]))).toEqual(["p/m"]);
  });

  it("agrees with deepEqual on randomly edited models", async () => {
    const { diffCatalogs, deepEqual } = await import("../../src/catalog/diff.js");
    const random = seededRandom(7);
    const edits: ((m: AnyRecord) => void)[] = [
      (m) => (m.extra = pick(random, 2)),
      (m) => (m.extra = undefined),
      (m) => (m.family = pick(random, 2) ? "f" : undefined),
      (m) => delete m.family,
      (m) => (m.name = pick(random, 2) ? "n" : undefined),
      (m) => ((m.limit as AnyRecord).input = pick(random, 2) ? 5 : undefined),
      (m) => ((m.limit as AnyRecord).output = pick(random, 2)),
      (m) => ((m.capabilities as AnyRecord).tools = pick(random, 2) === 1),
      (m) => ((m.capabilities as { input: string[] }).input.push(pick(random, 2) ? "text" : "image")),
      (m) => ((m.api as AnyRecord).url = pick(random, 2) ? "https://x.test" : undefined),
      (m) => ((m.api as AnyRecord).settings = { a: pick(random, 2) }),
      (m) => ((m.request as { headers: Record<string, string> }).headers.h = String(pick(random, 2))),
      (m) => ((m.request as AnyRecord).variant = pick(random, 2) ? "v" : undefined),
      (m) => ((m.time as AnyRecord).released = pick(random, 2) * 1.5),
      (m) => (m.cost as AnyRecord[]).push({ input: pick(random, 2) / 3, output: 1, cache: { read: pick(random, 2), write: 0 } }),
      (m) => ((m.cost as AnyRecord[])[0] ??= { input: 0, output: 0, cache: { read: 0, write: 0 } }),
      (m) => ((m.cost as AnyRecord[])[0] = { input: 1, output: 1, cache: { read: 0, write: pick(random, 2) }, ...(pick(random, 2) ? { tier: { type: "context", size: 1 } } : {}) }),
      (m) => (m.variants as AnyRecord[]).push({ id: String(pick(random, 2)), headers: {}, body: {} }),
      (m) => ((m.variants as unknown) = pick(random, 2) ? [] : {}),
      (m) => ((m.limit as unknown) = pick(random, 2) ? null : { output: 0, context: 0 }),
      (m) => ((m.enabled as unknown) = pick(random, 2) ? NaN : true),
    ];
    const randomly = () => {
      const chosen = Array.from({ length: pick(random, 4) }, () => edits[pick(random, edits.length)]!);
      // An edit that reshaped a part (null limits, variants as an object) can make a later one throw; the rest still apply.
      return (m: AnyRecord) => chosen.forEach((edit) => attempt(() => edit(m)));
    };
    let differing = 0;
    for (let i = 0; i < 3000; i++) {
      const before = modelCatalog(randomly());
      const after = modelCatalog(randomly());
      const [a, b] = [before, after].map((value) => value.providers.get("p")!.models.get("m")!);
      const equal = deepEqual(a, b);
      if (!equal) differing++;
      expect(diffCatalogs(before, after)?.models.changed ?? [], `case ${i}`).toEqual(equal ? [] : ["p/m"]);
    }
    expect(differing).toBeGreaterThan(1000);
  });
});

type AnyRecord = Record<string, unknown>;

function attempt(run: () => void): void {
  try {
    run();
  } catch {
    // left as it was
  }
}

/** A catalog of one model `p/m`, as the editor creates it, then edited. */
function modelCatalog(edit: (model: AnyRecord) => void): CatalogValue {
  const value = emptyCatalog();
  catalogEditor(value).model.update("p", "m", (model) => edit(model as unknown as AnyRecord));
  return value;
}
