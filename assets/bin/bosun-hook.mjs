#!/usr/bin/env node
// bosun's hook helper. Coding agents' hooks (registered by `bosun install`) call this script, so it
// must be standalone (Node built-ins only), quick, and never break the agent that called it:
// whatever goes wrong, it exits 0 within a few seconds.
//
//   bosun-hook.mjs [--format F] session-start  print one bosun status line for the agent's context
//   bosun-hook.mjs refresh [--cli PATH]        rebuild that line by running `bosun status --json`
//   bosun-hook.mjs --version | --help
//
// --format says how the agent that runs the hook takes context from it: `text` (the default, and
// what a command installed before formats existed gets) prints the bare line, which Claude Code and
// Codex add to the model's context; `json` prints the line as SessionStart `additionalContext`
// (`{"hookSpecificOutput":{...}}`), the form Gemini CLI needs to pass it to the model (it shows
// plain stdout to the user only). An unknown format prints the bare line.
//
// bosun replaces an installed copy with a newer packaged one only when the packaged one still has
// the functions marked "safety marker" below (see src/startup/30_runtime_helper_sync.ts).

import { execFile, spawn } from "node:child_process";
import { closeSync, openSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HELPER_VERSION = 2;

const HELPER_FILE = fileURLToPath(import.meta.url);
// The helper lives in <bosun data dir>/bin/; its snapshot sits in the data dir.
const SNAPSHOT_FILE = join(dirname(dirname(HELPER_FILE)), "hook-status.json");
const SNAPSHOT_MAX_BYTES = 64 * 1024;
const STALE_AFTER_MS = 60 * 60 * 1000;
const REFRESH_TIMEOUT_MS = 20_000;
const FALLBACK_LINE = "bosun: status not cached yet; run `bosun status` to see your agents";

// Safety marker: a hook must never fail or block the agent session that runs it.
function neverFailTheHost(main) {
  const guard = setTimeout(() => process.exit(0), 5_000);
  guard.unref();
  Promise.resolve()
    .then(main)
    .catch(() => {})
    .finally(() => {
      process.exitCode = 0;
    });
}

// Safety marker: every wait is bounded.
function withDeadline(promise, ms, fallback) {
  let timer;
  const timeout = new Promise((done) => {
    timer = setTimeout(() => done(fallback), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Safety marker: the agent's context gets one printable line, never control sequences.
function sanitizeLine(text) {
  const line = String(text).split(/\r?\n/, 1)[0].replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return line.length > 200 ? line.slice(0, 199) + "…" : line;
}

// Safety marker: reads only bosun's own snapshot, bounded in size; never credentials.
function readSnapshot(file = SNAPSHOT_FILE) {
  try {
    const info = statSync(file);
    if (!info.isFile() || info.size > SNAPSHOT_MAX_BYTES) return null;
    const buffer = Buffer.alloc(info.size);
    const fd = openSync(file, "r");
    try {
      readSync(fd, buffer, 0, info.size, 0);
    } finally {
      closeSync(fd);
    }
    const snapshot = JSON.parse(buffer.toString("utf8"));
    return typeof snapshot?.line === "string" ? snapshot : null;
  } catch {
    return null;
  }
}

// Safety marker: the snapshot is replaced atomically, so a reader never sees half a file.
function writeSnapshotAtomically(snapshot, file = SNAPSHOT_FILE) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(snapshot) + "\n", { mode: 0o600 });
    renameSync(temp, file);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed into place
    }
  }
}

function refreshStatusSnapshot(cli) {
  const node = process.execPath;
  const run = new Promise((done) => {
    execFile(node, [cli, "status", "--json"], { timeout: REFRESH_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      if (error) return done(null);
      try {
        done(JSON.parse(stdout));
      } catch {
        done(null);
      }
    });
  });
  return withDeadline(run, REFRESH_TIMEOUT_MS + 1_000, null).then((status) => {
    if (!status || typeof status.summary !== "string") return;
    writeSnapshotAtomically({ version: HELPER_VERSION, generatedAt: new Date().toISOString(), line: status.summary, cli: { node, entry: cli } });
  });
}

function startBackgroundRefresh(cli) {
  try {
    const child = spawn(process.execPath, [HELPER_FILE, "refresh", "--cli", cli], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // best effort: the next session start tries again
  }
}

// What the agent reads on stdout: the line alone, or wrapped as SessionStart context.
function sessionStartOutput(line, format) {
  if (format !== "json") return line + "\n";
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: line } }) + "\n";
}

function sessionStart(format) {
  const snapshot = readSnapshot();
  process.stdout.write(sessionStartOutput(sanitizeLine(snapshot ? snapshot.line : FALLBACK_LINE), format));
  const age = snapshot ? Date.now() - Date.parse(snapshot.generatedAt) : Infinity;
  const cli = snapshot?.cli?.entry;
  if (typeof cli === "string" && !(age < STALE_AFTER_MS)) startBackgroundRefresh(cli);
}

// Options may come before or after the command: `{bosun-hook}` in a pack's hook command becomes
// `node bosun-hook.mjs --format json` for a runtime that needs it, followed by the pack's words.
function parseArgs(argv) {
  const options = {};
  const words = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--format" || argv[i] === "--cli") options[argv[i].slice(2)] = argv[++i];
    else words.push(argv[i]);
  }
  return { command: words[0], options };
}

function main(argv) {
  const { command, options } = parseArgs(argv);
  if (command === "session-start") return sessionStart(options.format);
  if (command === "refresh") {
    const cli = options.cli ?? readSnapshot()?.cli?.entry;
    if (typeof cli === "string" && cli) return refreshStatusSnapshot(resolve(cli));
    return;
  }
  if (command === "--version") return void process.stdout.write(`${HELPER_VERSION}\n`);
  process.stdout.write("usage: bosun-hook.mjs [--format text|json] session-start | refresh [--cli PATH] | --version\n");
}

neverFailTheHost(() => main(process.argv.slice(2)));
