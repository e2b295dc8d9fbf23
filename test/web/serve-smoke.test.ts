import { describe, expect, it } from "vitest";
import { serveDashboard, signIn } from "../fixtures/dashboard.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("bosun serve (smoke)", () => {
  it("prints its address and a launch link; the link signs in once; the API answers the agents", async () => {
    const t = makeTempHome();
    const served = await serveDashboard(t);
    try {
      const cookie = await signIn(served.launchUrl);
      const agents = await fetch(`${served.url}/api/agents`, { headers: { cookie } });
      expect(agents.status).toBe(200);
      expect(((await agents.json()) as { agents: unknown[] }).agents).toHaveLength(8);
      await expect(signIn(served.launchUrl)).rejects.toThrow(/403/);
      const next = await served.nextLink();
      expect(next).not.toBe(served.launchUrl);
      expect(await signIn(next)).toMatch(/^bosun_session=/);
      for (const path of ["/", "/installs", "/catalog", "/sessions", "/status", "/api/status", "/api/installs", "/api/catalog", "/api/sessions"]) {
        const page = await fetch(`${served.url}${path}`, { headers: { cookie } });
        expect(page.status, `${path}: ${await page.clone().text()}`).toBe(200);
      }
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 60_000);
});
