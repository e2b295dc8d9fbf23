// Installing a pack from the Installs page in a real browser (the system's headless Chromium,
// driven by playwright-core), as a person does it: tick a runtime, Plan, read the plan (grouped by
// risk, with the hook the pack will run), Apply. The progress (the count of changes written) and
// the end reach the page live, without a page load, and the installs table follows. An apply that
// waits for the install lock a terminal's `bosun install` holds (the test takes that lock file the
// way the installer does, as a live process) is still shown after a reload and ends without
// another click; a second Apply meanwhile is one line; a wait longer than the dashboard's ends in
// one line naming the holder, nothing written. A plan whose pack changed after it was shown is
// refused with one line and nothing written; planned again, it applies. Plan and Apply are also
// sent from the keyboard. Every page is watched: a page error, a console error, a CSP violation or
// a request to another host fails the test (browser.ts).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { LOCK_FILE } from "../../src/install/records/root.js";
import { acquireLock, type HeldLock } from "../../src/kernel/fs/file-lock.js";
import { markDocument, reachesLive, signInWith, useBrowser, watchedPage, type WatchedPage } from "../fixtures/browser.js";
import { serveDashboard, type ServedDashboard } from "../fixtures/dashboard.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const browser = useBrowser();
const TEST_MS = 90_000;

/** One test's world: a temp home, its `bosun serve`, and a signed-in watched page on the Installs view. */
interface Scene {
  t: TempHome;
  served: ServedDashboard;
  context: BrowserContext;
  tab: WatchedPage;
  page: Page;
}

/**
 * Runs `body` against a fresh temp home (`prepare` first) and its own `bosun serve`, with a
 * browser signed in by the launch link and gone to the Installs view by its link; closes the
 * context and stops the server afterwards, which must then exit 0.
 */
async function onInstallsPage(body: (scene: Scene) => Promise<void>, prepare: (t: TempHome) => void = () => undefined): Promise<void> {
  const chromium = await browser();
  const t = makeTempHome();
  prepare(t);
  const served = await serveDashboard(t);
  let context: BrowserContext | null = null;
  let exit: number | string;
  try {
    context = await chromium.newContext();
    const tab = await watchedPage(context, served.url);
    const { page } = tab;
    await signInWith(page, served.launchUrl);
    await Promise.all([page.waitForURL(`${served.url}/installs`), page.getByRole("navigation").getByRole("link", { name: "Installs", exact: true }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Installs");
    await reachesLive(page);
    await body({ t, served, context, tab, page });
  } finally {
    await context?.close();
    exit = await served.stop();
  }
  expect(exit, `bosun serve's exit; its stderr:\n${served.stderr()}`).toBe(0);
}

/** One line of text, its white space collapsed. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** What `#install-progress` says now. */
const progress = async (page: Page) => oneLine(await page.locator("#install-progress").innerText());

/** Runs in the page: records each text `#install-progress` shows (`window.__bosunProgress`), each once in a row. */
const PROGRESS_RECORDER = `(() => {
  const seen = (window.__bosunProgress = []);
  const look = () => {
    const text = (document.getElementById("install-progress")?.textContent ?? "").replace(/\\s+/g, " ").trim();
    if (text !== seen.at(-1)) seen.push(text);
  };
  look();
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
})();`;

/**
 * Records every text `#install-progress` shows from now on (the element is replaced, by htmx and
 * by the live stream: watched from the body). `seen()` gives them in order.
 */
async function recordProgress(page: Page): Promise<{ seen(): Promise<string[]> }> {
  await page.evaluate(PROGRESS_RECORDER);
  return { seen: () => page.evaluate(() => (globalThis as Record<string, unknown>).__bosunProgress as string[]) };
}

/** The row of `#installs-table` for a folder (`~/.claude`), or "" while there is none. */
const installsRow = async (page: Page, folder: string) => {
  const row = page.locator("#installs-table tbody tr").filter({ has: page.locator("td code").getByText(folder, { exact: true }) });
  return oneLine(await row.innerText({ timeout: 1_000 }).catch(() => ""));
};

/** The runtime's checkbox in the Install form (its label starts with the runtime's title). */
const runtimeBox = (page: Page, title: string) => page.locator("#install-form").getByRole("checkbox", { name: new RegExp(`^${title}`) });

/** The plan's text for one folder's section (by its label, `Claude Code ~/.claude`). */
const planRoot = (page: Page, label: string) => page.locator("#install-plan").getByRole("region", { name: label, exact: true });

/** The agents' folders of the home: without bosun's own state and cache (its log grows with each request). */
const userTree = (t: TempHome) => Object.fromEntries(Object.entries(snapshotTree(t.home)).filter(([path]) => path !== "." && !path.startsWith(".local") && !path.startsWith(".cache")));

const INSTALLED_BOSUN = /^✓ Installed bosun 0\.1\.0 into claude \(global\): 2 folder\(s\) changed\.$/;
const STALE = "✗ the plan changed since it was shown (a file or the pack changed): plan again, and check it Nothing was written.";

describe("installing a pack from the Installs page in a real browser", () => {
  it("plans bosun's own pack for Claude Code (grouped by risk, with the hook it will run), applies it with progress and the end shown live, and the installs table follows", async () => {
    await onInstallsPage(async ({ t, served, context, tab, page }) => {
      const claude = join(t.home, ".claude");
      expect(await page.locator("#installs-heading").innerText()).toBe("Packs installed in 0 of 0 agent folders");
      expect(await progress(page)).toBe("");

      // Claude Code has no folder yet: its box is not ticked; global is the scope; the pack folder stays empty (bosun's own).
      const box = runtimeBox(page, "Claude Code");
      expect(await box.isChecked()).toBe(false);
      await box.check();
      expect(await page.getByRole("radio", { name: /^global/ }).isChecked()).toBe(true);
      expect(await page.getByLabel("Pack folder (empty: bosun's own pack)").inputValue()).toBe("");
      const sameDocument = await markDocument(page);
      await page.locator("#install-form").getByRole("button", { name: "Plan" }).click();

      await expect.poll(() => page.locator("#install-plan-heading").innerText().catch(() => ""), { timeout: 15_000 }).toBe("Plan: bosun 0.1.0 — 2 folders change");
      const plan = page.locator("#install-plan");
      const hooks = plan.locator("details", { has: page.locator("summary", { hasText: "Hooks the pack will run" }) });
      expect(oneLine(await hooks.locator("summary").innerText())).toBe("Hooks the pack will run: 1");
      expect(await hooks.getAttribute("open"), "new hooks are shown open").not.toBeNull();
      const hookLines = (await hooks.locator("li").allInnerTexts()).map(oneLine);
      expect(hookLines).toHaveLength(1);
      expect(hookLines[0]).toMatch(/^bosun-session-start on SessionStart in claude \(global, settings\.json\): node .+\/bosun-hook\.mjs session-start \(new\)$/);
      // The main folder's groups, least risky first: 12 new files and bosun's entry in settings.json.
      const main = planRoot(page, "Claude Code ~/.claude");
      expect(oneLine(await main.locator("h3").innerText())).toBe("Claude Code (global) ~/.claude: changes");
      expect((await main.locator("summary").allInnerTexts()).map(oneLine)).toEqual(["added (new files): 12", "config (bosun's own entries): 1"]);
      // The safe groups are closed: opened, they list the paths.
      await main.locator("summary", { hasText: "added (new files)" }).click();
      expect(await main.getByText("skills/bosun-orchestrator/SKILL.md", { exact: true }).isVisible()).toBe(true);
      // The MCP server goes into ~/.claude.json, a second folder.
      expect(oneLine(await planRoot(page, "Claude Code ~").locator("summary").first().innerText())).toMatch(/^config \(bosun's own entries\): 1$/);
      expect(existsSync(claude), "a plan writes nothing").toBe(false);

      const seen = await recordProgress(page);
      await plan.getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => progress(page), { timeout: 20_000 }).toMatch(INSTALLED_BOSUN);
      // What the element showed, in order (its text with the <progress> bar's fallback): nothing; the
      // Apply's answer (started, no count yet); the counts of the 14 changes as they are written
      // (1, …, 14, at most ten a second), over the live stream; the end.
      const shown = await seen.seen();
      const story = JSON.stringify(shown);
      expect(shown[0], story).toBe("");
      expect(shown[1], story).toBe("Installing into claude (global): 0 of 0 0 of ? changes");
      const middle = shown.slice(2, -1);
      expect(middle.length, story).toBeGreaterThan(0);
      for (const text of middle) expect(text, story).toMatch(/^Installing into claude \(global\): (\d+) of 14 \1 of 14 changes$/);
      const counts = middle.map((text) => Number(/(\d+) of 14/.exec(text)?.[1]));
      expect(counts, story).toEqual([...counts].sort((a, b) => a - b));
      expect(counts.at(-1), story).toBe(14);
      expect(shown.at(-1), story).toMatch(INSTALLED_BOSUN);

      // The installs table follows (the live refresh), all in the same document.
      await expect.poll(() => installsRow(page, "~/.claude"), { timeout: 5_000 }).toMatch(/^Claude Code global ~\/\.claude bosun 0\.1\.0 \(\d+ files\) ✓ no drift$/);
      expect(await sameDocument(), "planned, applied and refreshed without loading another page").toBe(true);
      expect(page.url()).toBe(`${served.url}/installs`);

      // On disk, in the temp home: the files, bosun's hook in settings.json, the journal.
      expect(existsSync(join(claude, "skills/bosun-orchestrator/SKILL.md"))).toBe(true);
      expect(existsSync(join(claude, "commands/bosun-status.md"))).toBe(true);
      expect(readFileSync(join(claude, "settings.json"), "utf8")).toContain("bosun-hook.mjs session-start");
      expect(readdirSync(join(claude, "bosun-journal")).some((name) => name.endsWith(".jsonl"))).toBe(true);
      const job = await (await context.request.get(`${served.url}/api/installs/job`)).json();
      expect(job).toMatchObject({ state: "done", request: { runtimes: ["claude"], scope: "global" }, report: { dryRun: false, pack: { name: "bosun" } } });
      await tab.assertClean();
    });
  }, TEST_MS);

  it("an apply waiting for the install lock a terminal holds is still shown after a reload, a second Apply meanwhile is one line, and it ends at done without another click", async () => {
    let held: HeldLock | null = null;
    try {
      await onInstallsPage(
        async ({ t, served, context, tab, page }) => {
          const claude = join(t.home, ".claude");
          // A `bosun install` in a terminal is at work in ~/.claude: it holds the folder's install lock (this process's, alive).
          held = await acquireLock(join(claude, LOCK_FILE), { timeoutMs: 1_000 });

          // Claude Code's folder exists: its box is ticked already.
          expect(await installsRow(page, "~/.claude")).toMatch(/^Claude Code global ~\/\.claude no pack installed —$/);
          expect(await runtimeBox(page, "Claude Code").isChecked()).toBe(true);
          await page.locator("#install-form").getByRole("button", { name: "Plan" }).click();
          await expect.poll(() => page.locator("#install-plan-heading").innerText().catch(() => ""), { timeout: 15_000 }).toBe("Plan: bosun 0.1.0 — 2 folders change");

          // Apply from the keyboard: the button focused, Enter.
          const apply = page.locator("#install-plan").getByRole("button", { name: "Apply" });
          await apply.focus();
          await page.keyboard.press("Enter");
          await expect.poll(() => progress(page), { timeout: 10_000 }).toBe("Installing into claude (global): 0 of ? changes");
          // The apply waits for the lock (the dashboard waits up to 30 s, as `bosun install` does): nothing of the pack is written.
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          expect(await progress(page)).toMatch(/^Installing into claude \(global\)/);
          expect((await (await context.request.get(`${served.url}/api/installs/job`)).json()).state).toBe("applying");
          expect(existsSync(join(claude, "skills"))).toBe(false);

          // A second Apply while it runs: refused (409), its one line in the page's message area.
          // (Chrome prints the refused request, htmx its status: the two console errors expected.)
          const consoleErrors: string[] = [];
          page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
          tab.expectConsole(/status of 409 .*\/installs\/apply\)$/, /^Response Status Error Code 409 from \/installs\/apply/);
          await apply.click();
          await expect.poll(() => page.locator("#message").innerText(), { timeout: 5_000 }).toBe("an install from this dashboard is still running: wait for it to finish");
          expect(consoleErrors.map((text) => text.replace(/,.*$/, ""))).toEqual(["Failed to load resource: the server responded with a status of 409 (Conflict)", "Response Status Error Code 409 from /installs/apply"]);
          expect(await progress(page)).toMatch(/^Installing into claude \(global\)/);

          // A reload in the middle: the page shows the apply where it is, not an idle form.
          const reloaded = await page.reload();
          expect(reloaded?.status()).toBe(200);
          expect(await progress(page)).toMatch(/^Installing into claude \(global\): .*0 of \? changes$/);
          expect(await page.locator("#message").innerText()).toBe("");
          await reachesLive(page);
          const sameDocument = await markDocument(page);
          expect(await progress(page)).toMatch(/^Installing into claude \(global\)/);

          // The terminal's install ends: the page's apply takes the lock and ends, shown live.
          held!.release();
          held = null;
          await expect.poll(() => progress(page), { timeout: 20_000 }).toMatch(INSTALLED_BOSUN);
          await expect.poll(() => installsRow(page, "~/.claude"), { timeout: 5_000 }).toMatch(/^Claude Code global ~\/\.claude bosun 0\.1\.0 \(\d+ files\) ✓ no drift$/);
          expect(await sameDocument(), "the end came without another page load").toBe(true);
          expect(existsSync(join(claude, "skills/bosun-orchestrator/SKILL.md"))).toBe(true);
          expect(existsSync(join(claude, LOCK_FILE)), "the lock is released").toBe(false);
          // A reload after the end still shows it.
          await page.reload();
          expect(await progress(page)).toMatch(INSTALLED_BOSUN);
          await reachesLive(page);
          await tab.assertClean();
        },
        (t) => mkdirSync(join(t.home, ".claude")),
      );
    } finally {
      (held as HeldLock | null)?.release();
    }
  }, TEST_MS);

  it("an apply that waits for the lock longer than the dashboard does ends in one line naming the holder, nothing written; Apply again once it is free installs", async () => {
    let held: HeldLock | null = null;
    try {
      await onInstallsPage(
        async ({ t, tab, page }) => {
          const claude = join(t.home, ".claude");
          const lock = await acquireLock(join(claude, LOCK_FILE), { timeoutMs: 1_000 });
          held = lock;
          await page.locator("#install-form").getByRole("button", { name: "Plan" }).click();
          await expect.poll(() => page.locator("#install-plan-heading").innerText().catch(() => ""), { timeout: 15_000 }).toBe("Plan: bosun 0.1.0 — 2 folders change");
          const before = userTree(t);
          const apply = page.locator("#install-plan").getByRole("button", { name: "Apply" });
          await apply.click();
          await expect.poll(() => progress(page), { timeout: 5_000 }).toMatch(/^Installing into claude \(global\)/);
          // The dashboard waits 30 s for the lock, as `bosun install` does, then says who holds it.
          await expect.poll(() => progress(page), { timeout: 45_000 }).toMatch(/^✗ /);
          expect(await progress(page)).toBe(`✗ ${join(claude, LOCK_FILE)} is held by process ${process.pid} on ${lock.holder.host} since ${lock.holder.acquiredAt}; wait for it to finish, or delete the file if that process is gone`);
          expect(await page.locator("#message").innerText()).toBe("");
          expect(userTree(t), "nothing written").toEqual(before);

          // Free again: the same plan, applied again, installs.
          lock.release();
          held = null;
          await apply.click();
          await expect.poll(() => progress(page), { timeout: 20_000 }).toMatch(INSTALLED_BOSUN);
          expect(existsSync(join(claude, "skills/bosun-orchestrator/SKILL.md"))).toBe(true);
          await tab.assertClean();
        },
        (t) => mkdirSync(join(t.home, ".claude")),
      );
    } finally {
      (held as HeldLock | null)?.release();
    }
  }, TEST_MS);

  it("refuses a plan whose pack changed after it was shown with one line and nothing written; planned again, it applies", async () => {
    await onInstallsPage(async ({ t, context, served, tab, page }) => {
      const claude = join(t.home, ".claude");
      const pack = join(t.root, "demo");
      cpSync(packDir("demo-v1"), pack, { recursive: true });

      await runtimeBox(page, "Claude Code").check();
      // The pack's folder typed, then Enter in the field: the form is sent from the keyboard.
      const field = page.getByLabel("Pack folder (empty: bosun's own pack)");
      await field.fill(pack);
      await field.press("Enter");
      await expect.poll(() => page.locator("#install-plan-heading").innerText().catch(() => ""), { timeout: 15_000 }).toBe("Plan: demo 1.0.0 — 1 folder change");
      const added = () => planRoot(page, "Claude Code ~/.claude").locator("summary", { hasText: "added (new files)" });
      expect(await added().innerText()).toBe("added (new files): 6");

      // The pack gains a command after the plan was shown.
      writeFileSync(join(pack, "commands", "late.md"), "---\ndescription: added after the plan\n---\nlate\n");
      const json = JSON.parse(readFileSync(join(pack, "pack.json"), "utf8"));
      json.artifacts.commands.push("late");
      writeFileSync(join(pack, "pack.json"), JSON.stringify(json));
      const before = userTree(t);

      const sameDocument = await markDocument(page);
      await page.locator("#install-plan").getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => progress(page), { timeout: 15_000 }).toBe(STALE);
      expect(await page.locator("#install-progress .state.no").count()).toBe(1);
      expect(await page.locator("#message").innerText()).toBe("");
      expect(userTree(t), "nothing written").toEqual(before);
      expect(existsSync(claude)).toBe(false);
      const job = await (await context.request.get(`${served.url}/api/installs/job`)).json();
      expect(job).toMatchObject({ state: "failed", stale: true });

      // Planned again: the late command is in the plan; applied, it is installed.
      await page.locator("#install-form").getByRole("button", { name: "Plan" }).click();
      await expect.poll(() => added().innerText().catch(() => ""), { timeout: 15_000 }).toBe("added (new files): 7");
      await added().click();
      expect(await page.locator("#install-plan").getByText("commands/late.md", { exact: true }).isVisible()).toBe(true);
      await page.locator("#install-plan").getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => progress(page), { timeout: 20_000 }).toMatch(/^✓ Installed demo 1\.0\.0 into claude \(global\): 1 folder\(s\) changed\.$/);
      await expect.poll(() => installsRow(page, "~/.claude"), { timeout: 5_000 }).toMatch(/^Claude Code global ~\/\.claude demo 1\.0\.0 \(\d+ files\) ✓ no drift$/);
      expect(await sameDocument()).toBe(true);
      expect(existsSync(join(claude, "commands/late.md"))).toBe(true);
      expect(existsSync(join(claude, "commands/demo-old.md"))).toBe(true);
      await tab.assertClean();
    });
  }, TEST_MS);

  it("a job's element never goes back to an older state: an Apply answer that arrives after a newer live update is not swapped in", async () => {
    await onInstallsPage(async ({ served, context, tab, page }) => {
      await runtimeBox(page, "Claude Code").check();
      await page.locator("#install-form").getByRole("button", { name: "Plan" }).click();
      const apply = page.locator("#install-plan").getByRole("button", { name: "Apply" });
      await apply.waitFor({ timeout: 15_000 });
      // As if the live stream had brought a newer state of the job before the Apply's answer came.
      await page.evaluate(() => {
        const element = (globalThis as unknown as { document: { getElementById(id: string): { setAttribute(n: string, v: string): void; textContent: string } } }).document.getElementById("install-progress");
        element.setAttribute("data-seq", "1000");
        element.textContent = "a newer state";
      });
      await apply.click();
      await expect.poll(async () => ((await (await context.request.get(`${served.url}/api/installs/job`)).json()) as { state: string }).state, { timeout: 20_000 }).toBe("done");
      await page.waitForTimeout(300);
      expect(await progress(page)).toBe("a newer state");
      await tab.assertClean();
    });
  }, TEST_MS);
});
