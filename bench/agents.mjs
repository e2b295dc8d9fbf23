// `bosun agents --json` against bare Node, side by side in one run (run `npm run bench:agents`).
//   node -e 0  |  bosun agents --json (empty temp home, nothing installed, a0 host on a closed local port)
// Each is run ROUNDS times, interleaved so machine noise hits both alike; medians compared.
// Target: status/node <= 3.0. Last line: the ratio.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const home = mkdtempSync(join(tmpdir(), "bosun-bench-agents-"));
const emptyBin = join(home, "bin");
mkdirSync(emptyBin);

// A port that was just free: nothing listens there, so the a0 probe is refused at once.
const closedPort = await new Promise((resolve) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

const env = {
  PATH: emptyBin,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local/state"),
  AGENT_ZERO_HOST: `http://127.0.0.1:${closedPort}`,
};

const commands = {
  node: [process.execPath, ["-e", "0"]],
  agents: [process.execPath, [bin, "agents", "--json"]],
};

function timeOnce([command, args]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout.toString() };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  const check = JSON.parse(timeOnce(commands.agents).stdout);
  if (check.agents.length !== 8 || check.agents.some((agent) => agent.installed || agent.auth.connected)) {
    throw new Error("expected eight agents, none installed or signed in");
  }
  for (const spec of Object.values(commands)) timeOnce(spec), timeOnce(spec); // warm-up
  const samples = { node: [], agents: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, spec] of Object.entries(commands)) samples[name].push(timeOnce(spec).ms);
  }
  const med = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  console.log(`runs per command: ${ROUNDS} (interleaved), medians:`);
  console.log(`  node -e 0             ${med.node.toFixed(1)} ms`);
  console.log(`  bosun agents --json   ${med.agents.toFixed(1)} ms (nothing installed, a0 host on closed port ${closedPort}; target <= 3.0x node)`);
  console.log(`agents: status/node=${(med.agents / med.node).toFixed(2)}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
