import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import { ensurePrivateDir } from "../../kernel/fs/private-dir.js";
import type { BwrapCheck } from "./bwrap-check.js";

/** The kernel settings that decide whether unprivileged user namespaces (which bwrap needs) may be made. */
const USERNS_SETTINGS = ["/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces", "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"];

/**
 * What a bwrap verdict depends on: the binary (path, size, change time), the kernel and its user
 * namespace settings, and who asks. The same key means the same answer as far as bosun can tell.
 */
export function bwrapCheckKey(bwrap: string): string {
  const info = statSync(bwrap, { throwIfNoEntry: false });
  const settings = USERNS_SETTINGS.map((file) => {
    try {
      return readFileSync(file, "utf8").trim();
    } catch {
      return null;
    }
  });
  return JSON.stringify([bwrap, info?.size ?? null, info?.ctimeMs ?? null, release(), process.getuid?.() ?? null, settings]);
}

function cacheFile(stateDir: string): string {
  return join(stateDir, "sandbox-check.json");
}

/**
 * The last verdict a run (or status) got for this key, for `bosun status` to show without
 * starting a sandbox; null when there is none or anything about it changed. Runs never use it:
 * they always start one.
 */
export function cachedBwrapCheck(stateDir: string, key: string): (BwrapCheck & { checkedAt: string }) | null {
  try {
    const stored = JSON.parse(readFileSync(cacheFile(stateDir), "utf8")) as { key?: unknown; check?: BwrapCheck; checkedAt?: unknown };
    if (stored.key !== key || !stored.check || typeof stored.checkedAt !== "string") return null;
    return { ...stored.check, checkedAt: stored.checkedAt };
  } catch {
    return null;
  }
}

/** Keeps a verdict for `cachedBwrapCheck`; a state folder that cannot be written only costs the next status a check. */
export function rememberBwrapCheck(stateDir: string, key: string, check: BwrapCheck): void {
  const file = cacheFile(stateDir);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    ensurePrivateDir(stateDir);
    writeFileSync(temp, `${JSON.stringify({ key, check, checkedAt: new Date().toISOString() })}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // best effort: see above
  }
}
