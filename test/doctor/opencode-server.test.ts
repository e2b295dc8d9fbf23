import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeCli } from "../../src/doctor/cli-probes.js";
import { runProbe } from "../../src/doctor/probe-process.js";
import { OPENCODE_SERVE_ARGS, opencodeServerQuestions } from "../../src/doctor/probes/opencode-server.js";
import { makeTempHome } from "../fixtures/temp-home.js";

const CONFIG = new URL("./captured/opencode-debug-config-global.json", import.meta.url).pathname;
const SKILL = new URL("./captured/opencode-debug-skill-global.json", import.meta.url).pathname;

// A stand-in for `opencode serve`: a real HTTP server on loopback that checks the password it was
// given in its environment and the folder asked about, logs each request and its own pid, and
// never ends by itself. MODE picks how it misbehaves.
const STANDIN = `#!/usr/bin/env node
const http = require("node:http");
const fs = require("node:fs");
const log = (entry) => fs.appendFileSync(process.env.STANDIN_LOG, JSON.stringify(entry) + "\\n");
log({ pid: process.pid, args: process.argv.slice(2), offline: process.env.npm_config_offline });
const mode = process.env.MODE || "ok";
if (mode === "exit") { console.error("Error: Configuration is invalid"); process.exit(1); }
const bodies = { "/config": fs.readFileSync(process.env.CONFIG_FILE, "utf8"), "/skill": fs.readFileSync(process.env.SKILL_FILE, "utf8") };
const expected = "Basic " + Buffer.from(process.env.OPENCODE_SERVER_USERNAME + ":" + process.env.OPENCODE_SERVER_PASSWORD).toString("base64");
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  log({ path: url.pathname, directory: url.searchParams.get("directory"), authorized: req.headers.authorization === expected });
  if (req.headers.authorization !== expected) { res.writeHead(401); return res.end(); }
  if (mode === "hang") return;
  if (mode === "error") { res.writeHead(400, { "content-type": "application/json" }); return res.end(JSON.stringify({ name: "ConfigJsonError", data: { message: "PLANTED-DETAIL in opencode.json" } })); }
  if (mode === "old" && url.pathname === "/skill") { res.writeHead(200, { "content-type": "text/html" }); return res.end("<!doctype html><title>OpenCode</title>"); }
  if (mode === "huge") { res.writeHead(200, { "content-type": "application/json" }); return res.end("[" + "0,".repeat(50000) + "0]"); }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(bodies[url.pathname]);
});
server.listen(0, "127.0.0.1", () => console.log("opencode server listening on http://127.0.0.1:" + server.address().port));
`;

function standin(mode: string) {
  const t = makeTempHome();
  const bin = t.write("bin/opencode", STANDIN);
  chmodSync(bin, 0o755);
  const logFile = join(t.root, "standin.log");
  const project = join(t.root, "my project");
  t.write("my project/.keep", "");
  const env = { ...t.env, MODE: mode, STANDIN_LOG: logFile, CONFIG_FILE: CONFIG, SKILL_FILE: SKILL, OPENCODE_SERVER_PASSWORD: "the user's own", OPENCODE_SERVER_USERNAME: "someone" };
  const entries = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) : []);
  return { bin, project, env, entries };
}

// Below vitest's own time limit: a probe that fails to stop its server still ends it itself.
const PROBE_TIMEOUT_MS = 10_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the OpenCode probe (one `opencode serve`, asked over loopback)", () => {
  it("asks for the config and the skills at once, with a password of its own, about the folder, then stops the server", async () => {
    const s = standin("ok");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, wantsSkills: true });
    expect(answer).not.toHaveProperty("failure");
    expect(answer.how).toBe("opencode serve (GET /config, /skill)");
    if ("failure" in answer) return;
    expect(answer.listing.commands!.map((item) => item.name)).toEqual(["bosun-delegate", "bosun-status"]);
    expect(answer.listing.agents!.map((item) => item.name)).toEqual(["bosun-reviewer"]);
    expect(answer.listing.skills!.map((item) => item.name)).toContain("bosun-orchestrator");
    const [start, ...requests] = s.entries();
    expect(start).toMatchObject({ args: [...OPENCODE_SERVE_ARGS], offline: "true" });
    expect(requests.map((entry) => entry.path).sort()).toEqual(["/config", "/skill"]);
    for (const entry of requests) expect(entry).toMatchObject({ directory: s.project, authorized: true });
    // The server would run forever: the probe ended it once both answers were in.
    expect(alive(start!.pid as number)).toBe(false);
  });

  it("asks only for the config when no skill is expected", async () => {
    const s = standin("ok");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, wantsSkills: false });
    expect(answer.how).toBe("opencode serve (GET /config)");
    if ("failure" in answer) throw new Error(answer.failure);
    expect(answer.listing.skills).toBeUndefined();
    expect(s.entries().slice(1).map((entry) => entry.path)).toEqual(["/config"]);
  });

  it("names an OpenCode that answers a listing with its web page instead", async () => {
    const s = standin("old");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, wantsSkills: true });
    expect(answer).toMatchObject({ failure: "answered GET /skill with something other than JSON (an OpenCode without this listing?)" });
  });

  it("names the error OpenCode answered with, and none of its text", async () => {
    const s = standin("error");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, wantsSkills: false });
    expect(answer).toMatchObject({ failure: "answered GET /config with HTTP 400 (ConfigJsonError)" });
    expect(JSON.stringify(answer)).not.toContain("PLANTED-DETAIL");
  });

  it("says so when OpenCode exits before it listens", async () => {
    const s = standin("exit");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, wantsSkills: true });
    expect(answer).toMatchObject({ failure: "exited with code 1 without listing what it loaded (its output was not what bosun expects)" });
  });

  it("stops a server that never answers at the timeout, and leaves nothing running", async () => {
    const s = standin("hang");
    const answer = await probeCli("opencode", { bin: s.bin, env: s.env, cwd: s.project, timeoutMs: 1_500, wantsSkills: true });
    expect(answer).toMatchObject({ failure: "did not answer within 1.5 s (stopped)" });
    expect(answer.ms).toBeLessThan(1_500 + 3_000);
    const [start] = s.entries();
    expect(alive(start!.pid as number)).toBe(false);
  });

  it("stops reading an answer far larger than a listing", async () => {
    const s = standin("huge");
    const questions = opencodeServerQuestions({ cwd: s.project, skills: false, maxBytes: 10_000 });
    const run = await runProbe({ bin: s.bin, args: OPENCODE_SERVE_ARGS, env: { ...s.env, ...questions.env }, cwd: s.project, timeoutMs: PROBE_TIMEOUT_MS, watch: questions.watch });
    questions.close();
    expect(run.outcome).toBe("stopped");
    expect(questions.failure()).toBe("answered GET /config with far more than expected (stopped)");
    expect(questions.answers()).toBeNull();
  });
});

describe("runProbe's watch", () => {
  it("ends the run once the probe says it has what it needs", async () => {
    const t = makeTempHome();
    const script = t.write("ticker.sh", "#!/bin/sh\ni=0\nwhile true; do i=$((i+1)); echo tick $i; sleep 0.05; done\n");
    chmodSync(script, 0o755);
    const seen: string[] = [];
    const run = await runProbe({ bin: script, args: [], env: t.env, cwd: t.root, timeoutMs: PROBE_TIMEOUT_MS, watch: (stdout, stop) => {
      seen.push(stdout);
      if (stdout.includes("tick 3\n")) stop();
    } });
    expect(run.outcome).toBe("stopped");
    expect(run.stdout).toContain("tick 3\n");
    expect(seen.length).toBeGreaterThan(0);
    expect(run.ms).toBeLessThan(10_000);
  });
});
