// bosun install as the user sees it: whole processes, node start included (`npm run bench:install-process`).
//   The pack under test is the real gsd-core 1.14.0: its own installer's Claude install, made a bosun
//   pack by `bosun pack import` (buildAnchorBosunPack from scripts/anchor-packs.mjs, the pack the tests
//   install; the anchor comes from `node scripts/anchor-packs.mjs install`): 72 skills, 64 agents,
//   18 hooks and gsd-core's support files, 945 installed files, about 16 MB.
//   Claude Code, global scope, each run in its own temp home (HOME, XDG_*; stdin not a terminal, so --yes):
//   version   `bosun --version` (a start of bosun that loads nothing)
//   floor     a node process that reads, hashes and writes the same files bosun installs
//   bound     the floor after loading, as one module, the code a fresh bosun install loads (none of
//             it run): what any install pays that validates with that code, before it does any work
//   gsd       gsd-core 1.14.0's own installer, `node <pkg>/bin/install.js --claude --global`, stdin
//             /dev/null (the anchor cache's copy of the package, its dependencies installed there)
//   fresh     `bosun install` into an empty ~/.claude (bosun's first start already done, untimed)
//   noop      the same install again (checked: it wrote nothing at all)
//   changed   after one SKILL.md of the pack was edited (checked: only that file and bosun's records written)
//   upgrade   to the pack with 100 more support files and a new version (checked: the 100 added)
//   fresh4x   a fresh install of the pack with 4x the files: its skills, agents and support files
//             four times over under new names, its hooks once (linearity)
// Each round runs all of them, interleaved so machine noise hits them alike; 1 warm-up round, then
// ROUNDS (default 5) rounds, medians, the disk synced between runs. Peak memory: each scenario once
// more with a preload that reports the process's max RSS. BENCH_DIR puts the temp homes elsewhere;
// BENCH_DEBUG=1 prints every sample.
// Targets: fresh <= 0.5x gsd and <= 1.5x floor; noop <= 2x version; changed <= 3x version;
// fresh4x <= 4.4x fresh. Last line: the ratios.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, lstatSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ANCHOR_PACKS, buildAnchorBosunPack, findAnchorPack } from "../scripts/anchor-packs.mjs";
import { median } from "./median.mjs";

// The floor, as its own process: `node install-process.mjs --floor LIST TARGET [CODE]` (LIST: [rel,
// source] pairs; CODE: a module loaded first, the bound).
if (process.argv[2] === "--floor") {
  const [, , , list, target, code] = process.argv;
  if (code) await import(code);
  const made = new Set();
  for (const [rel, source] of JSON.parse(readFileSync(list, "utf8"))) {
    const dir = dirname(join(target, rel));
    if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
    const content = readFileSync(source);
    writeFileSync(join(target, rel), content);
    createHash("sha256").update(content).digest("hex");
  }
  process.exit(0);
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const self = fileURLToPath(import.meta.url);
const GSD_VERSION = ANCHOR_PACKS.find((entry) => entry.id === "opengsd-gsd-core").version;

/** Deterministic text of about `size` bytes (a seeded generator, so every run adds the same files). */
function text(seed, size) {
  let a = seed >>> 0;
  const words = ["agent", "skill", "phase", "plan", "verify", "workflow", "context", "milestone", "roadmap", "brief", "execute", "review"];
  let out = "";
  while (out.length < size) {
    a = (a * 1664525 + 1013904223) >>> 0;
    out += words[a % words.length] + (a % 11 === 0 ? ".\n" : " ");
  }
  return out.slice(0, size) + "\n";
}

/**
 * The pack under test: gsd-core 1.14.0's Claude install made a bosun pack by `bosun pack import`
 * (buildAnchorBosunPack, the same pack the tests install), built into `dir`. Returns the folder and
 * the pack-relative paths of its SKILL.md files.
 */
function realPack(dir) {
  const pin = ANCHOR_PACKS.find((entry) => entry.id === "opengsd-gsd-core");
  const found = findAnchorPack(pin.id);
  if (!found) throw new Error(`${pin.pkg}@${pin.version} is not in the anchor cache: run node scripts/anchor-packs.mjs install`);
  const built = buildAnchorBosunPack(pin, found, { ...process.env, BOSUN_PACKS_DIR: join(dir, "anchor") });
  cpSync(built, join(dir, "v1"), { recursive: true });
  rmSync(join(dir, "anchor"), { recursive: true, force: true });
  const v1 = join(dir, "v1");
  return { dir: v1, packageDir: found.packageDir, skillFiles: readdirSync(join(v1, "skills")).sort().map((name) => `skills/${name}/SKILL.md`) };
}

/** v2: 100 more support files (under `files/`, so in the pack's support folder) and a new version. */
function upgradePack(v1, dir, packName) {
  cpSync(v1.dir, dir, { recursive: true });
  const added = [];
  for (let k = 0; k < 100; k++) {
    const rel = `references/added-${String(k).padStart(3, "0")}.md`;
    writeFileSync(join(dir, "files", rel), text(30_000 + k, 18_000));
    added.push(`${packName}/${rel}`);
  }
  const packJson = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...packJson, version: "2.0.0" }, null, 2));
  return { dir, added };
}

/**
 * The pack with 4x the files: its skills and agents three more times under new names (`gsd-x-r2`,
 * the agent variant `gsd-y.compact` as `gsd-y-r2.compact`, each naming itself so), and its
 * support files three more times (`files/r2/...`); the hooks once (they are config entries, not files).
 */
function quadruplePack(v1, dir) {
  cpSync(v1.dir, dir, { recursive: true });
  const packJson = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  const renamed = (name, k) => name.replace(/^([^.]+)/, `$1-r${k}`);
  const withName = (file, k) => {
    const before = readFileSync(file, "utf8");
    const after = before.replace(/^name: ([a-z0-9][a-z0-9.-]*)$/m, `name: $1-r${k}`);
    if (after === before) throw new Error(`${file}: no plain name: line to rename`);
    writeFileSync(file, after);
  };
  const skills = [...packJson.artifacts.skills];
  const agents = [...packJson.artifacts.agents];
  const support = readdirSync(join(v1.dir, "files"));
  for (let k = 2; k <= 4; k++) {
    for (const skill of packJson.artifacts.skills) {
      cpSync(join(v1.dir, "skills", skill), join(dir, "skills", renamed(skill, k)), { recursive: true });
      withName(join(dir, "skills", renamed(skill, k), "SKILL.md"), k);
      skills.push(renamed(skill, k));
    }
    for (const agent of packJson.artifacts.agents) {
      cpSync(join(v1.dir, "agents", `${agent}.md`), join(dir, "agents", `${renamed(agent, k)}.md`));
      withName(join(dir, "agents", `${renamed(agent, k)}.md`), k);
      agents.push(renamed(agent, k));
    }
    for (const entry of support) cpSync(join(v1.dir, "files", entry), join(dir, "files", `r${k}`, entry), { recursive: true });
  }
  writeFileSync(join(dir, "pack.json"), JSON.stringify({ ...packJson, artifacts: { ...packJson.artifacts, skills, agents } }, null, 2));
  return { dir };
}

function tempHome(base) {
  const home = mkdtempSync(join(base, "home-"));
  const env = { HOME: home, PATH: process.env.PATH, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state") };
  return { home, env, claude: join(home, ".claude") };
}

/** Runs one process and returns its wall time in ms; a failure stops the bench. */
function run(t, command, args, extraEnv = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env: { ...t.env, ...extraEnv }, cwd: t.home, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}${result.stdout}`);
  return ms;
}

/**
 * The code a fresh install loads, as one module: the bundle files a fresh install of `pack` imports
 * (recorded by a resolve hook), merged by esbuild into `out` with their lazy imports left out (they
 * are not loaded then either). Loading it runs what those files run at load, nothing else.
 */
async function installCode(t, pack, out) {
  const list = join(dirname(out), "loaded.txt");
  const hooks = join(dirname(out), "record-hooks.mjs");
  writeFileSync(hooks, `import { appendFileSync } from "node:fs";\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  if (found.url.startsWith(${JSON.stringify(pathToFileURL(join(root, "dist")).href)})) appendFileSync(${JSON.stringify(list)}, found.url + "\\n");\n  return found;\n}\n`);
  const preload = join(dirname(out), "record.mjs");
  writeFileSync(preload, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  install(t, pack, { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` });
  const files = [...new Set(readFileSync(list, "utf8").trim().split("\n"))].map((url) => fileURLToPath(url));
  const entry = join(dirname(out), "install-code-entry.mjs");
  writeFileSync(entry, files.map((file) => `import ${JSON.stringify(file)};\n`).join(""));
  const { build } = await import("esbuild");
  const lazyLeftOut = { name: "lazy-left-out", setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === "dynamic-import" ? { path: a.path, external: true } : undefined)) };
  await build({ entryPoints: [entry], outfile: out, bundle: true, format: "esm", platform: "node", target: "node20", plugins: [lazyLeftOut], keepNames: true, logLevel: "warning" });
  return { out, modules: files.length, bytes: files.reduce((sum, file) => sum + lstatSync(file).size, 0) };
}

const bosun = (t, args, extraEnv) => run(t, process.execPath, [bin, ...args], extraEnv);
const install = (t, pack, extraEnv) => bosun(t, ["install", pack, "--runtime", "claude", "--scope", "global", "--yes", "--no-verify"], extraEnv);

/** Every path under `dir` with what a write changes (inode, size, mtime), relative. */
function snapshot(dir, base = dir, out = new Map()) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const info = lstatSync(path);
    out.set(relative(base, path), entry.isDirectory() ? `dir:${info.ino}` : `${info.ino}:${info.size}:${info.mtimeMs}`);
    if (entry.isDirectory()) snapshot(path, base, out);
  }
  return out;
}

/** The paths that differ between two snapshots (added, removed or rewritten). */
function differences(before, after) {
  const changed = [];
  for (const [rel, key] of after) if (before.get(rel) !== key) changed.push(rel);
  for (const rel of before.keys()) if (!after.has(rel)) changed.push(rel);
  return changed.sort();
}

function listFiles(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, base, out);
    else out.push(relative(base, path));
  }
  return out;
}

const isRecord = (rel) => rel.split("/").some((part) => part.startsWith("bosun-"));

// A scenario's peak memory: the preload writes the process's max RSS (KB) when it exits.
function peakPreload(work) {
  const path = join(work, "peak-rss.mjs");
  writeFileSync(path, `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(process.env.BENCH_PEAK_FILE, String(process.resourceUsage().maxRSS)));\n`);
  return path;
}

const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "bosun-bench-process-"));
try {
  const v1 = realPack(work);
  const packName = JSON.parse(readFileSync(join(v1.dir, "pack.json"), "utf8")).name;
  const v2 = upgradePack(v1, join(work, "v2"), packName);
  const x4 = quadruplePack(v1, join(work, "x4"));
  const gsdInstaller = join(v1.packageDir, "bin", "install.js");
  // A copy of v1 for the one-changed-file scenario: each sample edits one SKILL.md in it.
  const edit = join(work, "edit");
  cpSync(v1.dir, edit, { recursive: true });
  let edits = 0;

  // What an install of v1 puts in place (bosun's records aside): the floor reads, hashes and writes exactly these.
  const reference = tempHome(work);
  install(reference, v1.dir);
  const installed = listFiles(reference.claude).filter((rel) => !isRecord(rel) && rel !== "settings.json");
  const floorList = join(work, "floor.json");
  writeFileSync(floorList, JSON.stringify(installed.map((rel) => [rel, join(reference.claude, rel)])));
  const bytes = installed.reduce((sum, rel) => sum + lstatSync(join(reference.claude, rel)).size, 0);
  const x4Reference = tempHome(work);
  install(x4Reference, x4.dir);
  const x4Count = listFiles(x4Reference.claude).filter((rel) => !isRecord(rel) && rel !== "settings.json").length;
  console.log(`pack under test (gsd-core ${GSD_VERSION} imported): ${installed.length} installed files, ${(bytes / 1e6).toFixed(1)} MB; 4x: ${x4Count} files`);
  const code = await installCode(tempHome(work), v1.dir, join(work, "install-code.mjs"));
  console.log(`code a fresh install loads: ${code.modules} bundle files, ${(code.bytes / 1e6).toFixed(2)} MB (merged into one module for the bound)`);

  /** A fresh temp home where bosun has already started once (its first-start setup is not the install). */
  const booted = () => {
    const t = tempHome(work);
    bosun(t, ["status"]);
    return t;
  };
  const synced = (ms) => (spawnSync("sync"), ms);
  const checks = {};
  const scenarios = {
    version: () => synced(bosun(tempHome(work), ["--version"])),
    floor: () => {
      const t = tempHome(work);
      const ms = run(t, process.execPath, [self, "--floor", floorList, t.claude]);
      if (listFiles(t.claude).length !== installed.length) throw new Error("the floor did not write every file");
      return synced(ms);
    },
    bound: () => {
      const t = tempHome(work);
      const ms = run(t, process.execPath, [self, "--floor", floorList, t.claude, pathToFileURL(code.out).href]);
      if (listFiles(t.claude).length !== installed.length) throw new Error("the bound did not write every file");
      return synced(ms);
    },
    gsd: () => {
      const t = tempHome(work);
      const ms = run(t, process.execPath, [gsdInstaller, "--claude", "--global"]);
      if (!existsSync(join(t.claude, "gsd-file-manifest.json"))) throw new Error("gsd-core's installer wrote no manifest into the temp home");
      return synced(ms);
    },
    fresh: (extraEnv) => {
      const t = booted();
      spawnSync("sync");
      const ms = install(t, v1.dir, extraEnv);
      const count = listFiles(t.claude).filter((rel) => !isRecord(rel) && rel !== "settings.json").length;
      if (count !== installed.length) throw new Error(`fresh install wrote ${count} files, not ${installed.length}`);
      return synced(ms);
    },
    noop: (extraEnv) => {
      const t = booted();
      install(t, v1.dir);
      spawnSync("sync");
      const before = snapshot(t.home);
      const ms = install(t, v1.dir, extraEnv);
      const changed = differences(before, snapshot(t.home)).filter((rel) => !extraEnv || !rel.endsWith("peak-rss.txt"));
      if (changed.length > 0) throw new Error(`the no-op reinstall wrote: ${changed.slice(0, 5).join(", ")}`);
      checks.noop = "0 files written";
      return synced(ms);
    },
    changed: (extraEnv) => {
      const t = booted();
      install(t, edit);
      const rel = v1.skillFiles[edits++ % v1.skillFiles.length];
      writeFileSync(join(edit, rel), `${readFileSync(join(edit, rel), "utf8")}Edited for sample ${edits}.\n`);
      spawnSync("sync");
      const before = snapshot(t.claude);
      const ms = install(t, edit, extraEnv);
      const changed = differences(before, snapshot(t.claude));
      const others = changed.filter((path) => !isRecord(path) && path !== rel);
      if (!changed.includes(rel) || others.length > 0) throw new Error(`the one-file reinstall wrote ${changed.join(", ")} (expected ${rel} and bosun's records)`);
      checks.changed = `wrote ${rel} + ${changed.filter(isRecord).length} of bosun's records`;
      return synced(ms);
    },
    upgrade: (extraEnv) => {
      const t = booted();
      install(t, v1.dir);
      spawnSync("sync");
      const ms = install(t, v2.dir, extraEnv);
      const missing = v2.added.filter((rel) => !existsSync(join(t.claude, rel)));
      if (missing.length > 0) throw new Error(`the upgrade did not add ${missing[0]}`);
      checks.upgrade = `${v2.added.length} files added`;
      return synced(ms);
    },
    fresh4x: (extraEnv) => {
      const t = booted();
      spawnSync("sync");
      const ms = install(t, x4.dir, extraEnv);
      const count = listFiles(t.claude).filter((rel) => !isRecord(rel) && rel !== "settings.json").length;
      if (count !== x4Count) throw new Error(`the 4x install wrote ${count} files, not ${x4Count}`);
      return synced(ms);
    },
  };
  const names = Object.keys(scenarios);
  for (const name of names) scenarios[name](); // warm-up
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const name of round % 2 ? [...names].reverse() : names) samples[name].push(scenarios[name]());
  if (process.env.BENCH_DEBUG) console.log(JSON.stringify(samples));
  const med = Object.fromEntries(names.map((name) => [name, median(samples[name])]));

  // Peak memory: each bosun scenario once more with the preload (the others too, by their own preload run).
  const preload = peakPreload(work);
  const peak = {};
  for (const name of names) {
    const file = join(work, `${name}-peak-rss.txt`);
    const peakEnv = { NODE_OPTIONS: `--import=${preload}`, BENCH_PEAK_FILE: file };
    if (["version", "floor", "bound", "gsd"].includes(name)) {
      const t = tempHome(work);
      if (name === "version") bosun(t, ["--version"], peakEnv);
      else if (name === "floor") run(t, process.execPath, [self, "--floor", floorList, t.claude], peakEnv);
      else if (name === "bound") run(t, process.execPath, [self, "--floor", floorList, t.claude, pathToFileURL(code.out).href], peakEnv);
      else run(t, process.execPath, [gsdInstaller, "--claude", "--global"], peakEnv);
    } else scenarios[name](peakEnv);
    peak[name] = Number(readFileSync(file, "utf8")) / 1024;
  }

  const line = (label, name, note) => console.log(`  ${label.padEnd(34)} ${med[name].toFixed(0).padStart(6)} ms  ${peak[name].toFixed(0).padStart(4)} MB${note ? `  ${note}` : ""}`);
  const ratio = (a, b) => med[a] / med[b];
  const r = {
    freshGsd: ratio("fresh", "gsd"),
    freshFloor: ratio("fresh", "floor"),
    boundFloor: ratio("bound", "floor"),
    noopVersion: ratio("noop", "version"),
    changedVersion: ratio("changed", "version"),
    x4Fresh: ratio("fresh4x", "fresh"),
  };
  const target = (label, value, max) => `${label} ${value.toFixed(2)} (target <= ${max}${value <= max ? "" : ": MISSED"})`;
  console.log(`runs per scenario: ${ROUNDS} (interleaved, after 1 warm-up round); medians and peak RSS:`);
  line("bosun --version", "version");
  line("floor (read + hash + write)", "floor");
  line("bound (floor + install code load)", "bound", `bound/floor ${r.boundFloor.toFixed(2)}: the least a fresh install with this code can cost`);
  line(`gsd-core ${GSD_VERSION} installer`, "gsd");
  line("bosun fresh install", "fresh", `${target("fresh/gsd", r.freshGsd, 0.5)}, ${target("fresh/floor", r.freshFloor, 1.5)}`);
  line("bosun no-op reinstall", "noop", `${target("noop/version", r.noopVersion, 2)}; ${checks.noop}`);
  line("bosun after one changed file", "changed", `${target("changed/version", r.changedVersion, 3)}; ${checks.changed}`);
  line("bosun upgrade, 100 more files", "upgrade", `upgrade/fresh ${ratio("upgrade", "fresh").toFixed(2)}; ${checks.upgrade}`);
  line("bosun fresh install, 4x the files", "fresh4x", `${target("x4/fresh", r.x4Fresh, 4.4)}`);
  console.log(
    `install-process: fresh/gsd=${r.freshGsd.toFixed(2)} fresh/floor=${r.freshFloor.toFixed(2)} bound/floor=${r.boundFloor.toFixed(2)} noop/version=${r.noopVersion.toFixed(2)} changed/version=${r.changedVersion.toFixed(2)} upgrade/fresh=${ratio("upgrade", "fresh").toFixed(2)} x4/fresh=${r.x4Fresh.toFixed(2)}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
