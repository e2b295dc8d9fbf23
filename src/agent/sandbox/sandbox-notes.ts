import type { Sandbox } from "./sandbox.js";

const READ_ONLY = /Read-only file system|EROFS/;
const NO_NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|No address associated with hostname|Network is unreachable|getaddrinfo (EAI_AGAIN|ENOTFOUND)|ENETUNREACH|EAI_AGAIN|Failed to establish a new connection|Couldn't connect to server|unable to look up/;
const FILE_TOO_LARGE = /File size limit exceeded/;

/**
 * One line for the model when a command failed because of the sandbox, so it does not retry
 * blindly: a write outside its writable folders, a network that is off, a file over the size
 * limit. Null when the output shows none of these.
 */
export function sandboxNote(output: string, sandbox: Sandbox | undefined, failed: boolean, signal: NodeJS.Signals | null): string | null {
  if (signal === "SIGXFSZ" || (failed && FILE_TOO_LARGE.test(output))) {
    return `[sandbox: a file this command wrote reached the size limit of ${sandbox?.limits.fileBytes ?? "the"} bytes (sandbox.max_file_bytes in bosun.json) and was cut there]`;
  }
  if (!sandbox?.bwrap || !failed) return null;
  if (READ_ONLY.test(output)) {
    return '[sandbox: this command tried to write outside the folders it may write (the working folder, /tmp, sandbox.writable). If it must, call bash again with writable: ["<the path>"]: the user is asked to allow it for that call]';
  }
  if (sandbox.network === "off" && NO_NETWORK.test(output)) {
    return "[sandbox: commands have no network (sandbox.network is off in bosun.json); this failed for lack of it. Do not retry; work offline, or tell the user what needs the network]";
  }
  return null;
}
