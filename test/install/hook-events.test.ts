// Hooks on the events beyond the first five (session-end, pre-compact, subagent-stop,
// file-changed, pre-model…): each runtime gets its own name for the ones it has, a runtime without
// one skips that hook with a note, and upgrade and uninstall change exactly bosun's entries.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../src/install/records/manifest.js";
import * as nodeFs from "node:fs";
import { install, uninstall } from "../fixtures/install.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

const HOOKS: Record<string, string> = { "on-end": "session-end", "on-compact": "pre-compact", "on-subagent": "subagent-stop", "on-file": "file-changed", "on-model": "pre-model" };

/** A pack with one hook per event; `events` overrides some of them (an upgrade that moves a hook). */
function writePack(t: TempHome, version: string, events: Record<string, string> = {}): string {
  const hooks = { ...HOOKS, ...events };
  const pack = t.write("pack/pack.json", JSON.stringify({ name: "eventful", version, artifacts: { hooks: Object.keys(hooks) } }));
  for (const [name, event] of Object.entries(hooks)) t.write(`pack/hooks/${name}.json`, JSON.stringify({ event, command: `echo ${name}` }));
  return join(pack, "..");
}

/** event → commands, of a nested hooks config. */
function registered(file: string): Record<string, string[]> {
  const hooks = (JSON.parse(readFileSync(file, "utf8")).hooks ?? {}) as Record<string, { hooks: { command: string }[] }[]>;
  return Object.fromEntries(Object.entries(hooks).map(([event, groups]) => [event, groups.flatMap((group) => group.hooks.map((hook) => hook.command))]));
}

function skippedOf(outcome: Awaited<ReturnType<typeof install>>, runtime: string): string[] {
  const target = outcome.result.targets.find(({ target }) => target.runtime.id === runtime)!.target;
  return target.desired!.skipped.map((entry) => `${entry.kind} ${entry.name}: ${entry.reason}`);
}

describe("hooks on every event a runtime has", () => {
  it("Claude, Codex and Gemini each get their own event names; an event a runtime lacks is a skipped hook, not an error", async () => {
    const t = makeTempHome();
    const outcome = await install(t, { runtimes: ["claude", "codex", "gemini"], pack: writePack(t, "1.0.0") });
    expect(registered(join(t.home, ".claude/settings.json"))).toEqual({ SessionEnd: ["echo on-end"], PreCompact: ["echo on-compact"], SubagentStop: ["echo on-subagent"], FileChanged: ["echo on-file"] });
    expect(registered(join(t.home, ".codex/hooks.json"))).toEqual({ SessionEnd: ["echo on-end"], PreCompact: ["echo on-compact"], SubagentStop: ["echo on-subagent"] });
    expect(registered(join(t.home, ".gemini/settings.json"))).toEqual({ SessionEnd: ["echo on-end"], PreCompress: ["echo on-compact"], BeforeModel: ["echo on-model"] });
    expect(skippedOf(outcome, "claude")).toEqual(["hook on-model: Claude Code has no pre-model hook event"]);
    expect(skippedOf(outcome, "codex")).toEqual(["hook on-file: OpenAI Codex CLI has no file-changed hook event", "hook on-model: OpenAI Codex CLI has no pre-model hook event"]);
    expect(skippedOf(outcome, "gemini")).toEqual(["hook on-subagent: Gemini CLI has no subagent-stop hook event", "hook on-file: Gemini CLI has no file-changed hook event"]);
  });

  it("an upgrade that moves a hook to another event replaces bosun's entry in Claude, Codex and Gemini (dropped where the new event is missing); uninstall removes exactly bosun's entries", async () => {
    const t = makeTempHome();
    const claude = join(t.home, ".claude/settings.json");
    const gemini = join(t.home, ".gemini/settings.json");
    const mine = { PreCompact: [{ hooks: [{ type: "command", command: "echo mine" }] }] };
    t.write(claude, JSON.stringify({ model: "opus", hooks: mine }, null, 2) + "\n");
    const before = readFileSync(claude, "utf8");
    const codex = join(t.home, ".codex/hooks.json");
    await install(t, { runtimes: ["claude", "gemini", "codex"], pack: writePack(t, "1.0.0") });
    expect(registered(claude).PreCompact).toEqual(["echo mine", "echo on-compact"]);

    // on-compact moves to post-compact: Claude has it, Gemini does not.
    const outcome = await install(t, { runtimes: ["claude", "gemini", "codex"], pack: writePack(t, "1.1.0", { "on-compact": "post-compact" }) });
    expect(registered(codex)).toEqual({ SessionEnd: ["echo on-end"], PostCompact: ["echo on-compact"], SubagentStop: ["echo on-subagent"] });
    expect(registered(claude).PreCompact).toEqual(["echo mine"]);
    expect(registered(claude).PostCompact).toEqual(["echo on-compact"]);
    expect(registered(gemini).PreCompress).toBeUndefined();
    expect(skippedOf(outcome, "gemini")).toContain("hook on-compact: Gemini CLI has no post-compact hook event");
    const { manifest } = readManifest(nodeFs, join(t.home, ".claude/bosun-manifest.json"));
    expect(manifest.config.filter((record) => record.kind === "hook").map((record) => (record.kind === "hook" ? `${record.hook} ${record.event}` : ""))).toEqual(
      expect.arrayContaining(["on-compact PostCompact", "on-end SessionEnd", "on-subagent SubagentStop", "on-file FileChanged"]),
    );

    await uninstall(t, { runtimes: ["claude", "gemini", "codex"], pack: writePack(t, "1.1.0", { "on-compact": "post-compact" }) });
    expect(readFileSync(claude, "utf8")).toBe(before);
    expect(nodeFs.existsSync(gemini)).toBe(false);
    expect(nodeFs.existsSync(codex)).toBe(false);
  });

  it("a hook on an event no runtime of the run has installs nothing and says so for each", async () => {
    const t = makeTempHome();
    const pack = t.write("pack/pack.json", JSON.stringify({ name: "solo", version: "1.0.0", artifacts: { hooks: ["on-interrupt"] } }));
    t.write("pack/hooks/on-interrupt.json", JSON.stringify({ event: "interrupt", command: "echo stop" }));
    const outcome = await install(t, { runtimes: ["claude", "gemini"], pack: join(pack, "..") });
    expect(skippedOf(outcome, "claude")).toEqual(["hook on-interrupt: Claude Code has no interrupt hook event"]);
    expect(skippedOf(outcome, "gemini")).toEqual(["hook on-interrupt: Gemini CLI has no interrupt hook event"]);
    expect(nodeFs.existsSync(join(t.home, ".claude/settings.json"))).toBe(false);
  });
});
