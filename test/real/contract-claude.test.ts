// The real Claude Code is the judge of bosun's warning: with a `//` comment in settings.json it
// ignores the whole file, so bosun's SessionStart hook there does not fire; without it, it does.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { install } from "../fixtures/install.js";
import { realCli, runRealCli, type RealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** The SessionStart hooks the real Claude started in a headless run (no credentials, offline). */
async function sessionStartHooks(cli: RealCli, t: TempHome): Promise<number> {
  const run = await runRealCli(cli, ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "hello"], {
    home: t.home,
    env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
    timeoutMs: 60_000,
  });
  expect(run.timedOut).toBe(false);
  const events = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { type: string; subtype?: string; hook_event?: string });
  expect(events[0]?.subtype, run.stdout.slice(0, 300)).toBeDefined();
  return events.filter((event) => event.type === "system" && event.subtype === "hook_started" && event.hook_event === "SessionStart").length;
}

describe("Claude Code and a settings.json with comments", () => {
  it("does not run bosun's hook while the comment is there (as the plan warns), and runs it once it is gone", async () => {
    const cli = realCli("claude");
    const t = makeTempHome();
    const settings = join(t.home, ".claude", "settings.json");
    t.write(settings, '// my settings\n{ "cleanupPeriodDays": 30 }\n');
    const outcome = await install(t);
    expect(outcome.result.targets[0]!.roots[0]!.plan.notes[0]).toMatch(/^settings\.json has comments or trailing commas: Claude Code then ignores the whole file/);
    expect(readFileSync(settings, "utf8")).toContain("SessionStart");
    expect(await sessionStartHooks(cli, t)).toBe(0);
    writeFileSync(settings, readFileSync(settings, "utf8").replace("// my settings\n", ""));
    expect(await sessionStartHooks(cli, t)).toBe(1);
  }, 180_000);
});
