import { isInside } from "../../kernel/fs/path-inside.js";
import type { SandboxNetwork } from "./sandbox-config-schema.js";

/** One command to run inside bubblewrap, with every path already absolute and existing. */
export interface SandboxedCommand {
  /** The folder the command starts in. */
  cwd: string;
  /** The size limit of the call's own /tmp (a tmpfs, gone when the call ends). */
  tmpBytes: number;
  /** Folders the command may write (the working folder, `sandbox.writable`, what the user allowed for this call). */
  writable: readonly string[];
  /**
   * Files covered by /dev/null (bound without device access, so opening one fails with
   * "Permission denied"), and folders by an empty read-only one.
   */
  maskedFiles: readonly string[];
  maskedFolders: readonly string[];
  network: SandboxNetwork;
  /** The program and its arguments. */
  argv: readonly string[];
}

/**
 * bubblewrap's arguments for a command: the whole file system read-only, a minimal /dev and a
 * /proc of its own, a private /tmp in memory (nothing to clean up, even if bosun dies), the writable folders bound read-write (outer ones first, so
 * a folder inside another stays its own mount), then the masks over everything. Every namespace
 * is new (the network too, unless it is on), so the command's processes live in a PID namespace
 * that ends with the shell: nothing it starts in the background outlives it. No capabilities,
 * a session of its own (no typing into the terminal), and it dies with bosun.
 */
export function bwrapArgs(command: SandboxedCommand): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--size", String(command.tmpBytes), "--tmpfs", "/tmp"];
  const writable = [...new Set(command.writable)].sort((a, b) => a.length - b.length);
  for (const folder of writable) args.push("--bind", folder, folder);
  const folders = [...new Set(command.maskedFolders)].filter((folder, _, all) => !all.some((outer) => outer !== folder && isInside(folder, outer)));
  for (const folder of folders) args.push("--tmpfs", folder, "--remount-ro", folder);
  for (const file of new Set(command.maskedFiles)) {
    if (!folders.some((folder) => isInside(file, folder))) args.push("--ro-bind", "/dev/null", file);
  }
  args.push("--unshare-all");
  if (command.network === "on") args.push("--share-net");
  args.push("--cap-drop", "ALL", "--die-with-parent", "--new-session", "--chdir", command.cwd, "--", ...command.argv);
  return args;
}
