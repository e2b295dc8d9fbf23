// Catalog rebuild cost, side by side with copying the data it is built from (run `npm run bench:catalog`).
// Data: the full models.dev list (147 providers, 5,276 models) from ../shared/data/, or a generated
// catalog of the same size and shape when that file is absent. The location runs every built-in
// plugin, plus a plugin with 10 extra transforms, under 50 policy statements.
//   rebuild  = catalog.reload(): fresh value -> every transform -> policy -> compare -> publish
//   clone    = structuredClone of the parsed api.json
// Interleaved, warm-up first, medians over BLOCKS alternating 1x/4x blocks of ROUNDS each. A rebuild that changes nothing must emit no event
// (asserted). Then the same at 4x the data. Targets: rebuild/clone <= 2.0, scale4x <= 4.4.
// The heap is collected before each timed step (node --expose-gc, as `npm run bench:catalog` runs it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 3);
const root = fileURLToPath(new URL("..", import.meta.url));
const dist = (path) => import(join(root, "dist", path));
const { loadModelsDevFixture, scaleModelsDevData } = await tsImport(join(root, "test/fixtures/models-dev-data.ts"), import.meta.url);
const { openLocation } = await dist("catalog/location.js");
const { ModelsDevClient } = await dist("catalog/models-dev-client.js");
const { ExtensionHost } = await dist("extensions/host.js");
const { resolvePaths } = await dist("kernel/paths.js");

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
// Each measurement starts with a collected heap (run with --expose-gc), so one does not pay for
// the garbage the previous one left: a 4x structuredClone leaves hundreds of MB behind.
const collect = () => globalThis.gc?.();
const time = async (work) => {
  collect();
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const silentLog = { info() {}, warn() {}, error() {} };

/** 50 statements: provider rules and model rules, as an organisation might write them. */
function policyStatements(providerIds) {
  const statements = [];
  for (let i = 0; i < 30; i++) {
    const id = providerIds[(i * 7) % providerIds.length];
    statements.push(i % 3 === 0 ? { action: "provider.use", effect: "allow", resource: id } : { action: "provider.use", effect: "deny", resource: `${id.slice(0, 6)}*-x9` });
  }
  statements.push({ action: "provider.use", effect: "deny", resource: providerIds[5] });
  for (let i = 0; i < 19; i++) {
    const id = providerIds[(i * 11) % providerIds.length];
    statements.push(i % 4 === 0 ? { action: "model.use", effect: "deny", resource: "*/*-preview" } : { action: "model.use", effect: i % 2 ? "deny" : "allow", resource: `${id}/*-m${i}` });
  }
  return statements;
}

/** Ten transforms a user plugin might register: renames, headers, switches, an extra provider, a scan. */
const extraTransforms = [
  (e) => e.provider.list()[0] && e.provider.update(e.provider.list()[0].provider.id, (p) => (p.name = `${p.name} (team)`)),
  (e) => { for (const { provider } of e.provider.list()) if (provider.api.type === "aisdk" && provider.api.package === "@ai-sdk/openai-compatible") provider.request.headers["X-Team"] = "bench"; },
  (e) => { for (const entry of e.provider.list()) for (const model of entry.models.values()) if (model.id.includes("preview")) model.enabled = false; },
  (e) => { for (let i = 0; i < 20; i++) e.model.update("team-gateway", `team-model-${i}`, (m) => { m.limit.context = 128_000; m.capabilities.tools = true; }); },
  (e) => e.model.default.set("team-gateway", "team-model-0"),
  (e) => { for (const entry of e.provider.list()) for (const model of entry.models.values()) if (model.family === "claude-haiku") model.limit.output = Math.max(model.limit.output, 8192); },
  (e) => { const last = e.provider.list().at(-1); if (last) e.provider.remove(last.provider.id); },
  (e) => { for (const entry of e.provider.list()) for (const model of entry.models.values()) if (model.family === "claude-sonnet") model.variants.push({ id: "thinking", headers: {}, body: { thinking: { type: "enabled" } } }); },
  (e) => e.provider.list()[1] && e.provider.update(e.provider.list()[1].provider.id, (p) => (p.api.url = "https://proxy.example.test/v1")),
  (e) => { let tools = 0; for (const entry of e.provider.list()) for (const model of entry.models.values()) if (model.capabilities.tools) tools++; e.provider.update("team-gateway", (p) => (p.request.body.toolModels = tools)); },
];

async function setUp(text, home) {
  const env = { HOME: home, BOSUN_HOME: join(home, "bosun"), BOSUN_DISABLE_MODELS_FETCH: "1", ANTHROPIC_API_KEY: "bench", OPENAI_API_KEY: "bench" };
  const paths = resolvePaths(env, home);
  mkdirSync(join(paths.cache, "models-dev"), { recursive: true });
  writeFileSync(join(paths.cache, "models-dev", "api.json"), text);
  const modelsDev = new ModelsDevClient({ env, cacheDir: paths.cache, stateDir: paths.state, packageRoot: root, userAgent: "bosun-bench" });
  const statements = policyStatements(Object.keys(modelsDev.current().data));
  const config = { value: { model: "team-gateway/team-model-0" }, layers: [{ scope: "global", file: join(paths.config, "bosun.json"), value: { policy: statements } }], sources: [] };
  const location = await openLocation({ directory: home, env, paths, config, installedPlugins: [], extensions: new ExtensionHost([]), modelsDev, log: silentLog });
  await location.plugins.add({ name: "bench-transforms", activate: async (ctx) => { for (const transform of extraTransforms) await ctx.catalog.transform(transform); } }, "user");
  let events = 0;
  location.catalog.onUpdated(() => events++);
  return { location, data: modelsDev.current().data, events: () => events };
}

// The data lives once, where bosun keeps it (the models.dev client's parsed copy); the clone
// copies that same object, so both sides work on the same heap. One block opens a location,
// times ROUNDS rebuilds and clones, and closes it.
async function block(label, text, samples) {
  const home = mkdtempSync(join(tmpdir(), "bosun-bench-catalog-"));
  try {
    samples.firstBuilds.push(await time(async () => (await setUp(text, join(home, "cold"))).location.close()));
    const { location, data, events } = await setUp(text, home);
    samples.providers = Object.keys(data).length;
    samples.models = location.catalog.read().model.all().length;
    for (let i = 0; i < 3; i++) {
      await location.catalog.reload();
      structuredClone(data);
    }
    for (let i = 0; i < ROUNDS; i++) {
      samples.rebuilds.push(await time(() => location.catalog.reload()));
      samples.clones.push(await time(() => structuredClone(data)));
    }
    if (events() !== 0) throw new Error(`${label}: ${events()} catalog.updated events from rebuilds that changed nothing (expected 0)`);
    await location.close();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function report(label, samples) {
  const rebuild = median(samples.rebuilds);
  const clone = median(samples.clones);
  console.log(`  ${label}: ${samples.providers} providers, ${samples.models} models in the catalog`);
  console.log(`    first build (location open)  ${median(samples.firstBuilds).toFixed(1)} ms`);
  console.log(`    rebuild                      ${rebuild.toFixed(1)} ms (median of ${samples.rebuilds.length}; no event)`);
  console.log(`    structuredClone(api.json)    ${clone.toFixed(1)} ms (median of ${samples.clones.length})`);
  return { rebuild, clone };
}

let fixture = loadModelsDevFixture();
console.log(`data: ${fixture.origin === "snapshot" ? "models.dev snapshot (../shared/data)" : "generated catalog of the snapshot's size"}, ${(fixture.text.length / 1e6).toFixed(2)} MB`);
const texts = { one: fixture.text, four: JSON.stringify(scaleModelsDevData(fixture.data, 4)) };
fixture = undefined;
// 1x and 4x blocks alternate, so a busy spell on the machine hits both sides alike.
const samples = { one: { firstBuilds: [], rebuilds: [], clones: [] }, four: { firstBuilds: [], rebuilds: [], clones: [] } };
for (let i = 0; i < BLOCKS; i++) {
  await block("1x", texts.one, samples.one);
  await block("4x", texts.four, samples.four);
}
const one = report("1x", samples.one);
const four = report("4x", samples.four);
console.log(`  targets: rebuild/clone <= 2.0, 4x rebuild <= 4.4 x the 1x rebuild`);
console.log(`catalog: rebuild/clone=${(one.rebuild / one.clone).toFixed(2)} scale4x=${(four.rebuild / one.rebuild).toFixed(2)}`);
