import { describe, expect, it } from "vitest";
import { Scope } from "../../../src/kernel/state/scope.js";

describe("Scope", () => {
  it("runs finalizers once, in reverse order, and a second close waits for the first", async () => {
    const scope = new Scope();
    const order: string[] = [];
    scope.addFinalizer(() => void order.push("first"));
    scope.addFinalizer(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("second");
    });
    const [a, b] = [scope.close(), scope.close()];
    await Promise.all([a, b]);
    expect(order).toEqual(["second", "first"]);
    expect(scope.closed).toBe(true);
    expect(() => scope.addFinalizer(() => undefined)).toThrow("closed scope");
  });

  it("closes a child with its parent, and a child closed early leaves the parent alone", async () => {
    const parent = new Scope();
    const early = parent.fork();
    const late = parent.fork();
    const closed: string[] = [];
    early.addFinalizer(() => void closed.push("early"));
    late.addFinalizer(() => void closed.push("late"));
    await early.close();
    expect(closed).toEqual(["early"]);
    await parent.close();
    expect(closed).toEqual(["early", "late"]);
  });

  it("runs every finalizer even when some fail, then reports the failures", async () => {
    const scope = new Scope();
    const ran: number[] = [];
    scope.addFinalizer(() => void ran.push(1));
    scope.addFinalizer(() => {
      throw new Error("one");
    });
    scope.addFinalizer(() => {
      throw new Error("two");
    });
    await expect(scope.close()).rejects.toThrow("2 cleanups failed");
    expect(ran).toEqual([1]);
  });

  it("can unregister a finalizer without running it", async () => {
    const scope = new Scope();
    let ran = false;
    const remove = scope.addFinalizer(() => void (ran = true));
    remove();
    await scope.close();
    expect(ran).toBe(false);
  });
});
