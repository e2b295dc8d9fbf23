// Installing a pack from the dashboard: the plan (a dry run, grouped by risk, with what the pack
// will run), Apply with the plan's id (a plan that changed since it was shown is refused, nothing
// written), a file of yours answered from the page, bad requests in one line — through the real
// `bosun serve`, with the CLI's planner, journal and locks underneath.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serveDashboard, signIn, type ServedDashboard } from "../fixtures/dashboard.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { packDir } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function world(): Promise<{ t: TempHome; served: ServedDashboard; post(path: string, body: unknown, raw?: boolean): Promise<{ status: number; json: Record<string, any> }> }> {
  const t = makeTempHome();
  const served = await serveDashboard(t);
  stops.push(() => served.stop());
  const cookie = await signIn(served.launchUrl);
  const page = await (await fetch(`${served.url}/installs`, { headers: { cookie } })).text();
  const csrf = /<meta name="bosun-csrf" content="([0-9a-f]+)"/.exec(page)?.[1] ?? "";
  const post = async (path: string, body: unknown, raw = false) => {
    const response = await fetch(`${served.url}${path}`, { method: "POST", headers: { cookie, origin: served.url, "x-bosun-csrf": csrf, "content-type": "application/json" }, body: raw ? String(body) : JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };
  return { t, served, post };
}

/** The agents' folders of the home: without bosun's own state and cache (its log has a line per request; the live views cache the catalog's status). */
const userTree = (t: TempHome) => Object.fromEntries(Object.entries(snapshotTree(t.home)).filter(([path]) => path !== "." && !path.startsWith(".local") && !path.startsWith(".cache")));

const groups = (report: Record<string, any>) => Object.fromEntries(report.targets.flatMap((target: any) => target.roots).map((root: any) => [root.dir, Object.fromEntries(Object.entries(root.counts).filter(([, n]) => (n as number) > 0))]));

describe("installing from the dashboard", () => {
  it("plans bosun's pack grouped by risk with the hooks it will run, applies exactly that plan, and the installs view shows it", async () => {
    const { t, post } = await world();
    const request = { runtimes: ["claude"], scope: "global" };
    const { status, json: plan } = await post("/api/installs/plan", request);
    expect(status).toBe(200);
    expect(plan.planId).toMatch(/^[0-9a-f]{32}$/);
    expect(plan.report.dryRun).toBe(true);
    expect(groups(plan.report)[join(t.home, ".claude")]).toMatchObject({ added: 12, config: 1 });
    expect(plan.report.audit.hooks.map((hook: any) => `${hook.hook} ${hook.event}`)).toEqual(["bosun-session-start SessionStart"]);
    expect(existsSync(join(t.home, ".claude"))).toBe(false);

    const applied = await post("/api/installs/apply", { ...request, planId: plan.planId });
    expect(applied.status, JSON.stringify(applied.json)).toBe(200);
    expect(applied.json).toMatchObject({ state: "done", request, report: { dryRun: false, pack: { name: "bosun" } } });
    expect(existsSync(join(t.home, ".claude/skills/bosun-orchestrator/SKILL.md"))).toBe(true);
    expect(readdirSync(join(t.home, ".claude/bosun-journal")).some((name) => name.endsWith(".jsonl"))).toBe(true);
    expect(readFileSync(join(t.paths.state, "logs", "bosun.log"), "utf8")).toContain('"install applied from the dashboard"');
  }, 60_000);

  it("refuses a plan that changed since it was shown, writing nothing, and a second plan applies", async () => {
    const { t, post } = await world();
    const pack = join(t.root, "demo");
    cpSync(packDir("demo-v1"), pack, { recursive: true });
    const request = { runtimes: ["claude"], scope: "global", pack };
    const first = (await post("/api/installs/plan", request)).json;
    // The pack gains a command after the plan was shown.
    writeFileSync(join(pack, "commands", "late.md"), "---\ndescription: added after the plan\n---\nlate\n");
    const json = JSON.parse(readFileSync(join(pack, "pack.json"), "utf8"));
    json.artifacts.commands.push("late");
    writeFileSync(join(pack, "pack.json"), JSON.stringify(json));
    const before = userTree(t);
    const stale = await post("/api/installs/apply", { ...request, planId: first.planId });
    expect(stale).toEqual({ status: 409, json: { error: "the plan changed since it was shown (a file or the pack changed): plan again, and check it" } });
    expect(userTree(t)).toEqual(before);
    const second = (await post("/api/installs/plan", request)).json;
    expect(second.planId).not.toBe(first.planId);
    expect((await post("/api/installs/apply", { ...request, planId: second.planId })).status).toBe(200);
    expect(existsSync(join(t.home, ".claude/commands/late.md"))).toBe(true);
  }, 60_000);

  it("a file of yours where the pack puts one is a question the page answers: unanswered is one line, keep leaves yours", async () => {
    const { t, post } = await world();
    t.write(join(t.home, ".claude/commands/bosun-status.md"), "mine\n");
    const request = { runtimes: ["claude"], scope: "global" };
    const plan = (await post("/api/installs/plan", request)).json;
    expect(groups(plan.report)[join(t.home, ".claude")]).toMatchObject({ "needs-choice": 1 });
    const unanswered = await post("/api/installs/apply", { ...request, planId: plan.planId });
    expect(unanswered).toEqual({ status: 400, json: { error: "choose keep or remove for commands/bosun-status.md" } });
    const kept = await post("/api/installs/apply", { ...request, planId: plan.planId, choices: { [`${join(t.home, ".claude")}|commands/bosun-status.md`]: "keep" } });
    expect(kept.status).toBe(200);
    expect(readFileSync(join(t.home, ".claude/commands/bosun-status.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(t.home, ".claude/commands/bosun-delegate.md"))).toBe(true);
  }, 60_000);

  it("bad requests are one line naming the field, and change nothing", async () => {
    const { t, post } = await world();
    const before = userTree(t);
    const cases: [unknown, boolean, string][] = [
      ["{ not json", true, "the request body must be a JSON object with runtimes, scope and (optionally) pack"],
      [{ runtimes: [], scope: "global" }, false, "runtimes: choose at least one runtime"],
      [{ runtimes: ["claude"], scope: "everywhere" }, false, "scope: use global or local"],
      [{ runtimes: ["Claude Code"], scope: "global" }, false, "runtimes: use runtime ids such as claude, codex"],
      [{ runtimes: ["nope"], scope: "global" }, false, ""],
      [{ runtimes: ["claude"], scope: "global", pack: join(t.root, "no-such-pack") }, false, ""],
    ];
    for (const [body, raw, message] of cases) {
      const answer = await post("/api/installs/plan", body, raw);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.json)).toEqual(["error"]);
      if (message) expect(answer.json.error).toBe(message);
      expect(String(answer.json.error).split("\n")).toHaveLength(1);
    }
    const apply = await post("/api/installs/apply", { runtimes: ["claude"], scope: "global", planId: "nope" });
    expect(apply).toEqual({ status: 400, json: { error: "planId: apply the plan the page showed (plan again)" } });
    expect(userTree(t)).toEqual(before);
  }, 60_000);
});
