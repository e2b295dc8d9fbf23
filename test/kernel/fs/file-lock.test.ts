import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, acquireLockSync, LockHeldError, tryAcquireLock } from "../../../src/kernel/fs/file-lock.js";
import { makeTempHome } from "../../fixtures/temp-home.js";

const DEAD_PID = 2 ** 22 + 4321;

describe("file lock", () => {
  it("creates the lock exclusively with pid, host and time, private to the user", () => {
    const file = join(makeTempHome().root, "x.lock");
    const lock = acquireLockSync(file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ pid: process.pid, host: hostname(), acquiredAt: lock.holder.acquiredAt });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tryAcquireLock(file)).toEqual({ holder: lock.holder });
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it("times out on a lock held by a live process and says who holds it", async () => {
    const file = join(makeTempHome().root, "x.lock");
    acquireLockSync(file);
    expect(() => acquireLockSync(file, { timeoutMs: 100 })).toThrow(LockHeldError);
    await expect(acquireLock(file, { timeoutMs: 100 })).rejects.toThrow(`held by process ${process.pid} on ${hostname()}`);
  });

  it("waits for a lock that is released meanwhile", async () => {
    const file = join(makeTempHome().root, "x.lock");
    const first = acquireLockSync(file);
    setTimeout(() => first.release(), 80);
    const second = await acquireLock(file, { timeoutMs: 2_000 });
    expect(second.holder.acquiredAt).not.toBe("");
    second.release();
  });

  it("reclaims a lock whose process is dead on this host, but not one from another host", () => {
    const dir = makeTempHome().root;
    const dead = join(dir, "dead.lock");
    writeFileSync(dead, JSON.stringify({ pid: DEAD_PID, host: hostname(), acquiredAt: "then" }));
    acquireLockSync(dead, { timeoutMs: 0 }).release();
    const remote = join(dir, "remote.lock");
    writeFileSync(remote, JSON.stringify({ pid: DEAD_PID, host: "another-machine", acquiredAt: "then" }));
    expect(() => acquireLockSync(remote, { timeoutMs: 0 })).toThrow(LockHeldError);
  });

  it("reclaims an empty or garbled lock only once it is a few seconds old", () => {
    const file = join(makeTempHome().root, "x.lock");
    writeFileSync(file, "");
    expect(() => acquireLockSync(file, { timeoutMs: 0 })).toThrow(LockHeldError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    acquireLockSync(file, { timeoutMs: 0 }).release();
  });

  it("refuses to release a lock another process has taken over", () => {
    const file = join(makeTempHome().root, "x.lock");
    const lock = acquireLockSync(file);
    writeFileSync(file, JSON.stringify({ pid: 1, host: hostname(), acquiredAt: "other" }));
    expect(() => lock.release()).toThrow(/taken over/);
    expect(existsSync(file)).toBe(true);
  });
});
