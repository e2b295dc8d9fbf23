// The doctor from the dashboard: `bosun doctor` as a job of the real `bosun serve` process, its
// verdicts the same as `bosun doctor --json` prints (a pack installed with the real `bosun
// install`, one of its files edited, the agent's CLI not on PATH), through the API and on the
// Agents page in Chromium, where Run shows the verdicts live.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../fixtures/cli.js";
import { reachesLive, signInWith, useBrowser, watchedPage } from "../fixtures/browser.js";
import { serveDashboard, signIn } from "../fixtures/dashboard.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const browser = useBrowser();

describe("the doctor from the dashboard", () => {
  it("runs the doctor as `bosun doctor --json` does, through the API and from the Agents page, the verdicts shown live", async () => {
    const t = makeTempHome();
    // Only node on PATH: the agents' own CLIs are not found, which the doctor says.
    const env = { ...t.env, PATH: join(process.execPath, "..") };
    const installed = runBin(["install", "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"], env, t.home);
    expect(installed.code, installed.stderr).toBe(0);
    const skill = join(t.home, ".claude", "skills", "bosun-orchestrator", "SKILL.md");
    writeFileSync(skill, `${readFileSync(skill, "utf8")}\nmy own line\n`);
    const cli = runBin(["doctor", "--json"], env, t.home);
    const expected = JSON.parse(cli.stdout) as { ok: boolean; problems: { runtime: string; kind: string; text: string }[] };
    expect(expected.ok).toBe(false);
    expect(expected.problems.map((problem) => problem.kind)).toEqual(["intact"]);
    expect(expected.problems[0]!.text).toContain("skills/bosun-orchestrator/SKILL.md was edited");

    const served = await serveDashboard(t, { env: { PATH: env.PATH } });
    const context = await (await browser()).newContext();
    try {
      const cookie = await signIn(served.launchUrl);
      const csrf = /name="bosun-csrf" content="([^"]+)"/.exec(await (await fetch(served.url, { headers: { cookie } })).text())![1]!;
      expect(await (await fetch(`${served.url}/api/doctor`, { headers: { cookie } })).json()).toEqual({ state: "none" });
      const response = await fetch(`${served.url}/api/doctor`, { method: "POST", headers: { cookie, origin: served.url, "x-bosun-csrf": csrf } });
      expect(response.status).toBe(200);
      const done = (await response.json()) as { state: string; ms: number; report: typeof expected };
      expect(done.state).toBe("done");
      expect(done.report.ok).toBe(false);
      expect(done.report.problems).toEqual(expected.problems);
      // Without the page's CSRF token nothing runs.
      expect((await fetch(`${served.url}/api/doctor`, { method: "POST", headers: { cookie, origin: served.url } })).status).toBe(403);

      const tab = await watchedPage(context, served.url);
      const { page } = tab;
      await signInWith(page, await served.nextLink());
      await reachesLive(page);
      const verdicts = page.locator("#doctor-verdicts");
      const row = verdicts.locator("#doctor-claude");
      await expect(row.innerText()).resolves.toContain("changed");
      // Run again from the page (by keyboard): the verdicts come back live, with the edit named.
      // (data-at: when the shown run ended, in ms; two runs may end in the same second the page shows.)
      const before = await verdicts.getAttribute("data-at");
      expect(Number(before)).toBeGreaterThan(0);
      await verdicts.getByRole("button", { name: "Run the doctor again" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => verdicts.getAttribute("data-at"), { timeout: 30_000 }).not.toBe(before);
      for (const problem of expected.problems) await row.getByText(problem.text, { exact: false }).first().waitFor();
      await expect(row.innerText()).resolves.toMatch(/claude not installed/);
      await tab.assertClean();
    } finally {
      await context.close();
      expect(await served.stop()).toBe(0);
    }
  }, 90_000);
});
