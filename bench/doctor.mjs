// `bosun doctor` over four runtimes against each of its CLI probes alone (run `npm run bench:doctor`).
//   probe X alone  |  one CLI probe exactly as doctor runs it (dist/doctor/cli-probes.js), in its own Node process
//   bosun doctor   |  bosun doctor --json: intact, sign-in and hook checks, and the four probes at once
// A throwaway home gets bosun's pack (global) for claude, codex, gemini and opencode, with the
// pinned real CLIs (node scripts/real-clis.mjs install). Everything runs in a network namespace
// with only loopback up when `unshare` works (as root), so no run reaches the network.
// Each is run ROUNDS times, interleaved so machine noise hits all alike; medians compared, of the
// wall time and of the CPU time (user + system, the whole process tree: bench/child-cpu.mjs).
// Target: doctor <= 1.2x the slowest single probe (the probes run in parallel). The line before
// the last is the bound the cores set: doctor cannot take less than the CPU time it needs shared
// out over every core, whatever order the probes run in. Last line: the ratio.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRealClis } from "../scripts/real-clis.mjs";
import { childCpuMs } from "./child-cpu.mjs";
import { median } from "./median.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIMEOUT_S = process.env.BENCH_PROBE_TIMEOUT ?? "120";
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const probes = join(root, "dist", "doctor", "cli-probes.js");
const RUNTIMES = ["claude", "codex", "gemini", "opencode"];

const installed = readRealClis()?.clis;
if (!installed || RUNTIMES.some((id) => !installed[id])) throw new Error("the real CLIs are not installed: run node scripts/real-clis.mjs install");

// A home outside /tmp: Codex warns on stderr when its folder is under a temp folder.
const base = mkdtempSync(join(homedir(), ".cache", "bosun-bench-doctor-"));
const home = join(base, "home");
const project = join(base, "project");
mkdirSync(join(home, ".codex"), { recursive: true });
mkdirSync(join(project, ".git"), { recursive: true });
const env = {
  PATH: [...RUNTIMES.map((id) => dirname(installed[id].bin)), dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local/state"),
  TMPDIR: join(home, ".tmp"),
  LANG: "C.UTF-8",
  TERM: "dumb",
};
mkdirSync(env.TMPDIR, { recursive: true });

const isolated = spawnSync("unshare", ["-n", "sh", "-c", "ip link set lo up"], { stdio: "ignore" }).status === 0;
const wrap = (command, args) => (isolated ? ["unshare", ["-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', command, ...args]] : [command, args]);

// One probe as doctor runs it: asking for skills where doctor's own report has skill artifacts for the runtime.
const probeScript = (id, wantsSkills) =>
  `const { probeCli } = await import(${JSON.stringify(probes)}); const a = await probeCli(${JSON.stringify(id)}, { bin: ${JSON.stringify(installed[id].bin)}, env: process.env, cwd: process.cwd(), timeoutMs: ${Number(TIMEOUT_S) * 1000}, wantsSkills: ${wantsSkills} }); if (a.failure) { console.error(a.failure); process.exit(1); }`;
// What each probe alone costs besides its CLI: the Node process that loads the probes and runs one.
const wrapperScript = `await import(${JSON.stringify(probes)});`;
const commands = { doctor: wrap(process.execPath, [bin, "doctor", "--json", "--timeout", TIMEOUT_S]), wrapper: wrap(process.execPath, ["--input-type=module", "-e", wrapperScript]) };

function timeOnce([command, args]) {
  const cpuBefore = childCpuMs();
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env, cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuMs = cpuBefore === null ? null : childCpuMs() - cpuBefore;
  if (result.status !== 0) throw new Error(`${args.slice(-3).join(" ")} exited ${result.status}: ${result.stderr.toString().slice(0, 400)} ${result.stdout.toString().slice(0, 400)}`);
  return { ms, cpuMs, stdout: result.stdout.toString() };
}

/**
 * The shortest doctor this machine allows: the CPU time it needs shared out over every core, the
 * smaller of what the probes needed alone (together, less the Node process that ran each) and
 * what doctor used, against the target.
 */
function cpuBound(cpu, slowestMs) {
  if (cpu.doctor === null) return "bound: not measured (no /proc/self/stat to read the CPU time from)";
  const cores = availableParallelism();
  const alone = RUNTIMES.reduce((sum, id) => sum + cpu[`probe ${id}`] - cpu.wrapper, 0);
  const floor = Math.min(alone, cpu.doctor) / cores;
  const verdict = floor > 1.2 * slowestMs ? "1.2x is out of reach on this machine" : "1.2x is within reach";
  return `bound: the four CLIs need ${(alone / 1000).toFixed(2)} s of CPU alone, doctor used ${(cpu.doctor / 1000).toFixed(2)} s; over ${cores} cores no run is shorter than ${(floor / 1000).toFixed(2)} s = doctor/slowest-probe>=${(floor / slowestMs).toFixed(2)}: ${verdict}`;
}

try {
  const install = spawnSync(process.execPath, [bin, "install", "--runtime", RUNTIMES.join(","), "--scope", "global", "--yes", "--no-verify"], { env, cwd: project, encoding: "utf8" });
  if (install.status !== 0) throw new Error(`bosun install failed: ${install.stderr}`);
  const check = JSON.parse(timeOnce(commands.doctor).stdout);
  if (!check.ok || check.runtimes.length !== 4) throw new Error(`expected doctor to find four runtimes, all fine: ${JSON.stringify(check.problems)}`);
  for (const runtime of check.runtimes) {
    const wantsSkills = runtime.artifacts.some((artifact) => artifact.kind === "skill");
    commands[`probe ${runtime.runtime}`] = wrap(process.execPath, ["--input-type=module", "-e", probeScript(runtime.runtime, wantsSkills)]);
  }
  for (const spec of Object.values(commands)) timeOnce(spec); // warm-up (first starts create the CLIs' databases and caches)
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, { ms: [], cpuMs: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, spec] of Object.entries(commands)) {
      const { ms, cpuMs } = timeOnce(spec);
      samples[name].ms.push(ms);
      if (cpuMs !== null) samples[name].cpuMs.push(cpuMs);
    }
  }
  const med = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values.ms)]));
  const cpu = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, values.cpuMs.length ? median(values.cpuMs) : null]));
  const slowest = RUNTIMES.map((id) => `probe ${id}`).reduce((a, b) => (med[a] >= med[b] ? a : b));
  const cpuText = (name) => (cpu[name] === null ? "" : `, CPU ${(cpu[name] / 1000).toFixed(2)} s`);
  console.log(`runs per command: ${ROUNDS} (interleaved), medians${isolated ? " (no network: unshare -n, loopback only)" : ""}:`);
  for (const id of RUNTIMES) console.log(`  probe ${id.padEnd(9)} alone  ${med[`probe ${id}`].toFixed(0)} ms${cpuText(`probe ${id}`)}`);
  console.log(`  (of which the Node process each runs in  ${med.wrapper.toFixed(0)} ms${cpuText("wrapper")})`);
  console.log(`  bosun doctor (4 runtimes)  ${med.doctor.toFixed(0)} ms${cpuText("doctor")} (target <= 1.2x the slowest probe, ${slowest})`);
  console.log(cpuBound(cpu, med[slowest]));
  console.log(`doctor: doctor/slowest-probe=${(med.doctor / med[slowest]).toFixed(2)}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
