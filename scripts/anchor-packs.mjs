// The anchor workflow packages the pack tests compare bosun against, pinned, fetched from npm
// into a cache folder outside the repository (reused when already there), with the anchor's own
// Claude Code install of each, made by its installer in a throwaway home inside that folder:
//
//   node scripts/anchor-packs.mjs install     fetch and install what is missing, then list them
//   node scripts/anchor-packs.mjs list        list them; exit 1 if one is missing
//
// The folder is $BOSUN_PACKS_DIR, else $XDG_CACHE_HOME/bosun-packs, else ~/.cache/bosun-packs.
// Each package gets `<folder>/<id>-<version>/package/` (the unpacked tarball),
// `<folder>/<id>-<version>/home/.claude/` (what its installer wrote for Claude Code, global). The
// tests make a bosun pack of that tree themselves with `buildAnchorBosunPack` (the repository's
// built `bosun pack import`), so `install` runs before `npm run build` on a fresh machine.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The anchor packages (see /work/shared/reference/gsd-installer.md and the README's "Packs"). */
export const ANCHOR_PACKS = [
  {
    id: "opengsd-gsd-core",
    pkg: "@opengsd/gsd-core",
    version: "1.14.0",
    install: ["bin/install.js", "--claude", "--global"],
    // gsd-core is get-shit-done renamed (the anchor's own 003-rename-get-shit-done-to-gsd-core):
    // `pack import` reads one install and cannot know that, so the pack carries it as data.
    pack: {
      name: "gsd-core",
      files: ["gsd-core", "hooks", "scripts"],
      migrations: [
        {
          id: "2026-12-02-gsd-core-succeeds-get-shit-done",
          title: "get-shit-done is now gsd-core",
          description: "gsd-core takes the place of the get-shit-done pack: its files, hooks and settings pass to gsd-core; support files move from get-shit-done/ to gsd-core/ (your edits backed up before they are replaced); your own files stay.",
          introducedIn: "1.14.0",
          scopes: ["global", "local"],
          destructive: true,
          steps: [{ type: "succeed-pack", from: "get-shit-done" }],
        },
      ],
    },
  },
  { id: "get-shit-done-cc", pkg: "get-shit-done-cc", version: "1.42.3", install: ["bin/install.js", "--claude", "--global"], pack: { name: "get-shit-done", files: ["get-shit-done", "hooks"] } },
];

/**
 * Makes a bosun pack of an anchor's Claude install with the real `bosun pack import` (the
 * repository's built CLI), into `<folder>/<id>-<version>/bosun-pack/`; rebuilt every time (a few
 * seconds), so it always follows bosun's import code. Returns the pack folder.
 */
export function buildAnchorBosunPack(pin, found, env = process.env) {
  const out = join(anchorPacksDir(env), `${pin.id}-${pin.version}`, "bosun-pack");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  const home = dirname(found.claudeDir);
  const bosun = fileURLToPath(new URL("../bin/bosun.js", import.meta.url));
  const flags = pin.pack.files.flatMap((dir) => ["--files", dir]);
  run("node", [bosun, "pack", "import", "--runtime", "claude", "--scope", "global", "--name", pin.pack.name, "--version", pin.version, "--out", out, ...flags, "--json"], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(out, "..", "xdg", "config"), XDG_DATA_HOME: join(out, "..", "xdg", "data"), XDG_STATE_HOME: join(out, "..", "xdg", "state"), XDG_CACHE_HOME: join(out, "..", "xdg", "cache") },
  });
  // The pack's history, which one install does not show: its installer migrations, as data.
  for (const migration of pin.pack.migrations ?? []) {
    mkdirSync(join(out, "migrations"), { recursive: true });
    writeFileSync(join(out, "migrations", `${migration.id}.json`), `${JSON.stringify(migration, null, 2)}\n`);
  }
  return out;
}

/** Written last by `installAnchorPack`: the copy is whole. */
const COMPLETE = ".complete";

export function anchorPacksDir(env = process.env) {
  if (env.BOSUN_PACKS_DIR) return env.BOSUN_PACKS_DIR;
  const cache = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(cache, "bosun-packs");
}

/** Where an anchor package and its Claude install are in the cache; null when they are not complete there. */
export function findAnchorPack(id, env = process.env) {
  const pin = ANCHOR_PACKS.find((entry) => entry.id === id);
  const cached = join(anchorPacksDir(env), `${pin.id}-${pin.version}`);
  const place = { packageDir: join(cached, "package"), claudeDir: join(cached, "home", ".claude") };
  return existsSync(join(cached, COMPLETE)) ? place : null;
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 10 * 60_000, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal}):\n${(result.stderr || result.stdout).trim().slice(-2000)}`);
  return result.stdout;
}

/**
 * Fetches one anchor package into `dir` and runs its installer for Claude Code there (replacing an
 * older copy). The installer writes its home's absolute path into what it installs (settings.json's
 * hook commands), so it runs in the folder's final place; a `.complete` file, written last, says the
 * copy is whole (an interrupted one is made again).
 */
export function installAnchorPack(dir, pin) {
  const target = join(dir, `${pin.id}-${pin.version}`);
  const staging = `${target}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  run("npm", ["pack", "--silent", `${pin.pkg}@${pin.version}`], { cwd: staging });
  const tarball = readdirSync(staging).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack ${pin.pkg}@${pin.version} left no tarball in ${staging}`);
  run("tar", ["-xzf", tarball], { cwd: staging });
  // Its installer needs the package's own dependencies; then it installs for Claude Code into a home of our own.
  run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: join(staging, "package") });
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  const home = join(target, "home");
  mkdirSync(home, { recursive: true });
  run("node", pin.install, { cwd: join(target, "package"), env: { PATH: process.env.PATH, HOME: home, TERM: "dumb" }, input: "" });
  writeFileSync(join(target, COMPLETE), `${pin.pkg}@${pin.version}\n`);
}

function main(command) {
  if (command !== "install" && command !== "list") {
    process.stderr.write("usage: node scripts/anchor-packs.mjs install|list\n");
    return 2;
  }
  const dir = anchorPacksDir();
  let missing = 0;
  for (const pin of ANCHOR_PACKS) {
    if (command === "install" && !findAnchorPack(pin.id)) installAnchorPack(dir, pin);
    const found = findAnchorPack(pin.id);
    if (!found) missing++;
    process.stdout.write(`${pin.pkg}@${pin.version}: ${found ? `${found.packageDir} (Claude install: ${found.claudeDir})` : "missing: run node scripts/anchor-packs.mjs install"}\n`);
  }
  return missing === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv[2]);
