// The catalog's model list from the dashboard: where it comes from, the hourly refresh a long-running
// `bosun serve` does (its first look at start), Refresh from the page (against a local stand-in for
// models.dev), and the policy check with the statement that decided — through the real process.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serveDashboard, signIn, type ServedDashboard } from "../fixtures/dashboard.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const provider = (models: Record<string, string>) => ({
  acme: { id: "acme", name: "Acme AI", env: ["ACME_API_KEY"], npm: "@ai-sdk/openai-compatible", api: "https://api.acme.test/v1", models: Object.fromEntries(Object.entries(models).map(([id, name]) => [id, { id, name, tool_call: true, limit: { context: 128000, output: 8000 } }])) },
});

async function client(t: TempHome, env: Record<string, string>): Promise<{ served: ServedDashboard; get(path: string): Promise<{ status: number; json: any }>; post(path: string): Promise<{ status: number; json: any }> }> {
  const served = await serveDashboard(t, { env });
  stops.push(() => served.stop());
  const cookie = await signIn(served.launchUrl);
  const page = await (await fetch(`${served.url}/catalog`, { headers: { cookie } })).text();
  const csrf = /<meta name="bosun-csrf" content="([0-9a-f]+)"/.exec(page)?.[1] ?? "";
  const answer = async (response: Response) => ({ status: response.status, json: await response.json() });
  return {
    served,
    get: async (path) => answer(await fetch(`${served.url}${path}`, { headers: { cookie } })),
    post: async (path) => answer(await fetch(`${served.url}${path}`, { method: "POST", headers: { cookie, origin: served.url, "x-bosun-csrf": csrf } })),
  };
}

describe("the model list from the dashboard", () => {
  it("is downloaded when the server starts with a stale cache, and Refresh downloads it again: a new model is found at once", async () => {
    const t = makeTempHome();
    const models = await startModelsServer(JSON.stringify(provider({ "acme-large": "Acme Large" })));
    const { get, post } = await client(t, { BOSUN_MODELS_URL: models.url, BOSUN_DISABLE_MODELS_FETCH: "" });
    await expect.poll(async () => (await get("/api/catalog/list")).json.source, { timeout: 10_000, interval: 100 }).not.toBe("embedded");
    expect((await get("/api/catalog/list")).json).toMatchObject({ providers: 1, models: 1, url: `${models.url}/api.json`, downloadsOff: false });
    expect((await get("/api/catalog?q=acme")).json.models.map((model: { id: string }) => model.id)).toEqual(["acme-large"]);

    models.script.body = JSON.stringify(provider({ "acme-large": "Acme Large", "acme-nano": "Acme Nano" }));
    const refreshed = await post("/api/catalog/refresh");
    expect(refreshed.status).toBe(200);
    expect(refreshed.json).toMatchObject({ status: "fetched", list: { providers: 1, models: 2 } });
    expect((await get("/api/catalog?q=nano")).json.models.map((model: { id: string }) => model.id)).toEqual(["acme-nano"]);
    expect(models.requests.length).toBe(2);
  }, 30_000);

  it("with downloads turned off: the page says so, and Refresh is one line, nothing fetched", async () => {
    const t = makeTempHome();
    const models = await startModelsServer("{}");
    const { get, post } = await client(t, { BOSUN_MODELS_URL: models.url });
    expect((await get("/api/catalog/list")).json).toMatchObject({ source: "embedded", downloadsOff: true });
    expect(await post("/api/catalog/refresh")).toEqual({ status: 400, json: { error: "downloads are turned off by BOSUN_DISABLE_MODELS_FETCH; unset it to refresh the model list" } });
    expect(models.requests).toEqual([]);
  }, 30_000);

  it("the policy check names the statement that decided, and where it is written", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ policy: [{ action: "provider.use", effect: "deny", resource: "open*" }] }));
    const { get } = await client(t, {});
    expect((await get("/api/policy?action=provider.use&resource=openai")).json).toEqual({
      action: "provider.use",
      resource: "openai",
      effect: "deny",
      statement: { effect: "deny", action: "provider.use", resource: "open*", file: "~/.config/bosun/bosun.json", index: 0, scope: "global" },
      statements: 1,
    });
    expect((await get("/api/policy?action=provider.use&resource=anthropic")).json).toMatchObject({ effect: "allow", statement: null, statements: 1 });
    expect(await get("/api/policy?action=model.eat&resource=x")).toEqual({ status: 400, json: { error: "action: use provider.use or model.use" } });
    expect(await get("/api/policy?action=model.use&resource=")).toEqual({ status: 400, json: { error: "resource: give a provider id (provider.use) or provider/model (model.use)" } });
  }, 30_000);
});
