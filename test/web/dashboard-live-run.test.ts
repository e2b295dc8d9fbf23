// A live `bosun run` on the dashboard, all real: the `bosun run` process (scripted model server on
// 127.0.0.1), its control socket, `bosun serve`, and headless Chromium. The session's page shows
// the sub-agent tree as it grows and ends, an approval question the run (without a terminal) asks
// there while the page is open, answered in the page with the terminal's three answers, a
// dangerous call denied there, one sub-agent cancelled from the page while the others go on, and
// the transcript growing without a reload. The same through the API: its refusals (no run, a
// question answered already, a bad answer) and Stop.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { reachesLive, signInWith, useBrowser, watchedPage } from "../fixtures/browser.js";
import { BOSUN_BIN } from "../fixtures/cli.js";
import { serveDashboard, signIn, type ServedDashboard } from "../fixtures/dashboard.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";
import { KEYS, spawnInTerminal } from "../fixtures/pty.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";
import { startBosun, type FleetProcess } from "../fixtures/queue-fleet.js";
import { seriousAxeViolations } from "../fixtures/axe.js";

const browser = useBrowser();
const llm = useLlmServer();
const TEST_MS = 90_000;

/** A `bosun run` without a terminal: its stdout, stderr and exit, and the session id it printed. */
type Run = FleetProcess & { session(): Promise<string> };

/** The scripted model, as `bosun run` is told of it. */
const runEnv = (t: TempHome) => ({ ...t.env, NO_COLOR: "1", BOSUN_DEV_MODEL: JSON.stringify({ provider: "scripted", model: "m1", npm: "@ai-sdk/openai-compatible", baseURL: llm.openaiURL, context: 50_000, output: 2_000 }) });

function startRun(t: TempHome, args: string[]): Run {
  const run = startBosun(["run", ...args], runEnv(t), t.home);
  return { ...run, session: async () => (await run.waitFor(/bosun: session (\S+)/, 10_000))[1]! };
}

/** A promise the test resolves: when a scripted reply may come. */
function latch(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** The row of sub-agent `seq` in the live tree. */
const row = (page: Page, seq: number) => page.locator(`#subagent-${seq}`);

async function withDashboard(body: (t: TempHome, served: ServedDashboard) => Promise<void>): Promise<void> {
  const t = makeTempHome();
  t.write(join(t.paths.config, "bosun.json"), '{ "subagents": { "concurrency": 3 } }');
  const served = await serveDashboard(t);
  try {
    await body(t, served);
  } finally {
    expect(await served.stop(), `bosun serve's stderr:\n${served.stderr()}`).toBe(0);
  }
}

describe("a live bosun run on the dashboard", () => {
  it(
    "shows the sub-agent tree live, asks the run's approvals in the page, cancels one sub-agent, and the transcript grows without a reload",
    async () => {
      await withDashboard(async (t, served) => {
        const chromium = await browser();
        const context: BrowserContext = await chromium.newContext();
        try {
          const tab = await watchedPage(context, served.url);
          const page = tab.page;
          page.on("dialog", (dialog) => void dialog.accept());
          await signInWith(page, served.launchUrl);
          await page.goto(`${served.url}/sessions`);
          await reachesLive(page);

          const gammaMayAnswer = latch();
          llm.onPrompt("review the modules").reply().text("Delegating.").tool("agent", { tasks: ["check alpha", "check beta", "check gamma"] });
          llm.onPrompt("check alpha").reply().barrier("first turns", 3).tool("bash", { command: "touch alpha-checked" });
          llm.onPrompt("check alpha").reply().text("alpha is fine");
          // Beta thinks for as long as it is let: until it is cancelled.
          llm.onPrompt("check beta").reply().barrier("first turns", 3).text("thinking").hang();
          llm.onPrompt("check gamma").reply().barrier("first turns", 3).after(gammaMayAnswer.promise).tool("bash", { command: "rm -rf gamma-build" });
          llm.onPrompt("check gamma").reply().text("gamma left as it was");
          llm.onPrompt("review the modules").reply().text("Reviewed.");
          t.write(join(t.home, "gamma-build", "out.txt"), "built");

          const run = startRun(t, ["review the modules"]);
          const session = await run.session();
          // The sessions list marks it running, live.
          await page.locator("#sessions-list tr", { hasText: session }).or(page.locator("#sessions-list a", { hasText: "review the modules" })).first().waitFor();
          await page.goto(`${served.url}/sessions/${session}`);
          const panel = page.locator(`#live-run-${session}`);

          // The tree: three sub-agents, running.
          for (const seq of [1, 2, 3]) await row(page, seq).locator("td", { hasText: "running" }).first().waitFor();
          // Alpha's command waits for an approval: asked in the page, since no terminal can.
          const alphaQuestion = panel.locator("form.question", { hasText: "touch alpha-checked" });
          await alphaQuestion.waitFor({ timeout: 10_000 }).catch((error: Error) => {
            throw new Error(`${error.message}\nbosun run's stderr:\n${run.stderr()}\npanel: ${JSON.stringify(page.url())}`);
          });
          await expect(alphaQuestion.locator("h3").innerText()).resolves.toMatch(/^sub-agent #\d: bash needs your approval$/);
          expect(existsSync(join(t.home, "alpha-checked"))).toBe(false);
          await page.locator("#approvals-banner a", { hasText: "bash" }).waitFor();
          await screenshot(t, page, "session-live");
          // axe-core in a context of its own that lets its script in (bypassCSP), on the same live page.
          const audit = await chromium.newContext({ bypassCSP: true });
          try {
            const auditPage = await audit.newPage();
            await signInWith(auditPage, await served.nextLink());
            await auditPage.goto(`${served.url}/sessions/${session}`);
            await auditPage.locator("form.question").first().waitFor();
            expect(await seriousAxeViolations(auditPage, "a session with a live run")).toEqual([]);
          } finally {
            await audit.close();
          }
          await alphaQuestion.getByRole("button", { name: "Allow once" }).click();
          await panel.locator("tr", { hasText: "check alpha" }).locator("td", { hasText: "completed" }).waitFor();
          expect(existsSync(join(t.home, "alpha-checked"))).toBe(true);

          // Gamma's dangerous command: the same question as on a terminal, denied here.
          gammaMayAnswer.open();
          const gammaQuestion = panel.locator("form.question", { hasText: "rm -rf gamma-build" });
          await gammaQuestion.waitFor();
          await expect(gammaQuestion.locator("h3").innerText()).resolves.toMatch(/bash wants to run something dangerous$/);
          // From the keyboard: the answers are buttons that take the focus.
          await gammaQuestion.getByRole("button", { name: "Deny" }).focus();
          await page.keyboard.press("Enter");
          await panel.locator("tr", { hasText: "check gamma" }).locator("td", { hasText: "completed" }).waitFor();
          expect(existsSync(join(t.home, "gamma-build", "out.txt"))).toBe(true);

          // Beta still thinks: cancelled from its row; the agent that started it reads why.
          const beta = panel.locator("tr", { hasText: "check beta" });
          await beta.getByRole("button", { name: /Cancel/ }).click();
          expect(await run.exited).toBe(0);
          expect(run.stdout()).toBe("Delegating.\nReviewed.\n");
          expect(run.stderr()).toContain("allowed once on the dashboard");
          expect(run.stderr()).toContain("denied on the dashboard");
          expect(run.stderr()).toMatch(/sub-agent \S+ cancelled from the dashboard/);
          const report = llm.requests.at(-1)!.text;
          expect(report).toContain("cancelled by the user (from the dashboard)");
          expect(report).toContain("alpha is fine");

          // The transcript grew while the page was open; the panel says the run is gone.
          await page.locator(`#transcript-${session}`, { hasText: "Reviewed." }).waitFor();
          await panel.getByText("No bosun run is working on this session now.").waitFor();
          await tab.assertClean();
        } finally {
          await context.close();
        }
      });
    },
    TEST_MS,
  );

  it(
    "through the API: a run's question answered once, a second answer refused, bad input refused, and Stop ends the turn; with no page open a run without a terminal is refused at once",
    async () => {
      await withDashboard(async (t, served) => {
        const { cookie, get, post, question: questionOf } = await apiClient(served);
        // No page open (no live stream): the question cannot be asked anywhere, so it is refused at once.
        llm.onPrompt("tidy up").reply().tool("bash", { command: "touch tidied" });
        llm.onPrompt("tidy up").reply().text("Could not tidy.");
        const refused = startRun(t, ["tidy up"]);
        expect(await refused.exited).toBe(3);
        expect(existsSync(join(t.home, "tidied"))).toBe(false);

        // A live stream open (a page): the run's question waits for it.
        const stream = new AbortController();
        const live = await fetch(`${served.url}/live`, { headers: { cookie }, signal: stream.signal });
        expect(live.status).toBe(200);
        try {
          llm.onPrompt("write the notes").reply().tool("bash", { command: "touch notes" });
          const notesMayEnd = latch();
          llm.onPrompt("write the notes").reply().after(notesMayEnd.promise).text("Wrote the notes.");
          const run = startRun(t, ["write the notes"]);
          const session = await run.session();
          const question = await questionOf(session);
          expect(question.tool).toBe("bash");

          for (const [body, status, error] of [
            ["{not json", 400, "answer: use once, session or deny"],
            [{ answer: "always" }, 400, "answer: use once, session or deny"],
          ] as const) {
            const response = await post(`/api/sessions/${session}/approvals/${question.id}`, body);
            expect(response.status).toBe(status);
            expect(((await response.json()) as { error: string }).error).toBe(error);
          }
          expect((await post(`/api/sessions/no-such-session/stop`)).status).toBe(404);
          expect(existsSync(join(t.home, "notes"))).toBe(false);

          const answered = await post(`/api/sessions/${session}/approvals/${question.id}`, { answer: "session" });
          expect(answered.status).toBe(200);
          expect(await answered.json()).toEqual({ ok: true, message: "allowed for this session" });
          const again = await post(`/api/sessions/${session}/approvals/${question.id}`, { answer: "deny" });
          expect(again.status).toBe(409);
          expect(((await again.json()) as { error: string }).error).toMatch(/is not open any more/);
          notesMayEnd.open();
          expect(await run.exited).toBe(0);
          expect(existsSync(join(t.home, "notes"))).toBe(true);

          // Stop: the turn ends as with Ctrl-C (130), the session saved.
          llm.onPrompt("think hard").reply().text("hmm").hang();
          const long = startRun(t, ["--yes", "think hard"]);
          const longSession = await long.session();
          for (let i = 0; i < 200; i++) {
            const found = (await get(`/api/sessions/${longSession}`)).live as { turn: { ended: unknown } | null } | null;
            if (found?.turn && found.turn.ended === null) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          const stopped = await post(`/api/sessions/${longSession}/stop`);
          expect(stopped.status).toBe(200);
          expect(await long.exited).toBe(130);
          expect(long.stderr()).toContain("stopping: asked from the dashboard");
          expect((await post(`/api/sessions/${longSession}/stop`)).status).toBe(404);
        } finally {
          stream.abort();
        }
      });
    },
    TEST_MS,
  );

  it(
    "a run on a terminal asks there and on the page at once: the page's answer clears the terminal's question, the terminal's answer withdraws the page's",
    async () => {
      await withDashboard(async (t, served) => {
        const api = await apiClient(served);
        const stream = new AbortController();
        await fetch(`${served.url}/live`, { headers: { cookie: api.cookie }, signal: stream.signal });
        try {
          for (const name of ["alpha", "beta"]) t.write(join(t.home, `${name}-build`, "out.txt"), "built");
          llm.onPrompt("clean both").reply().tool("bash", { command: "rm -rf alpha-build" });
          llm.onPrompt("clean both").reply().tool("bash", { command: "rm -rf beta-build" });
          llm.onPrompt("clean both").reply().text("Cleaned alpha.");
          const term = spawnInTerminal([process.execPath, BOSUN_BIN, "run", "--yes", "clean both"], { env: runEnv(t), cwd: t.home });
          const session = /bosun: session (\S+)/.exec(await term.waitFor(/bosun: session \S+/))![1]!;
          // Dangerous even with --yes: asked on the terminal, and on the page.
          await term.waitFor("allow [o]nce, [a]lways for this session, or [d]eny? ");
          const first = await api.question(session);
          expect(first).toMatchObject({ tool: "bash", description: "$ rm -rf alpha-build", danger: expect.stringContaining("recursive force delete") });
          expect((await api.post(`/api/sessions/${session}/approvals/${first.id}`, { answer: "once" })).status).toBe(200);
          await term.waitFor("allowed once on the dashboard");
          // The next question: answered on the terminal; the page's copy goes away.
          await term.waitFor("allow [o]nce, [a]lways for this session, or [d]eny? ");
          const second = await api.question(session);
          expect(second.description).toBe("$ rm -rf beta-build");
          term.type("d" + KEYS.enter);
          await term.waitFor("Cleaned alpha.");
          expect(await term.exit, term.text()).toBe(0);
          expect((await api.post(`/api/sessions/${session}/approvals/${second.id}`, { answer: "once" })).status).toBe(404);
          expect(existsSync(join(t.home, "alpha-build"))).toBe(false);
          expect(existsSync(join(t.home, "beta-build", "out.txt"))).toBe(true);
          expect(term.text().match(/allowed once on the dashboard/g)).toHaveLength(1);
          // The terminal's question was given up (its line ended) before the run said who answered.
          expect(term.text()).toMatch(/\[d\]eny\? \nbosun: allowed once on the dashboard\n/);
        } finally {
          stream.abort();
        }
      });
    },
    TEST_MS,
  );
});

/** Signed in to the API without a browser: GET and POST with the cookie, the CSRF header and the dashboard's Origin. */
async function apiClient(served: ServedDashboard) {
  const cookie = await signIn(served.launchUrl);
  const home = await fetch(served.url, { headers: { cookie } });
  const csrf = /name="bosun-csrf" content="([^"]+)"/.exec(await home.text())![1]!;
  const get = async (path: string) => (await fetch(`${served.url}${path}`, { headers: { cookie } })).json() as Promise<Record<string, unknown>>;
  return {
    cookie,
    get,
    post: (path: string, body?: unknown) =>
      fetch(`${served.url}${path}`, { method: "POST", headers: { cookie, "x-bosun-csrf": csrf, "content-type": "application/json", origin: served.url, "sec-fetch-site": "same-origin" }, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) }),
    /** The first question the run on `session` waits on, once there is one. */
    async question(session: string): Promise<{ id: string; tool: string; description: string; danger: string | null }> {
      for (let i = 0; i < 200; i++) {
        const live = (await get(`/api/sessions/${session}`)).live as { approvals: { id: string; tool: string; description: string; danger: string | null }[] } | null;
        if (live?.approvals[0]) return live.approvals[0];
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no question of session ${session} came to the dashboard in 10 s`);
    },
  };
}

/** A full-page screenshot into BOSUN_SCREENSHOTS (the README's pictures) when set, else the test's own folder; a real picture either way. */
async function screenshot(t: TempHome, page: Page, name: string): Promise<void> {
  const file = join(process.env.BOSUN_SCREENSHOTS ? resolve(process.env.BOSUN_SCREENSHOTS) : join(t.root, "screenshots"), `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(statSync(file).size, file).toBeGreaterThan(5 * 1024);
  expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
}
