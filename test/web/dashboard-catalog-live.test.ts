// The Catalog page follows the catalog while it is open, in a real browser: a key stored with the
// real `bosun auth set` makes the provider's models available, and a refreshed model list adds a
// model, each within about a second, without a page load and with the search the page shows kept.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { reachesLive, signInWith, useBrowser, watchedPage } from "../fixtures/browser.js";
import { serveDashboard, signIn } from "../fixtures/dashboard.js";
import { startModelsServer } from "../fixtures/models-server.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const browser = useBrowser();

const provider = (models: Record<string, string>) => ({
  acme: { id: "acme", name: "Acme AI", env: ["ACME_API_KEY"], npm: "@ai-sdk/openai-compatible", api: "https://api.acme.test/v1", models: Object.fromEntries(Object.entries(models).map(([id, name]) => [id, { id, name, tool_call: true, limit: { context: 128000, output: 8000 } }])) },
});

/** `printf KEY | bosun auth set PROVIDER`, the real command in the temp home. */
function storeKey(t: TempHome, providerId: string, key: string): Promise<number | null> {
  const child = spawn(process.execPath, [BOSUN_BIN, "auth", "set", providerId], { cwd: t.home, env: { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1" } as NodeJS.ProcessEnv, stdio: ["pipe", "ignore", "ignore"] });
  child.stdin!.end(key);
  return new Promise((resolve) => child.on("exit", resolve));
}

describe("the Catalog page, live", () => {
  it("shows a stored key's models as available and a refreshed list's new model without a page load, keeping its search", async () => {
    const t = makeTempHome();
    const models = await startModelsServer(JSON.stringify(provider({ "acme-large": "Acme Large" })));
    const served = await serveDashboard(t, { env: { BOSUN_MODELS_URL: models.url, BOSUN_DISABLE_MODELS_FETCH: "" } });
    const context = await (await browser()).newContext();
    try {
      const tab = await watchedPage(context, served.url);
      const { page } = tab;
      await signInWith(page, served.launchUrl);
      await page.goto(`${served.url}/catalog`);
      await reachesLive(page);
      await page.locator("#catalog-q").fill("acme");
      const large = page.locator("#catalog-results tr", { hasText: "acme/acme-large" });
      await large.getByText("not available", { exact: false }).waitFor({ timeout: 10_000 });
      let loads = 0;
      page.on("load", () => loads++);

      expect(await storeKey(t, "acme", "sk-acme-test")).toBe(0);
      const stored = Date.now();
      await large.getByText("key from bosun auth").waitFor({ timeout: 5_000 });
      expect(Date.now() - stored).toBeLessThan(2_500);

      models.script.body = JSON.stringify(provider({ "acme-large": "Acme Large", "acme-nano": "Acme Nano" }));
      const cookie = await signIn(await served.nextLink());
      const csrf = /name="bosun-csrf" content="([^"]+)"/.exec(await (await fetch(served.url, { headers: { cookie } })).text())?.[1];
      // The refresh is asked by another client (the API): this page only watches.
      const refreshed = await fetch(`${served.url}/api/catalog/refresh`, { method: "POST", headers: { cookie, origin: served.url, "x-bosun-csrf": csrf ?? "" } });
      expect(refreshed.status, await refreshed.clone().text()).toBe(200);
      const asked = Date.now();
      await page.locator("#catalog-results tr", { hasText: "acme/acme-nano" }).waitFor({ timeout: 5_000 });
      expect(Date.now() - asked).toBeLessThan(2_500);
      expect(await page.locator("#catalog-q").inputValue()).toBe("acme");
      expect(await page.locator("#catalog-results h2").innerText()).toBe('2 models matching "acme"');
      expect(loads).toBe(0);
      await tab.assertClean();
    } finally {
      await context.close();
      expect(await served.stop()).toBe(0);
      await models.close();
    }
  }, 60_000);
});
