import { existsSync, mkdirSync } from "node:fs";
import { isInside } from "../../../kernel/fs/path-inside.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import type { ExternalCommand } from "./external-process.js";

/** What an agent CLI may write inside the sandbox, besides its working folder. */
export interface CliWrites {
  /** The repository's git folder, when it works in a worktree (its commits go there). */
  gitDir: string | null;
  /** Its own folders and files (config, sessions, caches), from the kind's detection. */
  folders: readonly string[];
  files: readonly string[];
}

/**
 * An agent CLI's command inside the run's sandbox, where the run has one with bubblewrap: the
 * whole file system read-only except its working folder (its worktree), the repository's git
 * folder, its own config and state folders, `$TMPDIR` and a private /tmp; the other agents'
 * credentials masked as for any command (its own stay readable: it needs them); the network
 * shared (it has to reach its model); a PID namespace that ends with it. Unlike a tool's command,
 * it keeps the user namespace and its capabilities: a CLI may sandbox its own commands in turn
 * (Codex runs them in bubblewrap), which a dropped namespace would break without a word. Its own
 * folders are created when missing, as it would create them. Without bubblewrap (the sandbox
 * `off`, or `auto` without it) the command is left as it is: the CLI runs in its process group.
 */
export function sandboxedCli(command: ExternalCommand, sandbox: Sandbox | undefined, writes: CliWrites): ExternalCommand {
  if (!sandbox?.bwrap) return command;
  for (const folder of writes.folders) mkdirSync(folder, { recursive: true });
  const tmp = command.env.TMPDIR;
  const files = writes.files.filter((file) => existsSync(file));
  const writable = [command.cwd, ...(writes.gitDir ? [writes.gitDir] : []), ...writes.folders, ...files, ...(tmp && existsSync(tmp) ? [tmp] : [])];
  // Only its own credentials are its to read: a secret in its working folder (a .env) stays masked, as for the parent.
  const own = (path: string) => [...writes.folders, ...files].some((place) => path === place || isInside(path, place));
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--size", String(sandbox.limits.fileBytes), "--tmpfs", "/tmp"];
  // Outer folders first, so a folder inside another stays its own mount.
  for (const place of [...new Set(writable)].sort((a, b) => a.length - b.length)) args.push("--bind", place, place);
  const folders = sandbox.masked.folders.filter((folder) => !own(folder));
  for (const folder of folders) args.push("--tmpfs", folder, "--remount-ro", folder);
  for (const file of sandbox.masked.files) if (!own(file) && !folders.some((folder) => isInside(file, folder))) args.push("--ro-bind", "/dev/null", file);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session", "--chdir", command.cwd, "--", command.file, ...command.args);
  return { ...command, file: sandbox.bwrap, args };
}
