import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { BackgroundJobs } from "../../../src/agent/tools/background-jobs.js";
import { createBashTool } from "../../../src/agent/tools/bash.js";
import { makeToolBench } from "../../fixtures/tool-context.js";
import { describeSandboxed, sandboxLayout, testSandbox } from "../../fixtures/sandbox.js";

const bash = createBashTool();

/** The `sleep 30N.<marker>` processes on this machine, whatever PID namespace they are in. */
function running(marker: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", `^sleep 30[0-9]\\.${marker}$`], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** Shell that waits (up to 5 s, the machine may be busy) until `count` processes match, then says how many there are. */
function waitForCount(count: number, pattern: string): string {
  return `for i in $(seq 50); do [ "$(pgrep -c -f '${pattern}')" -ge ${count} ] && break; sleep 0.1; done; echo started $(pgrep -c -f '${pattern}')`;
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describeSandboxed("bash inside the sandbox", () => {
  it("writes in the working folder and /tmp, and nowhere else: the model is told why in one line", async () => {
    const layout = sandboxLayout();
    writeFileSync(join(layout.outside, "keep.txt"), "untouched\n");
    const sandbox = await testSandbox(layout.workdir);
    const t = makeToolBench();
    const result = await t.run(bash, { command: "echo in > here.txt && echo t > /tmp/t && cat /tmp/t && echo x > ../outside/keep.txt; rm -f ../outside/keep.txt" }, { workdir: layout.workdir, sandbox });
    expect(readFileSync(join(layout.workdir, "here.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(join(layout.outside, "keep.txt"), "utf8")).toBe("untouched\n");
    expect(result.output).toContain("Read-only file system");
    expect(result.output).toContain('call bash again with writable: ["<the path>"]');
  });

  it("the cwd argument may point outside (a parent, an absolute path, a symlink), but nothing there can be written", async () => {
    const layout = sandboxLayout();
    symlinkSync(layout.outside, join(layout.workdir, "link"));
    const sandbox = await testSandbox(layout.workdir);
    const t = makeToolBench();
    for (const cwd of ["..", layout.outside, "link"]) {
      const result = await t.run(bash, { command: "pwd; touch made-here", cwd }, { workdir: layout.workdir, sandbox });
      expect(result.output).toContain("Read-only file system");
    }
    expect(existsSync(join(layout.outside, "made-here"))).toBe(false);
    expect(existsSync(join(layout.root, "made-here"))).toBe(false);
  });

  it("a path the user allowed for this call is writable for that call only", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir);
    const t = makeToolBench();
    await t.run(bash, { command: "echo granted > ../outside/a.txt" }, { workdir: layout.workdir, sandbox, granted: { write: [layout.outside] } });
    expect(readFileSync(join(layout.outside, "a.txt"), "utf8")).toBe("granted\n");
    await t.run(bash, { command: "echo again > ../outside/a.txt" }, { workdir: layout.workdir, sandbox });
    expect(readFileSync(join(layout.outside, "a.txt"), "utf8")).toBe("granted\n");
  });

  it("credential files read as empty, and their folders as empty folders", async () => {
    const layout = sandboxLayout();
    const auth = join(layout.home, ".codex", "auth.json");
    mkdirSync(join(layout.home, ".codex"));
    writeFileSync(auth, '{"OPENAI_API_KEY":"sk-proj-planted-credential-0123456789"}');
    mkdirSync(join(layout.home, ".aws", "sso", "cache"), { recursive: true });
    writeFileSync(join(layout.home, ".aws", "sso", "cache", "token.json"), "sso-planted-credential");
    const sandbox = await testSandbox(layout.workdir, { secrets: { files: [auth], folders: [join(layout.home, ".aws", "sso", "cache")] } });
    const t = makeToolBench();
    const result = await t.run(bash, { command: `cat ${auth}; ls -A ${layout.home}/.aws/sso/cache; cat ${layout.home}/.aws/sso/cache/token.json; echo done` }, { workdir: layout.workdir, sandbox });
    expect(result.output).not.toContain("planted-credential");
    expect(result.output).toContain("done");
  });

  it("nothing a call starts outlives it: &, nohup and setsid children are gone when it returns", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir);
    const t = makeToolBench();
    const marker = `${Date.now() % 100000}5`;
    const result = await t.run(
      bash,
      { command: `sleep 301.${marker} & nohup sleep 302.${marker} >/dev/null 2>&1 & setsid sleep 303.${marker} & ${waitForCount(3, `^sleep 30[123]\\.${marker}$`)}` },
      { workdir: layout.workdir, sandbox },
    );
    expect(result.output).toContain("started 3");
    expect(running(marker)).toEqual([]);
  });

  it("without the sandbox, & and nohup children still end with the call (they share its process group)", async () => {
    const t = makeToolBench();
    const marker = `${Date.now() % 100000}7`;
    const result = await t.run(bash, { command: `sleep 304.${marker} & nohup sleep 305.${marker} >/dev/null 2>&1 & ${waitForCount(2, `^sleep 30[45]\\.${marker}$`)}` });
    expect(result.output).toContain("started 2");
    expect(running(marker)).toEqual([]);
  });

  it("the network is off unless sandbox.network is on", async () => {
    const layout = sandboxLayout();
    const server = createServer((socket) => socket.end("hello from the host\n"));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const port = (server.address() as { port: number }).port;
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const t = makeToolBench();
    const off = await t.run(bash, { command }, { workdir: layout.workdir, sandbox: await testSandbox(layout.workdir) });
    expect(off.output).not.toContain("hello from the host");
    const on = await t.run(bash, { command }, { workdir: layout.workdir, sandbox: await testSandbox(layout.workdir, { settings: { network: "on" } }) });
    expect(on.output).toContain("hello from the host");
  });

  it("a failed name lookup with the network off tells the model the network is off", async () => {
    const layout = sandboxLayout();
    const t = makeToolBench();
    const command = `${process.execPath} -e "require('dns').lookup('registry.npmjs.org', (e) => { if (e) { console.error('getaddrinfo ' + e.code + ' registry.npmjs.org'); process.exit(1) } })"`;
    const result = await t.run(bash, { command }, { workdir: layout.workdir, sandbox: await testSandbox(layout.workdir) });
    expect(result.output).toContain("[sandbox: commands have no network");
  });

  it("a file a command writes stops at sandbox.max_file_bytes", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir, { settings: { limits: { outputBytes: 64 << 20, sessionOutputBytes: 1 << 30, fileBytes: 1 << 20 } } });
    const t = makeToolBench();
    const result = await t.run(bash, { command: "head -c 3000000 /dev/zero > big.bin" }, { workdir: layout.workdir, sandbox });
    expect(statSync(join(layout.workdir, "big.bin")).size).toBe(1 << 20);
    expect(result.output).toContain("sandbox.max_file_bytes");
  });

  it("spilled output stops at the call's limit, and at the run's across calls", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir, { settings: { limits: { outputBytes: 1 << 20, sessionOutputBytes: (3 << 20) / 2, fileBytes: 1 << 30 } } });
    const t = makeToolBench();
    const first = await t.run(bash, { command: "yes AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA | head -c 5000000" }, { workdir: layout.workdir, sandbox, callId: "c1" });
    expect(statSync(first.spillFile!).size).toBe(1 << 20);
    expect(first.output).toContain("a call saves at most 1048576 (sandbox.max_output_bytes)");
    const second = await t.run(bash, { command: "yes BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB | head -c 5000000" }, { workdir: layout.workdir, sandbox, callId: "c2" });
    expect(statSync(second.spillFile!).size).toBe((1 << 20) / 2);
    expect(second.output).toContain("sandbox.max_session_output_bytes");
  });

  it("background: the call returns what it printed so far, the command runs on until the run's jobs are stopped", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir);
    const jobs = new BackgroundJobs();
    const marker = `${Date.now() % 100000}9`;
    const t = makeToolBench();
    const result = await t.run(bash, { command: `echo serving; exec sleep 306.${marker}`, background: true }, { workdir: layout.workdir, sandbox, jobs });
    expect(result.output).toContain("serving");
    expect(result.output).toContain("still running in the background");
    expect(running(marker)).toHaveLength(1);
    await jobs.stopAll();
    expect(running(marker)).toEqual([]);
  });
});
