// The real CLIs judge the two gsd packs (get-shit-done 1.42.3 and gsd-core 1.14.0, each made by
// `bosun pack import` from its anchor's own Claude Code install), offline: installed with bosun
// (global) into Claude Code 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0 and OpenCode 1.18.33, each
// CLI lists every skill and agent of the pack by name (compared with the pack's whole list, less
// what bosun's plan said it skipped there, and that list is checked too), and the hooks where the
// CLI can show them; then `bosun doctor --json` says the same, artifact by artifact.
//
// What a CLI cannot show offline (/work/shared/reference/real-clis.md) is said where it applies:
// Claude lists no hooks and runs only SessionStart's before it asks a model; Gemini lists neither
// agents nor hooks (its agents and a SessionStart hook's output are seen in the request it sends
// a loopback model server); OpenCode gets no hooks from bosun (it runs hooks only as JS plugins,
// and bosun's plan says so). The gsd packs ship no commands (gsd's commands are skills).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack } from "../../scripts/anchor-packs.mjs";
import type { Env } from "../../src/kernel/paths.js";
import { parseFrontmatter } from "../../src/install/pack/frontmatter.js";
import { CLAUDE_HOOK_EVENTS, CODEX_HOOK_EVENTS, GEMINI_HOOK_EVENTS, type HookEvent, type HookEventNames } from "../../src/runtimes/kit/hook-events.js";
import { runBinAsync } from "../fixtures/cli.js";
import { stage, type Stage } from "../fixtures/conformance.js";
import { bodyStrings, codexAppServer, runRealCliWithModelServer, trustCodexHooks } from "../fixtures/real-clis-loopback.js";
import { realCli, runRealCli } from "../fixtures/real-clis.js";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const RUNTIMES = ["claude", "codex", "gemini", "opencode"] as const;
type Runtime = (typeof RUNTIMES)[number];

interface PackHook {
  name: string;
  event: HookEvent;
  command: string;
  matcher?: string;
}

/** A gsd pack as bosun imported it: its folder and the whole list of what it ships. */
interface GsdPack {
  dir: string;
  name: string;
  skills: string[];
  agents: string[];
  /** Each agent's frontmatter name (a variant `gsd-planner.compact` names itself `gsd-planner`). */
  agentNames: Record<string, string>;
  hooks: PackHook[];
}

function readPack(dir: string): GsdPack {
  const manifest = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8")) as { name: string; artifacts: { skills?: string[]; commands?: string[]; agents?: string[]; hooks?: string[] } };
  const { artifacts } = manifest;
  expect(artifacts.commands ?? [], "a gsd pack's commands are skills").toEqual([]);
  const agents = artifacts.agents ?? [];
  const agentNames = Object.fromEntries(agents.map((agent) => {
    const file = join(dir, "agents", `${agent}.md`);
    const named = parseFrontmatter(readFileSync(file, "utf8"), file).data.name;
    return [agent, typeof named === "string" ? named : agent];
  }));
  const hooks = (artifacts.hooks ?? []).map((name) => ({ name, ...(JSON.parse(readFileSync(join(dir, "hooks", `${name}.json`), "utf8")) as Omit<PackHook, "name">) }));
  return { dir, name: manifest.name, skills: [...(artifacts.skills ?? [])].sort(), agents: [...agents].sort(), agentNames, hooks };
}

const PACKS: { id: "get-shit-done-cc" | "opengsd-gsd-core"; title: string }[] = [
  { id: "get-shit-done-cc", title: "get-shit-done 1.42.3" },
  { id: "opengsd-gsd-core", title: "gsd-core 1.14.0" },
];

let built: string;
const packs = new Map<string, GsdPack>();
beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), "bosun-gsd-packs-"));
  for (const { id } of PACKS) {
    const pin = ANCHOR_PACKS.find((entry) => entry.id === id)!;
    const found = findAnchorPack(id);
    if (!found) throw new Error(`the anchor ${pin.pkg}@${pin.version} is not here: run node scripts/anchor-packs.mjs install`);
    packs.set(id, readPack(buildAnchorBosunPack(pin, found, { BOSUN_PACKS_DIR: built })));
  }
}, 120_000);
afterAll(() => rmSync(built, { recursive: true, force: true }));

type Skipped = Record<"skill" | "agent" | "hook", string[]>;

/** `bosun install <pack> --runtime R --scope global --json` in the stage; what its plan skipped, per runtime and kind. */
async function install(s: Stage, pack: GsdPack, runtimes: string): Promise<Record<string, Skipped>> {
  const result = await s.bosun(["install", pack.dir, "--runtime", runtimes, "--scope", "global", "--yes", "--no-verify", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  const outcome = JSON.parse(result.stdout) as { targets: { runtime: string; skipped: { kind: string; name: string; reason: string }[] }[] };
  return Object.fromEntries(outcome.targets.map((target) => {
    const of = (kind: string) => target.skipped.filter((entry) => entry.kind === kind).map((entry) => `${entry.name}: ${entry.reason}`).sort();
    return [target.runtime, { skill: of("skill"), agent: of("agent"), hook: of("hook") }];
  }));
}

/** The pack's hooks a runtime has an event for, and the skip line bosun gives for the others. */
function hooksFor(pack: GsdPack, events: HookEventNames, title: string): { kept: (PackHook & { as: string })[]; skipped: string[] } {
  const kept = pack.hooks.flatMap((hook) => (events[hook.event] ? [{ ...hook, as: events[hook.event]! }] : []));
  const skipped = pack.hooks.filter((hook) => !events[hook.event]).map((hook) => `${hook.name}: ${title} has no ${hook.event} hook event`).sort();
  return { kept, skipped };
}

const gsdNames = (names: Iterable<string>) => [...new Set([...names].filter((name) => name.startsWith("gsd-")))].sort();
const dotted = (name: string) => name.includes(".");
/** A command as the pack wrote it, `{pack-dir}` standing for the folder bosun put the pack's files in. */
const commandPattern = (command: string) => new RegExp(`^${command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\{pack-dir\\}", "(/\\S+)")}$`);

/** A project gsd's SessionStart hook reports on (it prints the head of .planning/STATE.md once the project opts in). */
function plantPlanning(s: Stage): string {
  const marker = `gsd-state-marker-${process.pid}`;
  s.t.write(join(s.project, ".planning/config.json"), JSON.stringify({ hooks: { community: true }, mode: "yolo" }));
  s.t.write(join(s.project, ".planning/STATE.md"), `# State\n${marker}\n`);
  return marker;
}

describe.each(PACKS)("$title in the real CLIs", ({ id }) => {
  const pack = () => packs.get(id)!;

  it("Claude Code: its init line lists every skill and agent; gsd's SessionStart hooks run and print the project's state", async () => {
    const s = stage("claude");
    const skipped = (await install(s, pack(), "claude")).claude!;
    expect(skipped).toEqual({ skill: [], agent: [], hook: [] });
    const marker = plantPlanning(s);
    const run = await s.run(["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "hello"]);
    expect(run.timedOut).toBe(false);
    const events = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    const init = events.find((event) => event.subtype === "init") as { skills: string[]; slash_commands: string[]; agents: string[] } | undefined;
    expect(init, run.stdout.slice(0, 300)).toBeDefined();
    expect(gsdNames(init!.skills)).toEqual(pack().skills);
    expect(gsdNames(init!.slash_commands)).toEqual(pack().skills);
    // Claude names an agent by its frontmatter: a variant and its base agent are one agent there.
    expect(gsdNames(init!.agents)).toEqual(gsdNames(Object.values(pack().agentNames)));
    // Claude lists no hooks (real-clis.md §4.1): only SessionStart's run before it would ask the model.
    const starts = pack().hooks.filter((hook) => hook.event === "session-start");
    expect(starts.length).toBeGreaterThan(0);
    const responses = events.filter((event) => event.subtype === "hook_response" && event.hook_event === "SessionStart") as { outcome: string; stdout: string }[];
    expect(responses.map((response) => response.outcome)).toEqual(starts.map(() => "success"));
    expect(responses.some((response) => response.stdout.includes(marker)), JSON.stringify(responses).slice(0, 400)).toBe(true);
  }, 180_000);

  it("Codex: app-server lists every skill from ~/.agents/skills, and each hook bosun registered under its event, waiting for trust", async () => {
    const s = stage("codex");
    const skipped = (await install(s, pack(), "codex")).codex!;
    const hooks = hooksFor(pack(), CODEX_HOOK_EVENTS, "OpenAI Codex CLI");
    expect(skipped).toEqual({ skill: [], agent: pack().agents.map((agent) => `${agent}: Codex 0.171 has no agent definition files bosun can rely on`).sort(), hook: hooks.skipped });
    const options = { home: s.t.home, cwd: s.project, timeoutMs: 90_000 };
    type Listed = { data: { skills?: { name: string; path: string }[]; hooks?: { eventName: string; command: string; matcher: string | null; trustStatus: string }[]; errors: unknown[]; warnings?: unknown[] }[] };
    const answers = await codexAppServer(s.cli, options, async (call) => ({
      skills: (await call("skills/list", { cwds: [s.project], forceReload: true })) as Listed,
      hooks: (await call("hooks/list", { cwds: [s.project] })) as Listed,
    }));
    const skills = answers.skills.data.flatMap((entry) => entry.skills ?? []).filter((skill) => skill.name.startsWith("gsd-"));
    expect(skills.map((skill) => skill.name).sort()).toEqual(pack().skills);
    expect(skills.every((skill) => skill.path === join(s.t.home, ".agents/skills", skill.name, "SKILL.md"))).toBe(true);
    expect(answers.skills.data.flatMap((entry) => entry.errors)).toEqual([]);
    const listed = answers.hooks.data.flatMap((entry) => entry.hooks ?? []);
    expect(answers.hooks.data.flatMap((entry) => [...entry.errors, ...(entry.warnings ?? [])])).toEqual([]);
    expect(listed).toHaveLength(hooks.kept.length);
    const unmatched = [...listed];
    for (const hook of hooks.kept) {
      // Codex reports its events in camelCase (PreToolUse → preToolUse).
      const event = hook.as[0]!.toLowerCase() + hook.as.slice(1);
      const at = unmatched.findIndex((entry) => entry.eventName === event && (entry.matcher || undefined) === hook.matcher && commandPattern(hook.command).test(entry.command));
      expect(at, `${hook.name} (${event}) is not listed`).toBeGreaterThanOrEqual(0);
      const packDir = commandPattern(hook.command).exec(unmatched[at]!.command)![1]!;
      expect(existsSync(packDir), packDir).toBe(true);
      unmatched.splice(at, 1);
    }
    expect(new Set(listed.map((entry) => entry.trustStatus))).toEqual(new Set(["untrusted"]));
    // Trusted the way Codex's own review screen does it, every one of them is then trusted.
    const trusted = await trustCodexHooks(s.cli, options, s.project);
    expect(trusted.map((entry) => entry.trustStatus)).toEqual(hooks.kept.map(() => "trusted"));
  }, 180_000);

  it("Gemini CLI: skills list has every skill; the model is sent every agent and gsd's SessionStart hook output", async () => {
    const s = stage("gemini");
    // A Gemini API key user's settings (for the loopback model run), bosun's hooks added beside them.
    s.t.write(join(s.t.home, ".gemini/settings.json"), `${JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }, null, 2)}\n`);
    const skipped = (await install(s, pack(), "gemini")).gemini!;
    const hooks = hooksFor(pack(), GEMINI_HOOK_EVENTS, "Gemini CLI");
    const variants = pack().agents.filter(dotted);
    expect(skipped).toEqual({
      skill: [],
      agent: variants.map((agent) => `${agent}: Gemini CLI takes no dots in agent names; ${agent} is a variant of agent ${pack().agentNames[agent]}, which is installed`).sort(),
      hook: hooks.skipped,
    });
    const list = await s.run(["skills", "list"], { GEMINI_CLI_TRUST_WORKSPACE: "true" });
    expect(list.code, list.stderr).toBe(0);
    const text = `${list.stdout}\n${list.stderr}`.replace(ANSI, "");
    expect(gsdNames([...text.matchAll(/^(\S+) \[Enabled\]/gm)].map((match) => match[1]!))).toEqual(pack().skills);
    expect(text.split("\n").filter((line) => !/^\s*Description:/.test(line) && /conflict|error|failed|invalid|disabled/i.test(line))).toEqual([]);
    // Agents and hooks: Gemini lists neither offline (real-clis.md §4.3); what it sends a model shows both.
    const marker = plantPlanning(s);
    const { run, requests } = await runRealCliWithModelServer(s.cli, ["-p", "hello", "-o", "json"], {
      home: s.t.home,
      cwd: s.project,
      env: { GEMINI_API_KEY: "test-gsd-real-0000", GOOGLE_GEMINI_BASE_URL: "{model-base}", GEMINI_CLI_TRUST_WORKSPACE: "true" },
      timeoutMs: 120_000,
    });
    expect(run.timedOut).toBe(false);
    const sent = requests.flatMap(bodyStrings).join("\n");
    expect(sent.length, run.stderr.slice(0, 400)).toBeGreaterThan(0);
    const subagents = [...sent.matchAll(/<subagent>\s*<name>([^<]+)<\/name>/g)].map((match) => match[1]!);
    expect(gsdNames(subagents)).toEqual(pack().agents.filter((agent) => !dotted(agent)));
    // gsd's SessionStart hook ran and its output reached the model; the other events need a tool call or a turn's end.
    expect(sent).toContain(`<hook_context>## Project State Reminder`);
    expect(sent).toContain(marker);
    expect(run.stderr.split("\n").filter((line) => /hook/i.test(line))).toEqual([]);
  }, 240_000);

  it("OpenCode: debug skill and debug config list every skill and agent, each agent a parsed sub-agent; no hooks (bosun renders none)", async () => {
    const s = stage("opencode");
    const skipped = (await install(s, pack(), "opencode")).opencode!;
    const why = "OpenCode runs hooks only as JS plugins (its config's experimental.hook is ignored by 1.18), so bosun registers none";
    expect(skipped).toEqual({ skill: [], agent: [], hook: pack().hooks.map((hook) => `${hook.name}: ${why}`).sort() });
    const skillText = (await opencodeDebug(s, "skill")).replace(ANSI, "");
    const listedSkills = JSON.parse(skillText.slice(skillText.indexOf("["))) as { name: string; location: string }[];
    expect(gsdNames(listedSkills.map((entry) => entry.name))).toEqual(pack().skills);
    expect(listedSkills.filter((entry) => entry.name.startsWith("gsd-")).every((entry) => entry.location === join(s.t.home, ".config/opencode/skills", entry.name, "SKILL.md"))).toBe(true);
    const parsed = JSON.parse((await opencodeDebug(s, "config")).replace(ANSI, "")) as { agent?: Record<string, { mode?: string; description?: string }>; command?: Record<string, unknown>; plugin?: unknown[] };
    expect(gsdNames(Object.keys(parsed.agent ?? {}))).toEqual(pack().agents);
    // A frontmatter OpenCode could not parse would leave the agent `mode: all` without a description (real-clis.md §4.4).
    for (const agent of pack().agents) expect(parsed.agent![agent], agent).toMatchObject({ mode: "subagent", description: expect.any(String) });
    expect(gsdNames(Object.keys(parsed.command ?? {}))).toEqual([]);
    expect(parsed.plugin ?? []).toEqual([]);
  }, 180_000);

  it("bosun doctor: after an install into all four, each artifact of the pack is loaded, waiting, or not checkable offline (with why), and no problem", async () => {
    const s = stage("claude");
    const skipped = await install(s, pack(), RUNTIMES.join(","));
    // With Codex there, Gemini reads the skills from ~/.agents/skills and keeps no copy.
    expect(skipped.gemini!.skill).toEqual(pack().skills.map((name) => `${name}: Gemini CLI also reads ~/.agents/skills, where bosun installs it for OpenAI Codex CLI`).sort());
    const report = await doctor(s);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    const p = pack();
    const expected: Record<Runtime, Record<string, string>> = { claude: {}, codex: {}, gemini: {}, opencode: {} };
    const set = (runtime: Runtime, key: string, verdict: string) => (expected[runtime][key] = verdict);
    const claudeHooks = "unchecked: not checkable offline: claude lists no hooks, and runs only its SessionStart hooks before a model is asked";
    for (const skill of p.skills) for (const runtime of RUNTIMES) set(runtime, `skill ${skill}`, "loaded");
    for (const agent of p.agents) {
      const named = p.agentNames[agent]!;
      set("claude", `agent ${agent}`, named === agent ? "loaded" : `unchecked: not checkable offline: its frontmatter names it ${named}, and claude lists an agent of that name without saying which file it took`);
      set("opencode", `agent ${agent}`, "loaded");
      if (!dotted(agent)) set("gemini", `agent ${agent}`, "unchecked: not checkable offline: gemini has no offline list of its agents");
    }
    for (const hook of hooksFor(p, CLAUDE_HOOK_EVENTS, "Claude Code").kept) set("claude", `hook ${hook.name}`, hook.event === "session-start" ? "loaded" : claudeHooks);
    for (const hook of hooksFor(p, CODEX_HOOK_EVENTS, "OpenAI Codex CLI").kept) set("codex", `hook ${hook.name}`, "waiting: codex runs it once you trust it (start codex: it asks to review new hooks)");
    for (const hook of hooksFor(p, GEMINI_HOOK_EVENTS, "Gemini CLI").kept) set("gemini", `hook ${hook.name}`, "unchecked: not checkable offline: gemini has no offline list of its hooks");
    for (const runtime of RUNTIMES) {
      const entry = report.runtimes.find((candidate) => candidate.runtime === runtime)!;
      expect(entry.probe?.failure, runtime).toBeUndefined();
      const got = Object.fromEntries(entry.artifacts.filter((artifact) => artifact.pack === p.name).map((artifact) => [`${artifact.kind} ${artifact.name}`, artifact.state === "loaded" || !artifact.reason ? artifact.state : `${artifact.state}: ${artifact.reason}`]));
      expect(got, runtime).toEqual(expected[runtime]);
    }
  }, 400_000);
});

/**
 * `opencode debug <what>`, its output written to a file: OpenCode 1.18.33 exits before a pipe
 * has taken all of a large output (a gsd pack's config, about 1 MB, arrives cut at 128 KiB).
 */
async function opencodeDebug(s: Stage, what: "config" | "skill"): Promise<string> {
  const out = join(s.t.home, ".tmp", `opencode-debug-${what}.json`);
  const launcher = ["sh", "-c", `exec "$@" > '${out}'`, "sh"];
  const full = await runRealCli(s.cli, ["debug", what], { home: s.t.home, cwd: s.project, env: { OPENCODE_DISABLE_MODELS_FETCH: "1", npm_config_offline: "true" }, launcher, timeoutMs: 90_000 });
  expect(full.code, full.stderr).toBe(0);
  return readFileSync(out, "utf8");
}

type DoctorReport = {
  ok: boolean;
  runtimes: { runtime: string; artifacts: { kind: string; name: string; pack: string; state: string; reason?: string }[]; probe: { failure?: string } | null }[];
  problems: { text: string }[];
};

/** `bosun doctor --json` as a user runs it (the built CLI, the real CLIs on the PATH), in a network namespace with only loopback up. */
async function doctor(s: Stage): Promise<DoctorReport> {
  const bins = RUNTIMES.map((id) => dirname(realCli(id).bin));
  const env: Env = { ...s.t.env, PATH: [...bins, dirname(process.execPath), "/usr/bin", "/bin"].join(":"), TMPDIR: join(s.t.home, ".tmp"), TERM: "dumb", LANG: "C.UTF-8" };
  mkdirSync(env.TMPDIR!, { recursive: true });
  const run = await runBinAsync(["doctor", "--json", "--timeout", "150"], env, { cwd: s.project, wrapper: ["unshare", "-n"], setup: "ip link set lo up", timeoutMs: 300_000 });
  expect(run.stdout.startsWith("{"), run.stderr).toBe(true);
  return JSON.parse(run.stdout) as DoctorReport;
}
