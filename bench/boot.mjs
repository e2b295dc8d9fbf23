// Start-up cost of bosun, side by side with bare Node in one run (run `npm run bench:boot`).
//   node -e 0  |  bosun --version  |  bosun status (empty temp home)
// Each is run ROUNDS times, interleaved so machine noise hits all three alike; medians compared.
// Also in-process: one no-op startup migration pass (everything already applied).
// Targets: version/node <= 2.0, status/node <= 3.0, no-op pass <= 5 ms. Last line: the ratios.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const home = mkdtempSync(join(tmpdir(), "bosun-bench-"));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local/state"),
};

const commands = {
  node: [process.execPath, ["-e", "0"]],
  version: [process.execPath, [bin, "--version"]],
  status: [process.execPath, [bin, "status"]],
};

function timeOnce([command, args]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  for (const spec of Object.values(commands)) timeOnce(spec), timeOnce(spec); // warm-up
  const samples = { node: [], version: [], status: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, spec] of Object.entries(commands)) samples[name].push(timeOnce(spec));
  }
  const med = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  console.log(`runs per command: ${ROUNDS} (interleaved), medians:`);
  console.log(`  node -e 0        ${med.node.toFixed(1)} ms`);
  console.log(`  bosun --version  ${med.version.toFixed(1)} ms`);
  console.log(`  bosun status     ${med.status.toFixed(1)} ms (empty temp home)`);

  // In-process: a start where every migration is already applied (helper installed and current).
  const dataDir = join(env.XDG_DATA_HOME, "bosun");
  // Private, as bosun makes its folders (a 0755 one would be repaired by 40_private_folders).
  mkdirSync(join(dataDir, "bin"), { recursive: true, mode: 0o700 });
  copyFileSync(join(root, "assets/bin/bosun-hook.mjs"), join(dataDir, "bin/bosun-hook.mjs"));
  const { resolvePaths } = await import(join(root, "dist/boot/paths.js"));
  const { ExtensionHost } = await import(join(root, "dist/extensions/host.js"));
  const { extensionRoots } = await import(join(root, "dist/extensions/roots.js"));
  const { runStartupMigrations } = await import(join(root, "dist/migrations/startup-pass.js"));
  const paths = resolvePaths(env, home);
  const ctx = { paths, project: null, env, fs: nodeFs, packageRoot: root, spawnDetached: () => "" };
  const pass = async () => {
    const host = new ExtensionHost(extensionRoots({ projectDotDir: null, userConfigDir: paths.config, enabledPlugins: [], builtinDir: join(root, "assets") }));
    const start = process.hrtime.bigint();
    const report = await runStartupMigrations(host, ctx, { dryRun: false });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (report.changed) throw new Error("the no-op pass changed something");
    return ms;
  };
  for (let i = 0; i < 20; i++) await pass();
  const passes = [];
  for (let i = 0; i < 200; i++) passes.push(await pass());
  console.log(`  no-op startup migration pass  ${median(passes).toFixed(3)} ms (median of ${passes.length}, in process; target <= 5 ms)`);
  console.log(`boot: version/node=${(med.version / med.node).toFixed(2)} status/node=${(med.status / med.node).toFixed(2)}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
