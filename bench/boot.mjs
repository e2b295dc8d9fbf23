// Start-up cost of bosun, side by side with bare Node in one run (run `npm run bench:boot`).
//   node -e 0  |  bosun --version  |  bosun status (empty temp home)
//   the README's first command (what follows `npm install &&` on its first line, run in bosun's
//   folder) again, a later start  |  `node bin/bosun.js` in the same folder
//   the README's first command in a fresh temp home each round: a first start after `npm install`
// Each is run ROUNDS times, interleaved (every other round reversed) so machine noise hits all
// alike; medians compared.
// Also in-process: one no-op startup migration pass (everything already applied).
// Targets: version/node <= 2.0, status/node <= 3.0, readme/bin <= 1.3, first start <= 5 s,
// no-op pass <= 5 ms. Last line: the ratios.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readmeFirstCommand } from "./readme-command.mjs";

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

const readme = readmeFirstCommand(root);
const readmeCommand = readme.command.includes("/") ? resolve(root, readme.command) : readme.command;
const readmeArgs = readme.args;
const commands = {
  node: [process.execPath, ["-e", "0"]],
  version: [process.execPath, [bin, "--version"]],
  status: [process.execPath, [bin, "status"]],
  readme: [readmeCommand, readmeArgs, root],
  bin: [process.execPath, [bin, ...readmeArgs], root],
};

/** Runs one command (in `cwd`, else the temp home) and returns its wall time in ms. */
function timeOnce([command, args, cwd = home], runEnv = env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env: runEnv, cwd, stdio: ["ignore", "pipe", "pipe"] });
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
  const samples = { node: [], version: [], status: [], readme: [], bin: [], first: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round in reverse order, so no command always follows the same one.
    const order = round % 2 ? Object.entries(commands).reverse() : Object.entries(commands);
    for (const [name, spec] of order) samples[name].push(timeOnce(spec));
    const fresh = join(home, `fresh-${round}`);
    samples.first.push(timeOnce([readmeCommand, readmeArgs, root], { ...env, HOME: fresh, XDG_CONFIG_HOME: join(fresh, ".config"), XDG_DATA_HOME: join(fresh, ".local/share"), XDG_CACHE_HOME: join(fresh, ".cache"), XDG_STATE_HOME: join(fresh, ".local/state") }));
  }
  const med = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  const readmeLine = [readmeCommand.startsWith(root) ? `./${readmeCommand.slice(root.length)}` : readmeCommand, ...readmeArgs].join(" ");
  console.log(`runs per command: ${ROUNDS} (interleaved), medians:`);
  console.log(`  node -e 0        ${med.node.toFixed(1)} ms`);
  console.log(`  bosun --version  ${med.version.toFixed(1)} ms`);
  console.log(`  bosun status     ${med.status.toFixed(1)} ms (empty temp home)`);
  console.log(`  ${readmeLine}  ${med.readme.toFixed(1)} ms (the README's first command, a later start; in bosun's folder)`);
  console.log(`  ${["node bin/bosun.js", ...readmeArgs].join(" ")}  ${med.bin.toFixed(1)} ms (the same, through node; target: README command <= 1.3x this)`);
  console.log(`  ${readmeLine}  ${med.first.toFixed(1)} ms (first start: a fresh home, as right after npm install; target <= 5000 ms)`);

  // In-process: a start where every migration is already applied (helper installed and current).
  const dataDir = join(env.XDG_DATA_HOME, "bosun");
  // Private, as bosun makes its folders (a 0755 one would be repaired by 40_private_folders).
  mkdirSync(join(dataDir, "bin"), { recursive: true, mode: 0o700 });
  copyFileSync(join(root, "assets/bin/bosun-hook.mjs"), join(dataDir, "bin/bosun-hook.mjs"));
  const { resolvePaths } = await import(join(root, "dist/kernel/paths.js"));
  const { ExtensionHost } = await import(join(root, "dist/extensions/host.js"));
  const { extensionRoots } = await import(join(root, "dist/extensions/roots.js"));
  const { runStartupMigrations } = await import(join(root, "dist/startup/startup-pass.js"));
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
  console.log(`boot: version/node=${(med.version / med.node).toFixed(2)} status/node=${(med.status / med.node).toFixed(2)} readme/bin=${(med.readme / med.bin).toFixed(2)} first-start=${med.first.toFixed(0)}ms`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
