// The real CLIs judge bosun's event names and settings fragments, offline: Codex 0.171 lists a
// hook on every event bosun maps for it (app-server hooks/list), under that event; Claude Code
// runs hooks on SessionStart and SessionEnd from a settings.json that also holds a pack's
// statusLine, permissions and env (it would ignore the file if any had the wrong shape), and gives
// the hooks the env value.
// Gemini CLI 0.61 runs hooks on BeforeModel and PreCompress in a headless turn (its SessionEnd
// does not fire in -p mode, so that name is judged only by its bundle's event list).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLAUDE_HOOK_EVENTS, CODEX_HOOK_EVENTS } from "../../src/runtimes/kit/hook-events.js";
import { install } from "../fixtures/install.js";
import { codexAppServer, runRealCliWithModelServer } from "../fixtures/real-clis-loopback.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

/** A pack with one hook per event (`on-<event>`, running `command(event)`), and `settings`. */
function writePack(t: TempHome, events: readonly string[], command: (event: string) => string, settings?: unknown): string {
  const pack = t.write("pack/pack.json", JSON.stringify({ name: "real-events", version: "1.0.0", artifacts: { hooks: events.map((event) => `on-${event}`) }, ...(settings ? { settings } : {}) }));
  for (const event of events) t.write(`pack/hooks/on-${event}.json`, JSON.stringify({ event, command: command(event) }));
  return join(pack, "..");
}

describe("the real CLIs and bosun's hook events", () => {
  it("codex: app-server lists a hook on each event bosun maps for Codex, under that event, with no warning", async () => {
    const cli = realCli("codex");
    const t = makeTempHome();
    const events = Object.keys(CODEX_HOOK_EVENTS);
    const outcome = await install(t, { runtimes: ["codex"], pack: writePack(t, events, (event) => `echo ${event}`) });
    // The pack's 10 s timeout is more than Codex allows on two events: bosun lowers it, and says so.
    expect(outcome.result.targets[0]!.target.desired!.notes.filter((note) => note.includes("at most 3 s"))).toEqual([
      "hook on-session-end: OpenAI Codex CLI allows a hook on SessionEnd at most 3 s, so its timeout there is 3 s, not 10 s",
      "hook on-interrupt: OpenAI Codex CLI allows a hook on Interrupt at most 3 s, so its timeout there is 3 s, not 10 s",
    ]);
    const answer = (await codexAppServer(cli, { home: t.home, cwd: t.home, timeoutMs: 60_000 }, (call) => call("hooks/list", { cwds: [t.home] }))) as {
      data: { hooks: { eventName: string; command: string }[]; warnings: unknown[]; errors: unknown[] }[];
    };
    const listed = answer.data.flatMap((entry) => entry.hooks);
    // Codex reports its events in camelCase (SessionStart → sessionStart).
    const expected = Object.entries(CODEX_HOOK_EVENTS).map(([event, name]) => [`echo ${event}`, name![0]!.toLowerCase() + name!.slice(1)]);
    expect(listed.map((hook) => [hook.command, hook.eventName]).sort()).toEqual(expected.sort());
    expect(answer.data.flatMap((entry) => [...entry.warnings, ...entry.errors])).toEqual([]);
  }, 120_000);

  it("claude: SessionStart and SessionEnd hooks run from a settings.json holding a hook on every event bosun maps and the pack's statusLine, permissions and env, and see the env value", async () => {
    const cli = realCli("claude");
    const t = makeTempHome();
    const settings = { statusLine: { command: "echo line" }, permissions: { allow: ["Bash(git status:*)"], deny: ["Read(./.env)"] }, env: { REAL_EVENTS_MODE: "fast" } };
    // Claude Code ignores a settings file whose statusLine, permissions or env has the wrong shape
    // (checked by hand: then its SessionStart hook does not run); an event name it does not know it
    // skips quietly, so only SessionStart and SessionEnd judge the names here.
    const command = (event: string) => (event === "session-start" ? `printf '%s' "$REAL_EVENTS_MODE" > "$HOME/env-seen"` : event === "session-end" ? `touch "$HOME/session-ended"` : "true");
    await install(t, { pack: writePack(t, Object.keys(CLAUDE_HOOK_EVENTS), command, settings) });
    const written = JSON.parse(readFileSync(join(t.home, ".claude/settings.json"), "utf8"));
    expect(Object.keys(written).sort()).toEqual(["env", "hooks", "permissions", "statusLine"]);
    expect(Object.keys(written.hooks).sort()).toEqual(Object.values(CLAUDE_HOOK_EVENTS).sort());
    const run = await runRealCli(cli, ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "hello"], {
      home: t.home,
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
      timeoutMs: 60_000,
    });
    expect(run.timedOut).toBe(false);
    const events = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { type: string; subtype?: string; hook_event?: string });
    expect(events.filter((event) => event.subtype === "hook_started").map((event) => event.hook_event)).toContain("SessionStart");
    expect(readFileSync(join(t.home, "env-seen"), "utf8")).toBe("fast");
    expect(existsSync(join(t.home, "session-ended"))).toBe(true);
  }, 120_000);

  it("gemini: hooks on BeforeModel (pre-model) and PreCompress (pre-compact) run in a headless session against a loopback model", async () => {
    const cli = realCli("gemini");
    const t = makeTempHome();
    // A Gemini API key user's settings, bosun's hooks added beside them.
    t.write(join(t.home, ".gemini/settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }, null, 2) + "\n");
    const marks: Record<string, string> = { "pre-model": "before-model", "pre-compact": "pre-compress", "post-tool": "after-tool" };
    await install(t, { runtimes: ["gemini"], pack: writePack(t, Object.keys(marks), (event) => `touch "$HOME/${marks[event]}"`) });
    const hooks = JSON.parse(readFileSync(join(t.home, ".gemini/settings.json"), "utf8")).hooks;
    expect(Object.keys(hooks).sort()).toEqual(["AfterTool", "BeforeModel", "PreCompress"]);
    const { run, requests } = await runRealCliWithModelServer(cli, ["-p", "hello", "-o", "json"], {
      home: t.home,
      cwd: t.home,
      env: { GEMINI_API_KEY: "test-hook-events-0000", GOOGLE_GEMINI_BASE_URL: "{model-base}", GEMINI_CLI_TRUST_WORKSPACE: "true" },
      timeoutMs: 120_000,
    });
    expect(run.timedOut).toBe(false);
    expect(requests.length, run.stderr).toBeGreaterThan(0);
    // Gemini tries to compress the history before it sends; no tool ran (the model only answered 401).
    expect(Object.values(marks).filter((mark) => existsSync(join(t.home, mark)))).toEqual(["before-model", "pre-compress"]);
  }, 180_000);
});
