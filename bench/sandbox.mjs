// What bubblewrap costs bosun's tools, sandbox on against off, side by side in one run
// (`npm run bench:sandbox`). Everything lives in a scratch folder under /var/tmp (a sandboxed call
// gets a /tmp of its own): a working folder, and a home holding a file or folder at every
// credential location bosun knows (each agent's sign-in files, .netrc, .aws, gh, docker, kube,
// npm, gcloud, two SSH keys, bosun's own auth.json and .env), so the sandbox masks all of them —
// the most masks a run can have. The sandbox is opened as `bosun run` opens it (openRunSandbox:
// default settings, those credential locations, the key variables dropped from the environment).
// A typical developer's home has far fewer: the headline figures mask the ones of someone signed
// in to Claude Code, Codex, Gemini CLI and OpenCode who also uses git, gh, npm, Docker, SSH and a .netrc
// (TYPICAL below, 12 files); the every-location sandbox is measured beside it.
//   1. One `bash -c true` through the bash tool's execute, with the typical sandbox against with
//      none (same environment): 200 rounds, interleaved, medians. Target: overhead <= 15 ms per
//      call. The every-location sandbox and one with nothing masked run in the rounds too, to show
//      what the masks cost.
//   2. A 20-turn run of bosun's loop (the typical sandbox) (as bench:loop does it, in this process, with the scripted
//      model streaming 2,000 one-token deltas per reply): every turn calls the bash tool
//      (`wc -l notes.txt; echo shell pid $$`), then a final answer; with the sandbox against with
//      `sandbox.mode` "off". Runs alternate (warm-up first), medians. Target: on/off <= 1.15.
//   3. Once: what opening the sandbox costs (credential lookup, masks, the bwrap probe), and again
//      without the probe (it runs once per process).
// Each measured variant is checked to be what it says: sandboxed calls see an empty masked file and
// run in a PID namespace of their own; unsandboxed ones see the file and the host's PIDs.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { dist, median, startScriptedAgentBench, timed } from "./scripted-agent.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TURNS = 20;
const TOKENS = 2_000;
const CREDENTIAL = "bench-credential-do-not-read\n";
const TURN_COMMAND = "wc -l notes.txt; echo shell pid $$";

const { openRunSandbox } = await import(dist("app/run-sandbox.js"));
const { openSandbox } = await import(dist("agent/sandbox/open-sandbox.js"));
const { sandboxSettings } = await import(dist("agent/sandbox/sandbox-settings.js"));
const { credentialLocationsFor } = await import(dist("runtimes/credential-locations.js"));
const { authStoreFile } = await import(dist("catalog/catalog-files.js"));
const { resolvePaths } = await import(dist("kernel/paths.js"));
const { isInside } = await import(dist("kernel/fs/path-inside.js"));
const { runAgent } = await import(dist("agent/loop.js"));
const { ApprovalGate } = await import(dist("agent/approval/approval.js"));
const { Redactor } = await import(dist("kernel/redact/secrets.js"));
const { FileSessionStore } = await import(dist("agent/session/store.js"));
const { ToolRegistry } = await import(dist("agent/tools/tool-registry.js"));
const { builtinTools } = await import(dist("agent/tools/builtin.js"));
const { createSpillStore } = await import(dist("agent/session/spill-store.js"));
const { defaultSystemPrompt } = await import(dist("agent/system-prompt.js"));

mkdirSync("/var/tmp", { recursive: true });
const { scratch, workdir, llm, target, model } = await startScriptedAgentBench("sandbox", "contain the tools", { base: "/var/tmp" });
const home = join(scratch, "home");
const env = { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8", TERM: "xterm-256color", BENCH_API_KEY: target.apiKey };
const boot = { env, agentEnv: env, paths: resolvePaths(env, workdir), project: null, config: null };

/** A file at every credential location inside the scratch folder (and two SSH keys), a folder at every credential folder. */
function plantCredentials() {
  mkdirSync(join(home, ".ssh"), { recursive: true });
  const known = credentialLocationsFor(boot, workdir);
  const files = [...known.files, authStoreFile(boot.paths.data), join(boot.paths.data, ".env"), join(home, ".ssh", "id_ed25519"), join(home, ".ssh", "id_rsa")];
  for (const file of files.filter((path) => isInside(path, scratch))) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, CREDENTIAL, { mode: 0o600 });
  }
  for (const folder of known.folders.filter((path) => isInside(path, scratch))) mkdirSync(folder, { recursive: true });
}

/** The credential files of a typical developer's home (relative to it), the headline figures' masks. */
const TYPICAL = [
  ".claude.json",
  ".claude/.credentials.json",
  ".codex/auth.json",
  ".gemini/oauth_creds.json",
  ".local/share/opencode/auth.json",
  ".git-credentials",
  ".config/gh/hosts.yml",
  ".npmrc",
  ".docker/config.json",
  ".ssh/id_ed25519",
  ".netrc",
  ".local/share/bosun/auth.json",
];

const secrets = [{ name: "BENCH_API_KEY", value: target.apiKey }];
const registry = new ToolRegistry(builtinTools());
const bash = registry.get("bash");
const system = defaultSystemPrompt({ workdir, platform: process.platform, date: "2026-01-01", toolNames: registry.names(), mode: "full-access" });
const spill = createSpillStore(join(scratch, "spill"), new Redactor(secrets));
let callNumber = 0;

/** One call of the bash tool's execute, as the tool runner makes it (with `sandbox`, or with none). */
function execute(command, sandbox, toolEnv) {
  const context = { workdir, signal: new AbortController().signal, callId: `c${++callNumber}`, spill, ui: {}, env: toolEnv, ...(sandbox ? { sandbox } : {}) };
  return bash.execute(bash.inputSchema.parse({ command }), context);
}

/**
 * Throws unless the shell that printed `output` ran contained (in a PID namespace of its own, and,
 * when it printed the planted credential file, seeing it empty) or, `contained` false, plainly.
 */
function expectContainment(output, contained, what) {
  const pid = Number(/shell pid (\d+)/.exec(output)?.[1]);
  const sawCredential = output.includes(CREDENTIAL.trim());
  const asked = output.includes("credential:");
  if (!Number.isInteger(pid) || (pid <= 2) !== contained || (asked && sawCredential === contained)) {
    throw new Error(`${what}: expected ${contained ? "a sandboxed" : "an unsandboxed"} shell, got:\n${output}`);
  }
}

async function bosunRun(sandbox, store) {
  const session = store.create({ workdir, model: { providerID: "bench", modelID: "scripted", name: "scripted" }, bosunVersion: "bench" });
  const tails = [];
  let chars = 0;
  try {
    const result = await runAgent("follow the notes", {
      model,
      modelRef: { providerID: "bench", modelID: "scripted" },
      limits: target.limits,
      toolCalls: true,
      tools: registry,
      session,
      approval: new ApprovalGate({ mode: "full-access", rules: {}, approver: null, grants: session.state.grants }),
      redactor: new Redactor(secrets),
      extensions: null,
      workdir,
      env: sandbox.env,
      sandbox,
      ui: {
        onEvent: (event) => {
          if (event.type === "text") chars += event.delta.length;
          if (event.type === "tool-end") tails.push(`${event.status}: ${(event.outputTail ?? []).join("\n")}`);
        },
      },
      signal: new AbortController().signal,
      systemPrompt: system,
    });
    if (result.reason !== "final") throw new Error(`run ended with ${result.reason}`);
    return { turns: result.turns, chars, tails };
  } finally {
    session.close();
  }
}

const loadStart = loadavg();
try {
  plantCredentials();

  // 3. Opening the sandbox: the first time probes bwrap, later ones reuse the probe's answer.
  const first = await timed(() => openRunSandbox(boot, ["BENCH_API_KEY"], workdir));
  const sandboxOn = first.value.sandbox;
  if (!sandboxOn.bwrap) throw new Error(`bubblewrap cannot contain tools here: ${sandboxOn.fallback}`);
  const reopen = [];
  for (let i = 0; i < 20; i++) reopen.push((await timed(() => openRunSandbox(boot, ["BENCH_API_KEY"], workdir))).ms);
  const { files: maskedFiles, folders: maskedFolders } = sandboxOn.masked;
  const typicalFiles = TYPICAL.map((path) => join(home, path));
  const missing = typicalFiles.filter((path) => !maskedFiles.includes(path));
  if (missing.length > 0) throw new Error(`the typical home's files are not all masked by a real run: ${missing.join(", ")}`);
  const typical = { ...sandboxOn, masked: { files: typicalFiles, folders: [] } };
  if (sandboxOn.env.BENCH_API_KEY !== undefined) throw new Error("the key variable reached the tools' environment");
  const offSettings = { ...sandboxSettings([], home, null), mode: "off" };
  const sandboxOff = await openSandbox({ settings: offSettings, workdir, env, secrets: { files: [], folders: [], env: [] } });

  // 1. One call: the same command through execute, contained or not.
  const check = `echo shell pid $$; echo credential: $(cat "$HOME/.netrc")`;
  expectContainment((await execute(check, sandboxOn, sandboxOn.env)).output, true, "sandboxed call");
  expectContainment((await execute(check, typical, sandboxOn.env)).output, true, "sandboxed call (typical home)");
  expectContainment((await execute(check, undefined, sandboxOn.env)).output, false, "unsandboxed call");
  const unmasked = { ...sandboxOn, masked: { files: [], folders: [] } };
  const callSandbox = { every: sandboxOn, sandboxed: typical, unmasked, plain: undefined };
  const calls = { every: [], sandboxed: [], unmasked: [], plain: [] };
  const once = async (name) => {
    const { ms, value } = await timed(() => execute("true", callSandbox[name], sandboxOn.env));
    if (value.isError || !value.output.endsWith("[exit code 0]")) throw new Error(`${name} call failed: ${value.output}`);
    calls[name].push(ms);
  };
  for (let i = 0; i < 10; i++) for (const name of Object.keys(calls)) await once(name); // warm-up
  for (const samples of Object.values(calls)) samples.length = 0;
  for (let i = 0; i < ROUNDS; i++) for (const name of i % 2 === 0 ? ["every", "sandboxed", "unmasked", "plain"] : ["plain", "unmasked", "sandboxed", "every"]) await once(name);
  const callOverhead = median(calls.sandboxed) - median(calls.plain);

  // 2. A 20-turn run, sandbox on against "off".
  const store = new FileSessionStore(join(scratch, "sessions"), new Redactor(secrets));
  const runs = { on: [], off: [] };
  const run = async (name) => {
    for (let turn = 0; turn < TURNS; turn++) llm.reply().tokens(TOKENS).tool("bash", { command: TURN_COMMAND }).usage({ input: 1_000 + turn * 2_500, output: TOKENS });
    llm.reply().tokens(TOKENS).usage({ input: 60_000, output: TOKENS });
    const { ms, value } = await timed(() => bosunRun(name === "on" ? typical : sandboxOff, store));
    if (value.turns !== TURNS + 1 || value.chars < TURNS * TOKENS * 5 || value.tails.length !== TURNS) throw new Error(`${name}: unexpected run (${value.turns} turns, ${value.chars} chars, ${value.tails.length} tool calls)`);
    if (llm.pending() !== 0) throw new Error(`${name}: script not fully played`);
    for (const tail of value.tails) {
      if (!tail.startsWith("ok: 40 notes.txt")) throw new Error(`${name}: a bash call did not run as asked: ${tail}`);
      expectContainment(tail, name === "on", `run with the sandbox ${name}`);
    }
    return ms;
  };
  await run("on"); // warm-up
  await run("off");
  for (let i = 0; i < RUNS; i++) for (const name of i % 2 === 0 ? ["on", "off"] : ["off", "on"]) runs[name].push(await run(name));
  const on = median(runs.on);
  const off = median(runs.off);

  const ms = (value) => `${value.toFixed(1)} ms`;
  const load = (values) => values.map((value) => value.toFixed(2)).join(" ");
  console.log(`load average ${load(loadStart)} at the start, ${load(loadavg())} at the end (${availableParallelism()} CPUs)`);
  console.log(`sandbox: masks ${maskedFiles.length} files and ${maskedFolders.length} folders, drops ${sandboxOn.droppedEnv.length} variable(s); bwrap ${sandboxOn.bwrap}`);
  console.log(`  opening it (openRunSandbox: credential lookup, masks, bwrap probe): ${ms(first.ms)} the first time; ${ms(median(reopen))} (median of ${reopen.length}) once the probe is known`);
  console.log(`  one \`bash -c true\` through the bash tool, ${ROUNDS} rounds (interleaved, after a warm-up), medians:`);
  console.log(`    no sandbox                ${ms(median(calls.plain))}`);
  console.log(`    sandboxed, nothing masked ${ms(median(calls.unmasked))}`);
  console.log(`    sandboxed, every location ${ms(median(calls.every))}   (${maskedFiles.length + maskedFolders.length} masks cost ${ms(median(calls.every) - median(calls.unmasked))})`);
  console.log(`    sandboxed, typical home   ${ms(median(calls.sandboxed))}   (${typicalFiles.length} masks cost ${ms(median(calls.sandboxed) - median(calls.unmasked))}); overhead ${ms(callOverhead)} per call (target <= 15 ms)`);
  console.log(`  ${TURNS} turns each calling bash (\`${TURN_COMMAND}\`) + a final answer, ${TOKENS} tokens streamed per reply; ${RUNS} runs each (interleaved, after a warm-up), medians:`);
  console.log(`    sandbox.mode off   ${ms(off)}  (${(off / (TURNS + 1)).toFixed(2)} ms per turn)`);
  console.log(`    sandboxed          ${ms(on)}  (${(on / (TURNS + 1)).toFixed(2)} ms per turn; target on/off <= 1.15)`);
  console.log(`sandbox: call-overhead-ms=${callOverhead.toFixed(1)} run20/unsandboxed=${(on / off).toFixed(2)}`);
} finally {
  await llm.close();
  rmSync(scratch, { recursive: true, force: true });
}
