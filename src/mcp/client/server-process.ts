import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { expandHome, type Env } from "../../kernel/paths.js";
import type { StdioServer } from "../server-schema.js";
import { ProcessTransport } from "./process-transport.js";
import type { ResolvedValues } from "./resolve-references.js";

export interface ServerProcessOptions {
  /** The environment the server gets under its own `env` values. */
  baseEnv: Env;
  /** Where a server without `cwd` starts, and what a relative `cwd` is taken from. */
  workdir: string;
  home: string;
  onSpawned?(pid: number): void;
}

/**
 * The process of a server bosun starts, not started yet: its command and arguments, in its `cwd`
 * (`~/…` and a relative one taken from the working folder), with the base environment and its
 * own `env` (references resolved) over it. A `cwd` that is not a folder is thrown as the line's
 * reason (a string). Loads nothing of the SDK, so that the pool can start the processes while the
 * client is still loading.
 */
export function serverProcess(server: StdioServer, resolved: ResolvedValues, options: ServerProcessOptions): ProcessTransport {
  const cwd = server.cwd ? resolve(options.workdir, expandHome(server.cwd, options.home)) : options.workdir;
  if (!isFolder(cwd)) throw new CwdProblem(`its cwd ${isAbsolute(server.cwd ?? "") ? cwd : `${server.cwd} (${cwd})`} is not a folder`);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.baseEnv)) if (value !== undefined) env[name] = value;
  return new ProcessTransport({ command: server.command, args: server.args ?? [], cwd, env: { ...env, ...resolved.values }, ...(options.onSpawned ? { onSpawned: options.onSpawned } : {}) });
}

/** A server's `cwd` that bosun cannot start it in; the message is the reason. */
export class CwdProblem extends Error {
  override name = "CwdProblem";
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
