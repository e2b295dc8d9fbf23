// Acceptance check by hand: install bosun's pack into each real coding agent found on the PATH,
// in a throwaway home, and run `bosun doctor` there, which asks each agent's own CLI (offline,
// without credentials) what it loaded. The probes are doctor's (src/doctor); this script only
// sets up the home and prints doctor's verdicts one per line. Agents not on the PATH are skipped.
//
//   npm run build && node scripts/accept-install.mjs [--keep] [--timeout SECONDS]
//
// Exit code 1 when an installed agent did not load what bosun put in its folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bosun = join(root, "bin", "bosun.js");
const keep = process.argv.includes("--keep");
const timeoutAt = process.argv.indexOf("--timeout");
const timeout = timeoutAt > 0 ? process.argv[timeoutAt + 1] : "60";
const AGENTS = ["claude", "codex", "gemini", "opencode"];

function onPath(binary) {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, binary)));
}

// A home outside /tmp: Codex warns on stderr when its folder is under a temp folder.
const base = mkdtempSync(join(existsSync(join(homedir(), ".cache")) ? join(homedir(), ".cache") : homedir(), "bosun-accept-"));
const home = join(base, "home");
const project = join(base, "project");
mkdirSync(project, { recursive: true });
mkdirSync(join(home, ".codex"), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local/state"),
  TMPDIR: join(base, "tmp"),
  LANG: "C.UTF-8",
  TERM: "dumb",
};
mkdirSync(env.TMPDIR, { recursive: true });

const run = (args) => spawnSync(process.execPath, [bosun, ...args], { env, cwd: project, encoding: "utf8", timeout: 10 * 60_000 });

let failed = false;
try {
  const present = AGENTS.filter(onPath);
  for (const id of AGENTS) if (!present.includes(id)) console.log(`skip  ${id}: not on the PATH`);
  if (present.length > 0) {
    const install = run(["install", "--runtime", present.join(","), "--scope", "global", "--yes", "--no-verify"]);
    if (install.status !== 0) throw new Error(`bosun install failed: ${install.stderr}`);
    const doctor = run(["doctor", "--json", "--timeout", timeout]);
    const report = JSON.parse(doctor.stdout);
    for (const runtime of report.runtimes) {
      if (runtime.probe?.failure) console.log(`FAIL  ${runtime.runtime}: ${runtime.probe.failure}`);
      for (const artifact of runtime.artifacts) {
        const mark = artifact.state === "not-loaded" ? "FAIL" : artifact.state === "loaded" ? "ok  " : artifact.state;
        console.log(`${mark.padEnd(4)}  ${runtime.runtime}: ${artifact.kind} ${artifact.name}${artifact.reason ? ` (${artifact.reason})` : ""}`);
      }
    }
    for (const problem of report.problems) console.log(`FAIL  ${problem.text}`);
    failed = !report.ok;
  }
} finally {
  if (keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
