// The real coding-agent CLIs the test suite runs against, pinned, installed from npm into a cache
// folder outside the repository (reused when it is already there). `.ci/run` calls it before
// `npm test`; developers run it once:
//
//   node scripts/real-clis.mjs install     install what is missing, then list them
//   node scripts/real-clis.mjs list        list them; exit 1 if one is missing
//
// The folder is $BOSUN_REAL_CLIS_DIR, else $XDG_CACHE_HOME/bosun-real-clis, else
// ~/.cache/bosun-real-clis. Each CLI gets `<folder>/<id>-<version>/` (its own node_modules), and
// `<folder>/real-clis.json` records where each binary is, for test/fixtures/real-clis.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The versions the real-CLI tests were written against (see README, "Real agents in the tests"). */
export const REAL_CLIS = [
  { id: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.197", bin: "claude" },
  { id: "codex", pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  { id: "gemini", pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  { id: "opencode", pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
  { id: "grok", pkg: "@vibe-kit/grok-cli", version: "0.0.34", bin: "grok" },
];

export function realClisDir(env = process.env) {
  if (env.BOSUN_REAL_CLIS_DIR) return env.BOSUN_REAL_CLIS_DIR;
  const cache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(cache, "bosun-real-clis");
}

const MANIFEST = "real-clis.json";

/** The installed binary of `cli`, or why it is not usable. */
function probe(dir, cli) {
  const bin = join(dir, `${cli.id}-${cli.version}`, "node_modules", ".bin", cli.bin);
  if (!existsSync(bin)) return { ok: false, bin, reason: "not installed" };
  // A version check offline, in a throwaway home: proves the install scripts ran (claude and
  // opencode copy their native binaries in a postinstall step).
  const home = join(dir, ".probe-home");
  mkdirSync(home, { recursive: true });
  const run = spawnSync(bin, ["--version"], { env: { PATH: process.env.PATH, HOME: home, TERM: "dumb" }, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) return { ok: false, bin, reason: `--version failed (exit ${run.status ?? run.signal}): ${(run.stderr || run.stdout).trim().slice(0, 300)}` };
  return { ok: true, bin, versionLine: run.stdout.trim().split("\n").at(-1) };
}

function install(dir, cli) {
  const target = join(dir, `${cli.id}-${cli.version}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "package.json"), JSON.stringify({ private: true, name: `bosun-real-${cli.id}` }) + "\n");
  const run = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", `${cli.pkg}@${cli.version}`], { cwd: target, encoding: "utf8", timeout: 15 * 60_000 });
  if (run.status !== 0) throw new Error(`npm install ${cli.pkg}@${cli.version} failed (exit ${run.status ?? run.signal}):\n${(run.stderr || run.stdout).trim().slice(-2000)}`);
}

function main(command) {
  if (command !== "install" && command !== "list") {
    process.stderr.write("usage: node scripts/real-clis.mjs install|list\n");
    return 2;
  }
  const dir = realClisDir();
  mkdirSync(dir, { recursive: true });
  const found = {};
  let missing = 0;
  for (const cli of REAL_CLIS) {
    let state = probe(dir, cli);
    if (!state.ok && command === "install") {
      process.stderr.write(`real-clis: installing ${cli.pkg}@${cli.version} (${state.reason})…\n`);
      try {
        install(dir, cli);
      } catch (error) {
        process.stderr.write(`real-clis: ${error.message}\n`);
        return 1;
      }
      state = probe(dir, cli);
    }
    if (state.ok) found[cli.id] = { pkg: cli.pkg, version: cli.version, bin: state.bin };
    else missing++;
    process.stdout.write(`${cli.id.padEnd(9)} ${cli.pkg}@${cli.version}  ${state.ok ? `${state.bin} (${state.versionLine})` : `MISSING: ${state.reason}`}\n`);
  }
  const temp = join(dir, `${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify({ dir, clis: found }, null, 2) + "\n");
  renameSync(temp, join(dir, MANIFEST));
  if (missing > 0) process.stderr.write(`real-clis: ${missing} missing; run node scripts/real-clis.mjs install\n`);
  return missing > 0 ? 1 : 0;
}

/** The installed CLIs as recorded by the last run (for the tests). */
export function readRealClis(env = process.env) {
  const file = join(realClisDir(env), MANIFEST);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv[2]);
