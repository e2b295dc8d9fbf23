import { spawn } from "node:child_process";
import type { Env } from "../../kernel/paths.js";
import { locateBinary } from "../../runtimes/kit/detect/binary.js";
import { nodeFileReader } from "../../runtimes/kit/detect/node-file-reader.js";
import { bwrapArgs } from "./bwrap-args.js";
import { bwrapCheckKey, cachedBwrapCheck, rememberBwrapCheck } from "./bwrap-check-cache.js";
import type { BwrapCheck } from "./bwrap-check.js";

const PROBE_TIMEOUT_MS = 5_000;
const checked = new Map<string, Promise<BwrapCheck>>();

/**
 * Finds `bwrap` on PATH and starts one sandbox exactly as tool calls are started (every
 * namespace new, no capabilities), once per process and bwrap path: having the binary is not
 * enough, since a kernel or a container may forbid the user namespaces it needs. With `cache`,
 * the verdict is kept in the state folder; `trust` (for `bosun status`, never for a run) takes a
 * kept one instead of starting a sandbox when nothing it depends on changed.
 */
export function checkBwrap(env: Env, cwd: string, cache?: { stateDir: string; trust: boolean }): Promise<BwrapCheck> {
  const bwrap = locateBinary("bwrap", { env, cwd, files: nodeFileReader });
  if (!bwrap) return Promise.resolve({ ok: false, reason: "bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)" });
  const key = cache ? bwrapCheckKey(bwrap) : "";
  if (cache?.trust) {
    const kept = cachedBwrapCheck(cache.stateDir, key);
    if (kept) return Promise.resolve(kept.ok ? { ok: true, bwrap: kept.bwrap } : { ok: false, reason: kept.reason });
  }
  let check = checked.get(bwrap);
  if (!check) {
    check = tryBwrap(bwrap);
    checked.set(bwrap, check);
  }
  if (cache) void check.then((verdict) => rememberBwrapCheck(cache.stateDir, key, verdict));
  return check;
}

function tryBwrap(bwrap: string): Promise<BwrapCheck> {
  const args = bwrapArgs({ cwd: "/", tmpBytes: 1 << 20, writable: [], maskedFiles: [], maskedFolders: [], network: "off", argv: ["/bin/sh", "-c", "exit 0"] });
  return new Promise<BwrapCheck>((resolve) => {
    let stderr = "";
    const child = spawn(bwrap, args, { stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error) => resolve({ ok: false, reason: `${bwrap} could not be started: ${error.message}` }));
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ ok: true, bwrap });
      const said = stderr.trim().split("\n")[0]?.replace(/^bwrap: /, "") || (signal ? `it was ended by ${signal}` : `it exited with code ${code}`);
      resolve({ ok: false, reason: `${bwrap} cannot start a sandbox here (${said}); user namespaces may be turned off (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0)` });
    });
  });
}
