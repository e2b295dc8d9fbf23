// `bosun mcp sync` as the user feels it (`npm run bench:mcp-sync`): whole processes (node start
// included), each in a temp home (HOME, XDG_*) where every agent bosun writes MCP servers for is
// installed (its folder exists), with 10 servers in bosun.json:
//   version  `bosun --version`: node and bosun's entry, the floor of any bosun process
//   fresh    the first sync, in a home that has none of the servers yet (all agents written)
//   noop     the same sync again in a synced home: nothing to write
// Checked every round: the fresh sync wrote every agent's file; the no-op changed no file of the
// home but bosun's own log (content, size and mtime compared). Runs are interleaved (1 warm-up
// round, then ROUNDS, default 7); medians; the last line gives the ratios.
import { spawnSync } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SERVERS = 10;
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const work = mkdtempSync(join(tmpdir(), "bosun-bench-mcp-sync-"));
/** Where each agent bosun writes MCP servers for keeps them (global), relative to the home. */
const AGENT_DIRS = [".claude", ".codex", ".gemini", ".qwen", ".config/opencode", ".cursor"];
const AGENT_FILES = [".claude.json", ".codex/config.toml", ".gemini/settings.json", ".qwen/settings.json", ".config/opencode/opencode.json", ".cursor/mcp.json"];

const envOf = (home) => ({ PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share"), XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local", "state") });

/** The template home: the agents' folders, bosun.json with the servers, bosun's first start done. */
const template = join(work, "template");
for (const dir of AGENT_DIRS) mkdirSync(join(template, dir), { recursive: true });
mkdirSync(join(template, ".config", "bosun"), { recursive: true, mode: 0o700 });
const mcp = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`server-${i}`, { command: "npx", args: ["-y", `@example/mcp-${i}`, "--stdio"], env: { [`TOKEN_${i}`]: `{env:TOKEN_${i}}` } }]));
writeFileSync(join(template, ".config", "bosun", "bosun.json"), JSON.stringify({ mcp }, null, 2));
run(template, ["status", "--json"]);

function run(home, args) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { env: envOf(home), cwd: home, encoding: "utf8" });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`bosun ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** Every file of the home but bosun's log and state: its size, mtime and content. */
function snapshot(home) {
  const out = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(home, path);
      if (rel.startsWith(".local/state")) continue;
      const info = lstatSync(path);
      if (info.isDirectory()) walk(path);
      else out[rel] = `${info.size} ${info.mtimeMs} ${readFileSync(path, "utf8").length}`;
    }
  };
  walk(home);
  return out;
}

const times = { version: [], fresh: [], noop: [] };
let noopChanged = 0;
for (let round = 0; round <= ROUNDS; round++) {
  const home = join(work, `home-${round}`);
  cpSync(template, home, { recursive: true });
  const version = run(home, ["--version"]);
  const fresh = run(home, ["mcp", "sync", "--yes"]);
  for (const file of AGENT_FILES) if (!readFileSync(join(home, file), "utf8").includes("server-9")) throw new Error(`the fresh sync did not write ${file}`);
  const before = snapshot(home);
  const noop = run(home, ["mcp", "sync", "--yes"]);
  const after = snapshot(home);
  const changed = Object.keys({ ...before, ...after }).filter((rel) => before[rel] !== after[rel]);
  noopChanged = Math.max(noopChanged, changed.length);
  if (round > 0) {
    times.version.push(version);
    times.fresh.push(fresh);
    times.noop.push(noop);
  }
  rmSync(home, { recursive: true, force: true });
}
rmSync(work, { recursive: true, force: true });

const m = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
console.log(`bosun mcp sync processes, ${ROUNDS} rounds (interleaved, after 1 warm-up round), medians; ${SERVERS} servers into ${AGENT_FILES.length} agents (every one bosun writes MCP servers for):`);
console.log(`  bosun --version                 ${m.version.toFixed(0).padStart(5)} ms`);
console.log(`  first sync                      ${m.fresh.toFixed(0).padStart(5)} ms`);
console.log(`  no-op sync                      ${m.noop.toFixed(0).padStart(5)} ms   files it changed: ${noopChanged}`);
console.log(`mcp-sync: noop/version=${(m.noop / m.version).toFixed(2)} fresh/version=${(m.fresh / m.version).toFixed(2)} noop/fresh=${(m.noop / m.fresh).toFixed(2)} noop-files-changed=${noopChanged}`);
