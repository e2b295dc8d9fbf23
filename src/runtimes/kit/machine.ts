import { createConnection, type Socket } from "node:net";
import type { BosunPaths, Env } from "../../kernel/paths.js";
import { nodeFileReader } from "./detect/node-file-reader.js";
import type { DetectionContext } from "./types.js";

/** The real detection context: this machine's files and network, for the given environment. */
export function machineDetectionContext(env: Env, paths: Pick<BosunPaths, "home" | "data">, cwd: string = process.cwd()): DetectionContext {
  return { env, home: paths.home, cwd, dataDir: paths.data, files: nodeFileReader, probeSocket: probeTcp };
}

type Connect = (options: { host: string; port: number }) => Socket;

/**
 * Does a TCP connection to host:port open within `timeoutMs`? A refused connection answers at
 * once; the timeout bounds a silent network. `localhost` is taken to be 127.0.0.1 (RFC 6761
 * loopback): asking DNS for it, or trying `::1` (Node's first IPv6 address check compiles a
 * regular expression that costs more than the whole probe), would slow every `bosun status`.
 */
export function probeTcp(host: string, port: number, timeoutMs: number, connect: Connect = createConnection): Promise<boolean> {
  const address = host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : host;
  return probeAddress(address, port, timeoutMs, connect);
}

function probeAddress(host: string, port: number, timeoutMs: number, connect: Connect): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (reachable: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on("error", () => undefined);
      socket.destroy();
      resolve(reachable);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}
