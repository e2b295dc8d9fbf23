import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap-args.js";
import type { Sandbox } from "./sandbox.js";

/** A process to spawn, and what to clean up after it. */
export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** Removes what the launch made (the call's private temp folder). */
  cleanup(): void;
}

/**
 * How to start `argv` in `cwd`: inside bubblewrap when the sandbox has it (with a private /tmp
 * of its own, and `granted` writable for this call only), else directly.
 */
export function launchCommand(argv: readonly string[], cwd: string, env: Record<string, string | undefined>, sandbox: Sandbox | undefined, granted: readonly string[] = []): Launch {
  if (!sandbox?.bwrap) return { file: argv[0]!, args: argv.slice(1), env, cleanup: () => undefined };
  const tmp = mkdtempSync(join(tmpdir(), "bosun-call-"));
  const args = bwrapArgs({
    cwd,
    tmp,
    writable: [...sandbox.writable, ...granted],
    maskedFiles: sandbox.masked.files,
    maskedFolders: sandbox.masked.folders,
    network: sandbox.network,
    argv,
  });
  return {
    file: sandbox.bwrap,
    args,
    env: { ...env, TMPDIR: "/tmp", TMP: "/tmp", TEMP: "/tmp" },
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}
