import { describe, expect, it } from "vitest";
import { startBosun } from "../../src/app/start.js";
import type { CatalogUpdated } from "../../src/catalog/catalog.js";
import { modelsDevClientFor, openBootLocation } from "../../src/app/open-catalog.js";
import { openTestLocation } from "../fixtures/location.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("location", () => {
  it("is ready with the built-in plugins active and the first catalog built in one rebuild", async () => {
    const t = makeTempHome();
    const location = await openTestLocation(t);
    expect(location.catalog.rebuilds).toBe(1);
    expect(location.pluginReports().map((report) => `${report.name}:${report.state}`)).toEqual([
      "models-dev:active",
      "config-providers:active",
      "provider-local:active",
      "provider-anthropic:active",
      "provider-openrouter:active",
      "credentials:active",
    ]);
    expect(location.catalog.read().provider.all().length).toBeGreaterThan(5);
    await location.close();
  });

  it("closes without a last rebuild and without an event", async () => {
    const t = makeTempHome();
    const location = await openTestLocation(t);
    const events: CatalogUpdated[] = [];
    location.catalog.onUpdated((event) => events.push(event));
    const rebuilds = location.catalog.rebuilds;
    const value = location.catalog.value();
    await location.close();
    expect(location.catalog.rebuilds).toBe(rebuilds);
    expect(events).toEqual([]);
    expect(location.catalog.value()).toBe(value);
  });

  it("rebuilds with new models.dev data after a download and says what changed", async () => {
    const t = makeTempHome();
    const data = { acme: { id: "acme", name: "Acme", env: ["ACME_API_KEY"], models: { a1: { id: "a1" } } } };
    const server = await startModelsServer(JSON.stringify(data));
    const boot = await startBosun({ env: { ...t.env, BOSUN_MODELS_URL: server.url }, cwd: t.home, spawnDetached: () => "" });
    const client = modelsDevClientFor(boot, quiet);
    const location = await openBootLocation(boot, client, quiet, t.home);
    expect(location.catalog.read().provider.get("acme")).toBeUndefined();
    const events: CatalogUpdated[] = [];
    location.catalog.onUpdated((event) => events.push(event));
    await client.refresh();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(location.catalog.read().model.get("acme", "a1")).toBeDefined();
    expect(events).toHaveLength(1);
    expect(events[0]!.diff.providers.added).toEqual(["acme"]);
    expect(events[0]!.diff.providers.counts.removed).toBeGreaterThan(0);
    expect(events[0]!.location).toBe(t.home);
    // The same data again changes nothing: no event.
    server.script.body = JSON.stringify(data);
    await client.refresh({ force: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toHaveLength(1);
    await location.close();
  });
});
