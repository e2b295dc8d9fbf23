import { createConnection, type Socket } from "node:net";

type Connect = (options: { host: string; port: number }) => Socket;

/**
 * Does a TCP connection to host:port open within `timeoutMs`? A refused connection answers at
 * once; the timeout bounds a silent network. The socket is closed either way.
 */
export function probeTcp(host: string, port: number, timeoutMs: number, connect: Connect = createConnection): Promise<boolean> {
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
