// bosun serve under the load the issue names (`npm run bench:serve`), the real `bosun serve` process
// against a seeded home: 8 agents (several signed in), bosun's pack installed in all 16 runtimes, the
// full models.dev catalog (5,276 models; ../shared/data, or a generated one of that size), 200 sessions.
//   api      GET /api/agents and /api/status through bosun, interleaved with a bare hono server
//            (@hono/node-server on 127.0.0.1, in this process) answering the same JSON from memory;
//            keep-alive connections both; p50 and p99 of each
//   views    time to the first byte of each view's HTML (p50 over the rounds)
//   live     100 live streams (/live) open at once; a new session file is written and the time until
//            each stream got the changed sessions list is taken: p99 over the streams and rounds;
//            likewise a catalog change (a key stored in bosun's key store, as `bosun auth set` writes
//            it) until each stream got the catalog's new version; the server's RSS with the 100
//            streams open
//   client   the page's scripts gzipped (htmx + bosun-live.js), as served
// Targets (issue 18): api p50 <= 1.5x and p99 <= 3x bare; first HTML byte <= 50 ms p50; 100 clients
// get a change within 200 ms p99; client JS <= 30 KB gzipped; RSS <= 150 MB with 100 clients.
// Last line: the ratios.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const CLIENTS = 100;
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "bosun.js");
const { tsImport } = await import("tsx/esm/api");
const { loadModelsDevFixture } = await tsImport(join(root, "test/fixtures/models-dev-data.ts"), import.meta.url);
const { codexAuthJson } = await tsImport(join(root, "test/fixtures/codex-auth.ts"), import.meta.url);
const { FileSessionStore } = await import(join(root, "dist/agent/session/store.js"));
const { sessionsDir } = await import(join(root, "dist/agent/session/list.js"));
const { resolvePaths } = await import(join(root, "dist/kernel/paths.js"));
const { listInstallRuntimes } = await import(join(root, "dist/runtimes/registry.js"));

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

// The seeded home.
const work = mkdtempSync(join(tmpdir(), "bosun-bench-serve-"));
const home = join(work, "home");
mkdirSync(home, { recursive: true });
const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state"), BOSUN_DISABLE_MODELS_FETCH: "1", ANTHROPIC_API_KEY: "sk-ant-bench-not-a-key", OPENAI_API_KEY: "sk-bench-not-a-key", GEMINI_API_KEY: "bench-not-a-key" };
const paths = resolvePaths(env, home);
const catalog = loadModelsDevFixture();
mkdirSync(join(paths.cache, "models-dev"), { recursive: true });
writeFileSync(join(paths.cache, "models-dev", "api.json"), catalog.text);
mkdirSync(join(home, ".codex"), { recursive: true });
writeFileSync(join(home, ".codex", "auth.json"), codexAuthJson());
const runtimes = listInstallRuntimes().map((runtime) => runtime.id);
const install = spawn(process.execPath, [bin, "install", "--runtime", runtimes.join(","), "--scope", "global", "--yes", "--no-verify"], { env, cwd: home, stdio: "ignore" });
const installed = await new Promise((resolve) => install.on("exit", resolve));
if (installed !== 0) throw new Error(`bosun install into the ${runtimes.length} runtimes exited with ${installed}`);
const store = new FileSessionStore(sessionsDir(paths));
const writeSession = (i) => {
  const session = store.create({ workdir: join(home, "project"), model: { providerID: "anthropic", modelID: "claude-sonnet-5", name: "Claude Sonnet 5" }, bosunVersion: "0.1.0" });
  session.append({ type: "message", message: { role: "user", content: `task ${i}: look at the build and fix what fails` } });
  session.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `Done with task ${i}.` }] } });
  session.close();
};
for (let i = 0; i < 200; i++) writeSession(i);

// bosun serve, signed in.
const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--no-open"], { env, cwd: home, stdio: ["pipe", "pipe", "inherit"] });
const first = await new Promise((resolve, reject) => {
  child.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0])));
  child.once("exit", (code) => reject(new Error(`bosun serve exited with ${code}`)));
});
const login = await fetch(first.launchUrl, { redirect: "manual" });
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
const get = async (url) => {
  const response = await fetch(url, { headers: { cookie } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text.slice(0, 200)}`);
  return text;
};

// The bare server: the same JSON, from memory.
const bodies = { agents: await get(`${first.url}/api/agents`), status: await get(`${first.url}/api/status`) };
const bare = new Hono();
bare.get("/api/agents", (c) => c.body(bodies.agents, 200, { "content-type": "application/json" }));
bare.get("/api/status", (c) => c.body(bodies.status, 200, { "content-type": "application/json" }));
const bareServer = await new Promise((resolve) => {
  const server = serve({ fetch: bare.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(server));
});
const bareUrl = `http://127.0.0.1:${bareServer.address().port}`;

const timed = async (url) => {
  const started = performance.now();
  await get(url);
  return performance.now() - started;
};

/** The server's resident memory now, in MB. */
const serverRss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
const stage = (text) => process.stderr.write(`bench:serve: ${text}\n`);
try {
  // API, interleaved (and alternating which goes first).
  const api = { bosunAgents: [], bareAgents: [], bosunStatus: [], bareStatus: [] };
  for (let i = 0; i < 50; i++) for (const url of [`${first.url}/api/agents`, `${bareUrl}/api/agents`]) await timed(url); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    const pairs = [
      ["bosunAgents", `${first.url}/api/agents`],
      ["bareAgents", `${bareUrl}/api/agents`],
      ["bosunStatus", `${first.url}/api/status`],
      ["bareStatus", `${bareUrl}/api/status`],
    ];
    for (const [name, url] of i % 2 === 0 ? pairs : pairs.reverse()) api[name].push(await timed(url));
  }

  stage("api done");
  // First byte of each view.
  const views = { "/": [], "/installs": [], "/catalog": [], "/sessions": [], "/status": [] };
  for (let i = 0; i < 30; i++) {
    for (const view of Object.keys(views)) {
      const started = performance.now();
      const response = await fetch(`${first.url}${view}`, { headers: { cookie } });
      const reader = response.body.getReader();
      await reader.read();
      if (i > 0) views[view].push(performance.now() - started);
      await reader.cancel();
    }
  }

  stage("views done");
  // 100 live streams; a change; when each got it.
  const streams = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const controller = new AbortController();
      const response = await fetch(`${first.url}/live`, { headers: { cookie }, signal: controller.signal });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const stream = { controller, reader, buffer: "", waiting: null };
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            stream.buffer += value;
            stream.waiting?.();
          }
        } catch {
          // aborted
        }
      })();
      return stream;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the snapshots
  const delays = [];
  const catalogDelays = [];
  // With the streams open: after each change has settled (300 ms on), and the highest seen at any time (sampled every 20 ms).
  let rss = 0;
  let peak = serverRss();
  const sampler = setInterval(() => (peak = Math.max(peak, serverRss())), 20);
  /** Waits until every stream got `marker` since `started`, and records each one's delay. */
  const allGot = (marker, started, into) =>
    Promise.all(
      streams.map(
        (stream) =>
          new Promise((resolve) => {
            const check = () => {
              if (stream.buffer.includes(marker)) {
                into.push(performance.now() - started);
                stream.waiting = null;
                resolve();
              }
            };
            stream.waiting = check;
            check();
          }),
      ),
    );
  const keys = join(paths.data, "auth.json");
  for (let round = 0; round < 5; round++) {
    for (const stream of streams) stream.buffer = "";
    let started = performance.now();
    const session = store.create({ workdir: join(home, "project"), model: { providerID: "anthropic", modelID: "claude-sonnet-5", name: "Claude Sonnet 5" }, bosunVersion: "0.1.0" });
    session.append({ type: "message", message: { role: "user", content: `live change ${round}` } });
    session.close();
    // The sessions list links each session by its id.
    await allGot(`/sessions/${session.id}`, started, delays);
    await new Promise((resolve) => setTimeout(resolve, 300));
    rss = Math.max(rss, serverRss());

    // A key stored, as bosun auth set writes it (a temp file renamed over the store).
    for (const stream of streams) stream.buffer = "";
    started = performance.now();
    writeFileSync(`${keys}.tmp`, `${JSON.stringify({ groq: { type: "api", key: `gsk-bench-${round}` } }, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${keys}.tmp`, keys);
    await allGot('"target":"catalog-version"', started, catalogDelays);
    await new Promise((resolve) => setTimeout(resolve, 300));
    rss = Math.max(rss, serverRss());
  }
  clearInterval(sampler);
  for (const stream of streams) stream.controller.abort();

  // The page's scripts, as served.
  const scripts = { htmx: await get(`${first.url}/assets/htmx.min.js`), live: await get(`${first.url}/assets/bosun-live.js`) };
  const gz = (text) => gzipSync(text, { level: 9 }).length / 1024;
  const clientKb = gz(scripts.htmx) + gz(scripts.live);

  const p = (values, q) => percentile(values, q).toFixed(2);
  const target = (value, max, unit = "") => `${value.toFixed(2)}${unit} (target <= ${max}${unit}${value <= max ? "" : ": MISSED"})`;
  console.log(`bosun serve, seeded home: ${runtimes.length} runtimes installed, ${Object.values(catalog.data).reduce((n, provider) => n + Object.keys(provider.models ?? {}).length, 0)} models (${catalog.origin}), 201+ sessions; ${ROUNDS} interleaved rounds:`);
  for (const [label, ours, theirs] of [["/api/agents", api.bosunAgents, api.bareAgents], ["/api/status", api.bosunStatus, api.bareStatus]]) {
    console.log(`  ${label.padEnd(12)} bosun p50 ${p(ours, 50)} ms p99 ${p(ours, 99)} ms   bare hono p50 ${p(theirs, 50)} ms p99 ${p(theirs, 99)} ms`);
  }
  for (const [view, samples] of Object.entries(views)) console.log(`  first HTML byte ${view.padEnd(10)} p50 ${p(samples, 50)} ms  p99 ${p(samples, 99)} ms`);
  console.log(`  ${CLIENTS} live streams, a new session: all got it within p50 ${p(delays, 50)} ms, p99 ${p(delays, 99)} ms`);
  console.log(`  ${CLIENTS} live streams, a catalog change (a key stored): all got it within p50 ${p(catalogDelays, 50)} ms, p99 ${p(catalogDelays, 99)} ms (the server reads the catalog again for its status)`);
  console.log(`  server RSS with the ${CLIENTS} streams: ${rss.toFixed(0)} MB once each change settled; the highest sampled at any moment ${peak.toFixed(0)} MB`);
  console.log(`  client JS gzipped: htmx ${gz(scripts.htmx).toFixed(1)} KB + bosun-live.js ${gz(scripts.live).toFixed(1)} KB = ${clientKb.toFixed(1)} KB`);
  const ratio = (ours, theirs, q) => percentile(ours, q) / percentile(theirs, q);
  console.log(`  /api/agents p50 ${target(ratio(api.bosunAgents, api.bareAgents, 50), 1.5, "x")}, p99 ${target(ratio(api.bosunAgents, api.bareAgents, 99), 3, "x")}`);
  console.log(`  /api/status p50 ${target(ratio(api.bosunStatus, api.bareStatus, 50), 1.5, "x")}, p99 ${target(ratio(api.bosunStatus, api.bareStatus, 99), 3, "x")}`);
  console.log(`  first HTML byte p50, slowest view ${target(Math.max(...Object.values(views).map((samples) => percentile(samples, 50))), 50, " ms")}; live p99 ${target(percentile(delays, 99), 200, " ms")}, catalog ${target(percentile(catalogDelays, 99), 200, " ms")}; JS ${target(clientKb, 30, " KB")}; RSS ${target(rss, 150, " MB")}`);
  console.log(
    `serve: agents p50=${ratio(api.bosunAgents, api.bareAgents, 50).toFixed(2)} agents p99=${ratio(api.bosunAgents, api.bareAgents, 99).toFixed(2)} status p50=${ratio(api.bosunStatus, api.bareStatus, 50).toFixed(2)} status p99=${ratio(api.bosunStatus, api.bareStatus, 99).toFixed(2)} first-byte-max-p50=${Math.max(...Object.values(views).map((samples) => percentile(samples, 50))).toFixed(1)}ms live-p99=${percentile(delays, 99).toFixed(0)}ms catalog-p99=${percentile(catalogDelays, 99).toFixed(0)}ms js=${clientKb.toFixed(1)}KB rss=${rss.toFixed(0)}MB`,
  );
} finally {
  child.kill("SIGTERM");
  bareServer.close();
  rmSync(work, { recursive: true, force: true });
}
