// The live stream (`GET /live`), read with fetch and parsed frame by frame, from a listening
// dashboard on memory sources whose data the test changes (a refresh every 100 ms, a ping every
// 200 ms). It starts with a `ping` and the current fragment of every live element (the snapshot);
// a change reaches it within a second and only the changed element is sent (a change right after
// another too, not held until the next ping); pings keep coming at the heartbeat; a stream that
// reconnects gets the current state, nothing lost and nothing sent twice; twenty streams get a
// change together; close() ends every stream and returns promptly; a refused request opens no
// stream; streams that ended leave nothing behind in the server.
import { describe, expect, it, vi } from "vitest";
import { sessionSummary, startMemoryDashboard, fragmentOf, openLive, until, wireRequest, type LiveReader, type SseFrame } from "../fixtures/dashboard-app.js";

const REFRESH_MS = 100;
const HEARTBEAT_MS = 200;
const LIVE_TARGETS = ["agents-table", "catalog-status", "catalog-version", "installs-table", "sessions-list", "status-sections"];

const isFragment = (frame: SseFrame) => frame.event === "fragment";
const isBeat = (frame: SseFrame) => frame.event === "ping" && frame.data !== "start";

/** A dashboard that looks at its sources every 100 ms while a stream is open, settled, and a signed-in cookie. */
async function live() {
  const served = await startMemoryDashboard({ refreshMs: REFRESH_MS, heartbeatMs: HEARTBEAT_MS });
  await served.dashboard.refresh();
  return { ...served, cookie: await served.signIn() };
}

/** Waits for the opening ping and the snapshot (one fragment per live element): their frames. */
async function snapshotOf(stream: LiveReader): Promise<SseFrame[]> {
  await stream.waitFor(() => stream.frames.filter(isFragment).length >= LIVE_TARGETS.length, { what: "the snapshot" });
  return stream.frames.slice(0, LIVE_TARGETS.length + 1);
}

/** Waits for `count` heartbeats after frame `from` (each a quiet heartbeat: nothing else to send). */
async function beatsAfter(stream: LiveReader, from: number, count: number): Promise<void> {
  await stream.waitFor(() => stream.frames.slice(from).filter(isBeat).length >= count, { what: `${count} pings`, ms: HEARTBEAT_MS * count * 5 });
}

describe("GET /live", () => {
  it("starts with a ping, then the current fragment of every live element, numbered in order", async () => {
    const { dashboard, cookie } = await live();
    const stream = await openLive(dashboard.url, cookie);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const [first, ...snapshot] = await snapshotOf(stream);
    expect(first).toMatchObject({ event: "ping", data: "start" });
    expect(snapshot.every(isFragment)).toBe(true);
    expect(snapshot.map((frame) => fragmentOf(frame).target).sort()).toEqual([...LIVE_TARGETS].sort());
    // Each is the whole element its target names (a section, or the catalog version's hidden span).
    for (const frame of snapshot) expect(fragmentOf(frame).html.startsWith(`<${fragmentOf(frame).target === "catalog-version" ? "span" : "section"} id="${fragmentOf(frame).target}"`)).toBe(true);
    const ids = snapshot.map((frame) => Number(frame.id));
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(fragmentOf(snapshot.find((frame) => fragmentOf(frame).target === "status-sections")!).html).toContain("all good");
    expect(dashboard.streams()).toBe(1);
  });

  it("looks at the costly elements less often (agents every 2nd pass, the status screen every 5th), and at the status screen at once when what it sums up changed", async () => {
    const refreshMs = 300;
    const served = await startMemoryDashboard({ refreshMs, heartbeatMs: HEARTBEAT_MS });
    await served.dashboard.refresh();
    const { dashboard, sources } = served;
    const stream = await openLive(dashboard.url, await served.signIn());
    const snapshot = await snapshotOf(stream);
    const before = { ...sources.calls };
    await new Promise((resolve) => setTimeout(resolve, refreshMs * 10 + refreshMs / 2));
    const passes = sources.calls.installs - before.installs;
    expect(passes).toBeGreaterThanOrEqual(8);
    expect(sources.calls.agents - before.agents).toBeLessThanOrEqual(Math.ceil(passes / 2) + 1);
    expect(sources.calls.status - before.status).toBeLessThanOrEqual(Math.ceil(passes / 5) + 1);

    // A new session and a new status line together: the status screen comes with the sessions list, not 5 passes later.
    const changedAt = Date.now();
    sources.data.status.summary = "one more session";
    sources.data.sessions.unshift(sessionSummary("s-2", "the second session"));
    const listed = await stream.waitFor((frame) => isFragment(frame) && fragmentOf(frame).target === "sessions-list" && frame.data.includes("the second session"), { from: snapshot.length, ms: refreshMs * 3, what: "the new session" });
    const status = await stream.waitFor((frame) => isFragment(frame) && frame.data.includes("one more session"), { from: snapshot.length, ms: refreshMs * 3, what: "the status screen after it" });
    expect(status.at - listed.at).toBeLessThan(refreshMs);
    expect(status.at - changedAt).toBeLessThan(refreshMs * 2.5);
  });

  it("sends a changed element within a second, as a fragment with a higher id, and does not send the unchanged ones again", async () => {
    const { dashboard, sources, cookie } = await live();
    const stream = await openLive(dashboard.url, cookie);
    const snapshot = await snapshotOf(stream);
    const lastId = Math.max(...snapshot.slice(1).map((frame) => Number(frame.id)));
    const changedAt = Date.now();
    sources.data.status.summary = "a new summary line";
    const changed = await stream.waitFor((frame) => isFragment(frame) && frame.data.includes("a new summary line"), { from: snapshot.length, ms: 1_000, what: "the changed status" });
    expect(changed.at - changedAt).toBeLessThan(1_000);
    expect(fragmentOf(changed).target).toBe("status-sections");
    expect(Number(changed.id)).toBeGreaterThan(lastId);
    // Two quiet heartbeats later (several refreshes), nothing else was sent.
    await beatsAfter(stream, stream.frames.indexOf(changed), 2);
    expect(stream.frames.slice(snapshot.length).filter(isFragment)).toEqual([changed]);

    sources.data.agents[1]!.auth.connected = true;
    const agents = await stream.waitFor((frame) => isFragment(frame) && fragmentOf(frame).target === "agents-table", { from: snapshot.length, ms: 1_000, what: "the changed agents" });
    expect(fragmentOf(agents).html).toContain("2 of 2 agents signed in");
    await beatsAfter(stream, stream.frames.indexOf(agents), 2);
    expect(stream.frames.slice(snapshot.length).filter(isFragment).map((frame) => fragmentOf(frame).target)).toEqual(["status-sections", "agents-table"]);
  });

  it("a change published while the stream is still writing the one before is sent at once, not at the next heartbeat", async () => {
    // A long heartbeat and no refresh of its own: only the passes the test asks for publish.
    const { dashboard, sources, signIn } = await startMemoryDashboard({ refreshMs: 60_000, heartbeatMs: 2_000 });
    await dashboard.refresh();
    const stream = await openLive(dashboard.url, await signIn());
    await snapshotOf(stream);
    for (let round = 0; round < 3; round++) {
      // Two passes back to back (a refresh asked for while one runs, as a sign-in or an install
      // asks): the second publishes its change a moment after the first one's.
      sources.data.status.summary = `first change ${round}`;
      void dashboard.refresh();
      await Promise.resolve();
      sources.data.sessions.unshift(sessionSummary(`s-${round + 10}`, `second change ${round}`));
      void dashboard.refresh();
      const first = await stream.waitFor((frame) => isFragment(frame) && frame.data.includes(`first change ${round}`), { ms: 1_000, what: `the first change of round ${round}` });
      const second = await stream.waitFor((frame) => isFragment(frame) && frame.data.includes(`second change ${round}`), { ms: 3_000, what: `the second change of round ${round}` });
      expect(second.at - first.at, `round ${round}`).toBeLessThan(500);
    }
  });

  it("pings at the heartbeat while nothing changes", async () => {
    const { dashboard, cookie } = await live();
    const stream = await openLive(dashboard.url, cookie);
    const snapshot = await snapshotOf(stream);
    await beatsAfter(stream, snapshot.length, 5);
    const beats = stream.frames.filter(isBeat);
    const gaps = beats.slice(1).map((beat, index) => beat.at - beats[index]!.at);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(HEARTBEAT_MS / 2);
      expect(gap).toBeLessThan(HEARTBEAT_MS * 4);
    }
    for (const beat of beats) expect(Number(beat.data)).toBeGreaterThan(Date.now() - 10_000);
    expect(stream.frames.filter(isFragment)).toHaveLength(LIVE_TARGETS.length);
  });

  it("a stream that reconnects after missing a change is brought up to date: nothing lost, nothing sent twice", async () => {
    const { dashboard, sources, cookie } = await live();
    const first = await openLive(dashboard.url, cookie);
    await snapshotOf(first);
    first.close();
    await until(() => dashboard.streams() === 0, "the closed stream to end on the server");
    sources.data.sessions.unshift(sessionSummary("s-2", "a session made while no page was open"));
    const again = await openLive(dashboard.url, cookie);
    await snapshotOf(again);
    await again.waitFor((frame) => isFragment(frame) && frame.data.includes("a session made while no page was open"), { ms: 1_000, what: "the missed session" });
    await beatsAfter(again, 0, 2);
    const fragments = again.frames.filter(isFragment).map(fragmentOf);
    // Each element's state at most once: no fragment repeats one already sent on this stream.
    expect(new Set(fragments.map((fragment) => JSON.stringify(fragment))).size).toBe(fragments.length);
    expect(fragments.filter((fragment) => fragment.target !== "sessions-list").map((fragment) => fragment.target).sort()).toEqual(LIVE_TARGETS.filter((target) => target !== "sessions-list").sort());
  });

  it("the snapshot of a stream that reconnects is the current state, not the one sent before it left", async () => {
    const { dashboard, sources, cookie } = await live();
    const first = await openLive(dashboard.url, cookie);
    await snapshotOf(first);
    first.close();
    await until(() => dashboard.streams() === 0, "the closed stream to end on the server");
    sources.data.sessions.unshift(sessionSummary("s-2", "a session made while no page was open"));
    // The page that opens now renders the new session; the stream must not put the old list back.
    const again = await openLive(dashboard.url, cookie);
    const snapshot = await snapshotOf(again);
    const sessions = snapshot.filter(isFragment).map(fragmentOf).find((fragment) => fragment.target === "sessions-list");
    expect(sessions?.html).toContain("a session made while no page was open");
    expect(sessions?.html).toContain("2 sessions");
  });

  it("twenty open streams all get a change, within 200 ms of each other, with the same id", async () => {
    const { dashboard, sources, cookie } = await live();
    const streams = await Promise.all(Array.from({ length: 20 }, () => openLive(dashboard.url, cookie)));
    const snapshots = await Promise.all(streams.map(snapshotOf));
    expect(dashboard.streams()).toBe(20);
    sources.data.status.summary = "seen by every stream";
    const got = await Promise.all(streams.map((stream, index) => stream.waitFor((frame) => isFragment(frame) && frame.data.includes("seen by every stream"), { from: snapshots[index]!.length, ms: 2_000, what: `the change on stream ${index}` })));
    const times = got.map((frame) => frame.at);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(200);
    expect(new Set(got.map((frame) => frame.id)).size).toBe(1);
  });

  it("close() ends every open stream and resolves within 2 s", async () => {
    const { dashboard, cookie } = await live();
    const streams = await Promise.all(Array.from({ length: 3 }, () => openLive(dashboard.url, cookie)));
    await Promise.all(streams.map(snapshotOf));
    const started = Date.now();
    await dashboard.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([Promise.all(streams.map((stream) => stream.ended)).then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)))]);
    clearTimeout(timer);
    expect(ended).toBe(true);
    expect(dashboard.streams()).toBe(0);
    await expect(fetch(`${dashboard.url}/live`, { headers: { cookie } })).rejects.toThrow();
  });

  it("a refused request opens no stream: 401 without the session, 421 for a wrong Host", async () => {
    const { dashboard, sources, cookie } = await live();
    const before = sources.totalCalls();
    const signedOut = await fetch(`${dashboard.url}/live`, { headers: { accept: "text/event-stream" } });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("content-type")).not.toBe("text/event-stream");
    expect(await signedOut.text()).toBe("bosun: not signed in: open the link bosun serve printed (press Enter in its terminal for a new one)\n");
    const rebound = await wireRequest(dashboard.port, { path: "/live", headers: { host: `evil.example:${dashboard.port}`, cookie, accept: "text/event-stream" } });
    expect(rebound.status).toBe(421);
    expect(rebound.headers["content-type"]).not.toBe("text/event-stream");
    expect(dashboard.streams()).toBe(0);
    expect(sources.totalCalls()).toBe(before);
  });

  it("a stream the page closes ends on the server, and many that came and went leave nothing behind (no listener piles up)", async () => {
    const { dashboard, cookie } = await live();
    // Every abort listener added and removed in this process meanwhile, by the signal it is on.
    const added = vi.spyOn(EventTarget.prototype, "addEventListener");
    const removed = vi.spyOn(EventTarget.prototype, "removeEventListener");
    const held = new Map<AbortSignal, number>();
    const count = (spy: typeof added, step: number) =>
      spy.mock.calls.forEach(([type], index) => {
        const target = spy.mock.contexts[index];
        if (type === "abort" && target instanceof AbortSignal) held.set(target, (held.get(target) ?? 0) + step);
      });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      for (let round = 0; round < 12; round++) {
        const stream = await openLive(dashboard.url, cookie);
        await snapshotOf(stream);
        stream.close();
        await until(() => dashboard.streams() === 0, `stream ${round} to end on the server`);
      }
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      count(added, 1);
      count(removed, -1);
    } finally {
      process.off("warning", onWarning);
      added.mockRestore();
      removed.mockRestore();
    }
    // A signal that outlives the streams (not aborted: the server's own) holds none of theirs.
    const outliving = [...held].filter(([signal]) => !signal.aborted).map(([, listeners]) => listeners);
    expect(Math.max(0, ...outliving)).toBeLessThan(3);
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });
});
