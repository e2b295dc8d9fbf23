import { createConnection, createServer, type Server } from "node:net";
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { A0_PROBE_TIMEOUT_MS, a0, DEFAULT_A0_HOST, DOCKER_A0_BINARY, parseA0Host, resolveA0Host } from "../../src/runtimes/a0.js";
import { nodeFileReader } from "../../src/runtimes/kit/detect/node-file-reader.js";
import type { FileReader } from "../../src/runtimes/kit/detect/file-reader.js";
import { probeTcp } from "../../src/runtimes/kit/machine.js";
import { makeDetection } from "../fixtures/detection.js";

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe("a0 (Agent Zero headless)", () => {
  it("resolves the host from config, then AGENT_ZERO_HOST, then the local default, each trimmed", () => {
    expect(resolveA0Host({ host: "  http://cfg:1  " }, { AGENT_ZERO_HOST: "http://env:2" })).toBe("http://cfg:1");
    expect(resolveA0Host({ host: "   " }, { AGENT_ZERO_HOST: " http://env:2 " })).toBe("http://env:2");
    expect(resolveA0Host({}, { AGENT_ZERO_HOST: "  " })).toBe(DEFAULT_A0_HOST);
    expect(resolveA0Host({}, {})).toBe("http://localhost:80");
  });

  it("parses hosts like Agent Zero: http:// assumed, default port by scheme, localhost by default", () => {
    expect(parseA0Host("http://localhost:80")).toEqual({ hostname: "localhost", port: 80, shown: "http://localhost:80" });
    expect(parseA0Host("example.com:5080")).toEqual({ hostname: "example.com", port: 5080, shown: "example.com:5080" });
    expect(parseA0Host("https://A0.Example.com/path?q")).toEqual({ hostname: "a0.example.com", port: 443, shown: "https://A0.Example.com/path?q" });
    expect(parseA0Host("http://box")).toMatchObject({ hostname: "box", port: 80 });
    expect(parseA0Host("ws://box")).toMatchObject({ port: 80 });
    expect(parseA0Host("http://:8080")).toMatchObject({ hostname: "localhost", port: 8080 });
    expect(parseA0Host("http://[::1]:9000/")).toMatchObject({ hostname: "::1", port: 9000 });
  });

  it("never shows credentials written into the host URL", () => {
    expect(parseA0Host("http://user:pa55word@box:81/x")).toEqual({ hostname: "box", port: 81, shown: "http://box:81/x" });
  });

  it("reports a host it cannot parse as not signed in, with a display-safe error", async () => {
    const t = makeDetection({ env: { AGENT_ZERO_HOST: "http://u:hunter2secret@box:99999" } });
    const auth = await a0.status.authStatus({}, t.ctx);
    expect(auth).toEqual({ connected: false, mode: "", authPath: "http://box:99999", error: "Agent Zero host http://box:99999 has an invalid port" });
    expect(t.probes).toEqual([]);
  });

  it("is signed in when the host's port answers, probing with a 2 s timeout", async () => {
    const up = makeDetection({ reachable: true });
    expect(await a0.status.authStatus({ host: "http://box:5000" }, up.ctx)).toEqual({ connected: true, mode: "external", authPath: "http://box:5000" });
    expect(up.probes).toEqual([["box", 5000, A0_PROBE_TIMEOUT_MS]]);
    expect(A0_PROBE_TIMEOUT_MS).toBe(2000);
    const down = makeDetection({ reachable: false });
    expect(await a0.status.authStatus({}, down.ctx)).toEqual({ connected: false, mode: "", authPath: DEFAULT_A0_HOST });
    expect(down.probes).toEqual([["localhost", 80, 2000]]);
  });

  it("probes a real local port: listening → signed in, closed → not, at once", async () => {
    const { server, port } = await listen();
    try {
      const t = makeDetection({ prober: probeTcp });
      expect(await a0.status.authStatus({ host: `127.0.0.1:${port}` }, t.ctx)).toMatchObject({ connected: true, mode: "external" });
      server.close();
      await new Promise((resolve) => server.once("close", resolve));
      const started = Date.now();
      expect(await a0.status.authStatus({ host: `127.0.0.1:${port}` }, t.ctx)).toMatchObject({ connected: false });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      server.close();
    }
  });

  it("takes localhost to be 127.0.0.1, without asking DNS", async () => {
    const { server, port } = await listen();
    try {
      const hosts: string[] = [];
      const connect = (options: { host: string; port: number }) => (hosts.push(options.host), createConnection(options));
      expect(await probeTcp("localhost", port, 1000, connect)).toBe(true);
      expect(await probeTcp("a0.localhost", port, 1000, connect)).toBe(true);
      expect(hosts).toEqual(["127.0.0.1", "127.0.0.1"]);
    } finally {
      server.close();
    }
  });

  it("gives up on a silent host after the timeout and closes the socket", async () => {
    const socket = Object.assign(new EventEmitter(), { destroyed: false, destroy() { this.destroyed = true; } });
    const reachable = await probeTcp("10.0.0.1", 80, 30, () => socket as never);
    expect(reachable).toBe(false);
    expect(socket.destroyed).toBe(true);
  });

  it("falls back to the Docker image's binary only when the default a0 is not on PATH", () => {
    const docker: FileReader = {
      ...nodeFileReader,
      stat: (path) => (path === DOCKER_A0_BINARY ? { kind: "file", size: 10 } : nodeFileReader.stat(path)),
      isExecutableFile: (path) => path === DOCKER_A0_BINARY || nodeFileReader.isExecutableFile(path),
    };
    const t = makeDetection({ files: docker });
    expect(a0.status.resolveBinary({}, t.ctx)).toBe(DOCKER_A0_BINARY);
    expect(a0.status.isInstalled({}, t.ctx)).toBe(true);
    expect(a0.status.resolveBinary({ binary: "a0-custom" }, t.ctx)).toBe("a0-custom");
    const onPath = t.fakeBinary("a0");
    expect(a0.status.resolveBinary({}, t.ctx)).toBe("a0");
    expect(a0.status.isInstalled({}, t.ctx)).toBe(true);
    expect(onPath).toContain(t.binDir);
    const plain = makeDetection();
    expect(a0.status.resolveBinary({}, plain.ctx)).toBe("a0");
    expect(a0.status.isInstalled({}, plain.ctx)).toBe(false);
  });

  it("has no device login and no disconnect", () => {
    expect(a0.status.supportsDeviceLogin()).toBe(false);
    expect(a0.status.planDisconnect).toBeUndefined();
  });
});
