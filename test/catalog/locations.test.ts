import { describe, expect, it } from "vitest";
import { LOCATION_IDLE_MS, LocationMap, locationKey, type Clock } from "../../src/catalog/locations.js";

/** A clock whose timers run only when the test moves time forward. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at <= now) {
        timers.delete(id);
        timer.run();
      }
    }
  };
  return { clock, advance };
}

function services() {
  const built: string[] = [];
  const closed: string[] = [];
  const build = async (directory: string) => {
    built.push(directory);
    return { directory, close: async () => void closed.push(directory) };
  };
  return { build, built, closed };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("LocationMap", () => {
  it("builds a location on first use and shares it, whatever spelling of the directory", async () => {
    const { build, built } = services();
    const map = new LocationMap(build, { clock: fakeClock().clock });
    const [a, b] = await Promise.all([map.acquire("/work/app"), map.acquire("/work/app/../app/")]);
    expect(a.services).toBe(b.services);
    expect(built).toEqual(["/work/app"]);
    expect(locationKey("/work/./app")).toBe(locationKey("/work/app"));
    expect(locationKey("/work/app", "ws1")).not.toBe(locationKey("/work/app"));
  });

  it("closes a location 60 idle minutes after its last user left, not before, and not while in use", async () => {
    const { build, closed, built } = services();
    const { clock, advance } = fakeClock();
    const map = new LocationMap(build, { clock });
    const first = await map.acquire("/work/app");
    const second = await map.acquire("/work/app");
    first.release();
    advance(LOCATION_IDLE_MS * 2);
    expect(closed).toEqual([]);
    second.release();
    second.release();
    advance(LOCATION_IDLE_MS - 1);
    expect(closed).toEqual([]);
    // Used again before the hour is over: the countdown starts anew after the release.
    await map.use("/work/app", () => undefined);
    advance(LOCATION_IDLE_MS - 1);
    expect(closed).toEqual([]);
    advance(1);
    await settle();
    expect(closed).toEqual(["/work/app"]);
    expect(map.has("/work/app")).toBe(false);
    await map.use("/work/app", () => undefined);
    expect(built).toEqual(["/work/app", "/work/app"]);
  });

  it("does not remember a build that failed", async () => {
    let attempts = 0;
    const map = new LocationMap(async (directory) => {
      attempts++;
      if (attempts === 1) throw new Error("bad config");
      return { directory, close: async () => undefined };
    });
    await expect(map.acquire("/work/app")).rejects.toThrow("bad config");
    await settle();
    await expect(map.acquire("/work/app")).resolves.toMatchObject({ services: { directory: "/work/app" } });
    expect(attempts).toBe(2);
  });

  it("lets current users keep an invalidated location and closes it when they are done", async () => {
    const { build, closed } = services();
    const map = new LocationMap(build, { clock: fakeClock().clock });
    const lease = await map.acquire("/work/app");
    map.invalidate("/work/app");
    const fresh = await map.acquire("/work/app");
    expect(fresh.services).not.toBe(lease.services);
    expect(closed).toEqual([]);
    lease.release();
    await settle();
    expect(closed).toEqual(["/work/app"]);
  });

  it("closes everything at shutdown", async () => {
    const { build, closed } = services();
    const map = new LocationMap(build, { clock: fakeClock().clock });
    await map.acquire("/a");
    await map.acquire("/b");
    await map.closeAll();
    expect(closed.sort()).toEqual(["/a", "/b"]);
    expect(map.size).toBe(0);
  });
});
