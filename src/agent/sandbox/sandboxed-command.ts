import { bwrapArgs } from "./bwrap-args.js";
import type { Sandbox } from "./sandbox.js";

/** A process to spawn. */
export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
}

/**
 * How to start `argv` in `cwd`: inside bubblewrap when the sandbox has it (with a private /tmp
 * of its own, as large as a file may be, and `granted` writable for this call only), else directly.
 */
export function launchCommand(argv: readonly string[], cwd: string, env: Record<string, string | undefined>, sandbox: Sandbox | undefined, granted: readonly string[] = []): Launch {
  if (!sandbox?.bwrap) return { file: argv[0]!, args: argv.slice(1), env };
  const args = bwrapArgs({
    cwd,
    tmpBytes: sandbox.limits.fileBytes,
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
  };
}
