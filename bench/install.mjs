// bosun install against a floor, side by side in one run (run `npm run bench:install`).
//   A generated pack of about 950 files / 15 MB (the size of the anchor's Claude install), Claude
//   Code, global scope, in temp homes:
//   floor    a script that only writes the same files and hashes them
//   fresh    bosun install into an empty folder
//   no-op    bosun install again (nothing changed; must write no file)
//   upgrade  v1 → v2 with 10% of the files changed, 5% retired, and 5% edited by the user first
// Each round runs all four, interleaved so machine noise hits them alike; 1 warm-up round, then
// ROUNDS rounds, medians, the disk synced between runs. Peak memory: each scenario once more in its
// own process (max RSS). BENCH_DIR puts the temp homes elsewhere (default: the system temp folder);
// BENCH_DEBUG=1 also prints every sample.
// Targets: fresh/floor <= 1.5, noop/fresh <= 0.3 with 0 files written, upgrade/fresh <= 1.5.
// Last line: the ratios.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const root = fileURLToPath(new URL("..", import.meta.url));
const { installPack } = await import(join(root, "dist/install/install-pack.js"));

const SKILLS = 60;
const REFERENCES = 13; // files per skill besides SKILL.md
const COMMANDS = 40;
const AGENTS = 40;
const HOOK_FILES = 30;

/** Deterministic text of about `size` bytes (a seeded generator, so every run builds the same pack). */
function text(seed, size) {
  let a = seed >>> 0;
  const words = ["agent", "skill", "delegate", "review", "install", "workflow", "context", "model", "session", "brief", "verify", "folder"];
  let out = "";
  while (out.length < size) {
    a = (a * 1664525 + 1013904223) >>> 0;
    out += words[a % words.length] + (a % 11 === 0 ? ".\n" : " ");
  }
  return out.slice(0, size) + "\n";
}

/** Writes the benchmark pack; returns its folder and the list of its reference files (for changes). */
function generatePack(dir) {
  const write = (rel, content, mode) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content, mode ? { mode } : undefined);
  };
  const skills = Array.from({ length: SKILLS }, (_, i) => `bench-skill-${String(i).padStart(2, "0")}`);
  const commands = Array.from({ length: COMMANDS }, (_, i) => `bench-command-${String(i).padStart(2, "0")}`);
  const agents = Array.from({ length: AGENTS }, (_, i) => `bench-agent-${String(i).padStart(2, "0")}`);
  const references = [];
  skills.forEach((name, i) => {
    write(`skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Benchmark skill ${i}.\n---\n\n${text(i, 4000)}`);
    for (let j = 0; j < REFERENCES; j++) {
      const rel = `skills/${name}/references/ref-${String(j).padStart(2, "0")}.md`;
      write(rel, text(i * 100 + j, 17_500 + ((i * 7 + j * 13) % 4000)));
      references.push(rel);
    }
  });
  commands.forEach((name, i) => write(`commands/${name}.md`, `---\ndescription: Benchmark command ${i}\n---\n\n${text(5000 + i, 1500)}Use $ARGUMENTS.\n`));
  agents.forEach((name, i) => write(`agents/${name}.md`, `---\nname: ${name}\ndescription: Benchmark agent ${i}.\ntools: Read, Grep\n---\n\n${text(6000 + i, 3000)}`));
  write("hooks/bench-hook.json", JSON.stringify({ event: "session-start", command: "node {hook-dir}/hook-00.mjs", timeout: 5 }));
  for (let k = 0; k < HOOK_FILES; k++) write(`hooks/bench-hook/hook-${String(k).padStart(2, "0")}.mjs`, `// hook file ${k}\n${text(7000 + k, 2000)}`, 0o755);
  write("pack.json", JSON.stringify({ name: "bench", version: "1.0.0", description: "benchmark pack", artifacts: { skills, commands, agents, hooks: ["bench-hook"] } }, null, 2));
  return { dir, references };
}

/** v2: 10% of the files changed, 5% retired (reference files), a new version. */
function upgradePack(v1, dir, total) {
  cpSync(v1.dir, dir, { recursive: true });
  const changed = v1.references.filter((_, i) => i % 10 === 3).slice(0, Math.round(total * 0.1));
  const retired = v1.references.filter((_, i) => i % 20 === 7).slice(0, Math.round(total * 0.05));
  for (const rel of changed) writeFileSync(join(dir, rel), readFileSync(join(dir, rel), "utf8") + "Changed in version 2.\n");
  for (const rel of retired) rmSync(join(dir, rel));
  const packJson = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...packJson, version: "2.0.0" }, null, 2));
  return { dir, changed, retired };
}

function tempHome(base) {
  const home = mkdtempSync(join(base, "home-"));
  return {
    home,
    env: { HOME: home, PATH: process.env.PATH, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state") },
  };
}

function installInto(t, pack, fs = nodeFs) {
  return installPack({
    pack,
    runtimes: ["claude"],
    scope: "global",
    dryRun: false,
    lockTimeoutMs: 30_000,
    env: t.env,
    home: t.home,
    cwd: t.home,
    dataDir: join(t.home, ".local/share/bosun"),
    packageRoot: root,
    bosunVersion: "0.1.0",
    agentsConfig: undefined,
    fs,
  });
}

function listFiles(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, base, out);
    else out.push(relative(base, path));
  }
  return out;
}

/**
 * The floor: put each installed file in place and hash it, nothing else. A file copied from the
 * pack is read from it (as `cp` would); a file converted to the runtime's format is written from
 * memory (the conversion itself is not counted).
 */
function floor(files, target) {
  const made = new Set();
  for (const { rel, bytes, source, mode } of files) {
    const dir = dirname(join(target, rel));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const content = source ? readFileSync(source) : bytes;
    writeFileSync(join(target, rel), content, { mode });
    createHash("sha256").update(content).digest("hex");
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function time(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// A scenario run alone in this process, for its peak memory (`node bench/install.mjs --peak NAME WORKDIR`).
if (process.argv[2] === "--peak") {
  const [, , , name, work] = process.argv;
  const t = tempHome(work);
  if (name === "floor") {
    const files = JSON.parse(readFileSync(join(work, "installed.json"), "utf8")).map((rel) => ({ rel, bytes: null, source: join(work, "reference", rel), mode: statSync(join(work, "reference", rel)).mode & 0o777 }));
    floor(files, join(t.home, ".claude"));
  } else {
    if (name !== "fresh") await installInto(t, join(work, "v1"));
    if (name === "upgrade") for (const rel of JSON.parse(readFileSync(join(work, "edited.json"), "utf8"))) writeFileSync(join(t.home, ".claude", rel), "edited by the user\n");
    await installInto(t, join(work, name === "upgrade" ? "v2" : "v1"));
  }
  process.stdout.write(String(process.resourceUsage().maxRSS));
  process.exit(0);
}

const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "bosun-bench-install-"));
try {
  const v1 = generatePack(join(work, "v1"));
  // What an install of v1 puts in place (bosun's own files aside): the floor writes exactly these.
  const reference = tempHome(work);
  await installInto(reference, v1.dir);
  const claude = join(reference.home, ".claude");
  const installed = listFiles(claude).filter((rel) => !rel.startsWith("bosun-") && rel !== "settings.json");
  cpSync(claude, join(work, "reference"), { recursive: true });
  writeFileSync(join(work, "installed.json"), JSON.stringify(installed));
  // Files bosun copies verbatim from the pack are read from it by the floor too.
  const files = installed.map((rel) => {
    const source = join(v1.dir, rel);
    const bytes = readFileSync(join(claude, rel));
    const verbatim = nodeFs.existsSync(source) && readFileSync(source).equals(bytes);
    return { rel, bytes: verbatim ? null : bytes, source: verbatim ? source : null, mode: statSync(join(claude, rel)).mode & 0o777 };
  });
  const bytes = files.reduce((sum, file) => sum + (file.bytes?.length ?? statSync(file.source).size), 0);
  const v2 = upgradePack(v1, join(work, "v2"), files.length);
  // The user's edits: 5% of the files, half of them files the upgrade also changes (backed up), half not (kept).
  const changedSet = new Set(v2.changed);
  const referencesInstalled = installed.filter((rel) => rel.includes("/references/"));
  const editedChanged = referencesInstalled.filter((rel) => changedSet.has(rel)).filter((_, i) => i % 2 === 0);
  const editedOther = referencesInstalled.filter((rel) => !changedSet.has(rel) && !v2.retired.includes(rel)).filter((_, i) => i % 37 === 5);
  const half = Math.round(files.length * 0.025);
  const edited = [...editedChanged.slice(0, half), ...editedOther.slice(0, Math.round(files.length * 0.05) - half)];
  writeFileSync(join(work, "edited.json"), JSON.stringify(edited));
  console.log(`generated pack: ${files.length} installed files, ${(bytes / 1e6).toFixed(1)} MB`);

  // No-op check: a reinstall writes no file at all.
  const noopCheck = tempHome(work);
  await installInto(noopCheck, v1.dir);
  let writes = 0;
  const counting = { ...nodeFs };
  for (const name of ["writeSync", "writeFileSync", "openSync", "mkdirSync", "renameSync", "unlinkSync", "rmdirSync", "linkSync", "symlinkSync", "copyFileSync", "chmodSync"]) {
    counting[name] = (...args) => {
      if (name !== "openSync" || (args[1] !== "r" && typeof args[1] !== "number") || (typeof args[1] === "number" && (args[1] & (nodeFs.constants.O_WRONLY | nodeFs.constants.O_CREAT)) !== 0)) writes++;
      return nodeFs[name](...args);
    };
  }
  const noopOutcome = await installInto(noopCheck, v1.dir, counting);
  if (noopOutcome.result.targets[0].roots[0].status !== "unchanged") throw new Error("the reinstall was not a no-op");

  // Each scenario gets a fresh temp home, and the disk is synced before the next one (untimed), so
  // data written by one run is not flushed during the next. The homes are removed only at the
  // end: on a file system that discards freed blocks, removing them between runs slows the next.
  const scenario = (body) => async () => {
    const t = tempHome(work);
    try {
      return await body(t);
    } finally {
      spawnSync("sync");
    }
  };
  const scenarios = {
    floor: scenario((t) => time(() => floor(files, join(t.home, ".claude")))),
    fresh: scenario((t) => time(() => installInto(t, v1.dir))),
    noop: scenario(async (t) => {
      await installInto(t, v1.dir);
      spawnSync("sync");
      return time(() => installInto(t, v1.dir));
    }),
    upgrade: scenario(async (t) => {
      await installInto(t, v1.dir);
      for (const rel of edited) writeFileSync(join(t.home, ".claude", rel), "edited by the user\n");
      spawnSync("sync");
      let outcome;
      const ms = await time(async () => (outcome = await installInto(t, v2.dir)));
      const actions = outcome.result.targets[0].roots[0].plan.actions;
      const count = (type) => actions.filter((action) => action.type === type).length;
      scenarios.upgradeCounts = { replaced: count("replace-file"), backedUp: count("backup-and-replace") + count("backup-and-remove"), removed: count("remove-managed"), kept: count("keep-file") };
      return ms;
    }),
  };
  const names = ["floor", "fresh", "noop", "upgrade"];
  for (const name of names) await scenarios[name](); // warm-up
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const name of names) samples[name].push(await scenarios[name]());
  if (process.env.BENCH_DEBUG) console.log(JSON.stringify(samples));
  const med = Object.fromEntries(names.map((name) => [name, median(samples[name])]));

  const peak = Object.fromEntries(
    names.map((name) => {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--peak", name, work], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`peak run ${name} failed: ${run.stderr}`);
      return [name, Number(run.stdout) / 1024];
    }),
  );
  const counts = scenarios.upgradeCounts;
  console.log(`runs per scenario: ${ROUNDS} (interleaved, after 1 warm-up round), medians:`);
  console.log(`  floor (write + hash)     ${med.floor.toFixed(1).padStart(7)} ms`);
  console.log(`  bosun fresh install      ${med.fresh.toFixed(1).padStart(7)} ms  (${(med.fresh / med.floor).toFixed(2)}x floor; target <= 1.5)`);
  console.log(`  bosun no-op reinstall    ${med.noop.toFixed(1).padStart(7)} ms  (${(med.noop / med.fresh).toFixed(2)}x fresh; target <= 0.3; files written: ${writes})`);
  console.log(`  bosun upgrade v1 -> v2   ${med.upgrade.toFixed(1).padStart(7)} ms  (${(med.upgrade / med.fresh).toFixed(2)}x fresh; target <= 1.5; ${counts.replaced} replaced, ${counts.removed} retired, ${counts.backedUp} of your edits backed up, ${counts.kept} kept)`);
  console.log(`  peak memory (max RSS, each scenario alone in its own process): ${names.map((name) => `${name} ${peak[name].toFixed(0)} MB`).join(", ")}`);
  if (writes !== 0) throw new Error(`the no-op reinstall wrote ${writes} times`);
  console.log(`install: fresh/floor=${(med.fresh / med.floor).toFixed(2)} noop/fresh=${(med.noop / med.fresh).toFixed(2)} upgrade/fresh=${(med.upgrade / med.fresh).toFixed(2)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
