import { describe, expect, it } from "vitest";
import { batch } from "../../../src/kernel/state/batch.js";
import { Scope } from "../../../src/kernel/state/scope.js";
import { State, TransformError, type StateOptions } from "../../../src/kernel/state/state.js";

/** A State of string lists whose transforms push entries; counts finalizes and notifications. */
function listState(extra: Partial<StateOptions<string[], string[], true>> = {}) {
  const counts = { finalize: 0, events: 0 };
  const state = new State<string[], string[]>({
    initial: () => [],
    draft: (value) => value,
    finalize: () => void counts.finalize++,
    ...extra,
  });
  state.subscribe(() => counts.events++);
  return { state, counts };
}

const push = (entry: string) => (draft: string[]) => void draft.push(entry);

describe("State", () => {
  it("keeps a registration whose caller stopped waiting while its rebuild was blocked, and drops it with its scope", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let block = true;
    const state = new State<string[], string[]>({ initial: () => [], draft: (v) => v, finalize: () => (block ? blocked : undefined) });
    const scope = new Scope();
    const registering = state.transform(scope, push("registered"));
    // The caller gives up (a timeout elsewhere); the registration still completes.
    await Promise.race([registering, new Promise((resolve) => setTimeout(resolve, 10))]);
    expect(state.get()).toEqual([]);
    block = false;
    release();
    await registering;
    expect(state.get()).toEqual(["registered"]);
    await scope.close();
    expect(state.get()).toEqual([]);
  });

  it("re-runs async transforms on every reload, with their current inputs", async () => {
    const { state } = listState();
    let input = "first";
    await state.transform(new Scope(), async (draft) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      draft.push(input);
    });
    expect(state.get()).toEqual(["first"]);
    input = "second";
    await state.reload();
    expect(state.get()).toEqual(["second"]);
  });

  it("disposes one registration once and rebuilds from the others", async () => {
    const { state, counts } = listState();
    const scope = new Scope();
    await state.transform(scope, push("first"));
    const second = await state.transform(scope, push("second"));
    expect(state.get()).toEqual(["first", "second"]);
    await second.dispose();
    expect(state.get()).toEqual(["first"]);
    const finalizes = counts.finalize;
    await second.dispose();
    expect(counts.finalize).toBe(finalizes);
    expect(second.active).toBe(false);
  });

  it("disposes equal callbacks independently (by registration, not by function)", async () => {
    const { state } = listState();
    const same = push("x");
    const a = await state.transform(new Scope(), same);
    await state.transform(new Scope(), same);
    expect(state.get()).toEqual(["x", "x"]);
    await a.dispose();
    expect(state.get()).toEqual(["x"]);
  });

  it("batches rebuilds: one finalize per State at the end of the batch, with every edit in order", async () => {
    const one = listState();
    const two = listState();
    const scope = new Scope();
    await batch(async () => {
      await one.state.transform(scope, push("a"));
      await two.state.transform(scope, push("b"));
      await one.state.transform(scope, push("c"));
      expect(one.counts.finalize + two.counts.finalize).toBe(0);
      expect(one.state.get()).toEqual([]);
    });
    expect(one.counts.finalize).toBe(1);
    expect(two.counts.finalize).toBe(1);
    expect(one.state.get()).toEqual(["a", "c"]);
    expect(two.state.get()).toEqual(["b"]);
  });

  it("joins a batch inside a batch: the rebuild waits for the outermost", async () => {
    const { state, counts } = listState();
    const scope = new Scope();
    await batch(async () => {
      await batch(async () => {
        await state.transform(scope, push("inner"));
      });
      expect(counts.finalize).toBe(0);
      await state.transform(scope, push("outer"));
    });
    expect(counts.finalize).toBe(1);
    expect(state.get()).toEqual(["inner", "outer"]);
  });

  it("still rebuilds when the batch fails, so the value matches the registrations, then throws", async () => {
    const { state } = listState();
    const scope = new Scope();
    await expect(
      batch(async () => {
        await state.transform(scope, push("kept"));
        throw new Error("the batch failed");
      }),
    ).rejects.toThrow("the batch failed");
    expect(state.get()).toEqual(["kept"]);
  });

  it("makes the new value visible before listeners run, and tells them nothing when nothing changed", async () => {
    const seen: string[][] = [];
    const state = new State<string[], string[], string>({
      initial: () => [],
      draft: (v) => v,
      compare: (before, after) => (JSON.stringify(before) === JSON.stringify(after) ? null : `${before.length}->${after.length}`),
    });
    const changes: string[] = [];
    state.subscribe(({ change }) => {
      seen.push(state.get());
      changes.push(change);
    });
    await state.transform(new Scope(), push("a"));
    expect(seen).toEqual([["a"]]);
    const committed = state.get();
    await state.reload();
    expect(changes).toEqual(["0->1"]);
    expect(state.get()).toBe(committed);
  });

  it("never edits a committed value: readers keep what they read", async () => {
    const { state } = listState();
    const scope = new Scope();
    await state.transform(scope, push("a"));
    const old = state.get();
    await state.transform(scope, push("b"));
    expect(old).toEqual(["a"]);
    expect(state.get()).toEqual(["a", "b"]);
  });

  it("keeps the previous value when a transform throws, and says which rebuild failed", async () => {
    const { state } = listState();
    const scope = new Scope();
    await state.transform(scope, push("good"));
    let fail = true;
    await expect(
      state.transform(scope, (draft) => {
        draft.push("half");
        if (fail) throw new Error("boom");
      }),
    ).rejects.toThrow(TransformError);
    expect(state.get()).toEqual(["good"]);
    fail = false;
    await state.reload();
    expect(state.get()).toEqual(["good", "half"]);
  });

  it("sets an isolated transform aside when it throws and rebuilds without its half-done edits", async () => {
    const { state, counts } = listState();
    const scope = new Scope();
    const failures: string[] = [];
    await state.transform(scope, push("before"));
    await state.transform(
      scope,
      (draft) => {
        draft.push("half-done");
        throw new Error("plugin bug");
      },
      { onError: (error) => failures.push((error as Error).message) },
    );
    await state.transform(scope, push("after"));
    expect(state.get()).toEqual(["before", "after"]);
    expect(failures).toEqual(["plugin bug"]);
    await state.reload();
    expect(failures).toHaveLength(1);
    expect(counts.events).toBeGreaterThan(0);
  });

  it("does not rebuild or notify once closed, while disposals still unregister", async () => {
    const { state, counts } = listState();
    const scope = new Scope();
    await state.transform(scope, push("a"));
    const finalizes = counts.finalize;
    state.close();
    await scope.close();
    expect(counts.finalize).toBe(finalizes);
    expect(state.get()).toEqual(["a"]);
  });

  it("fails fast when a transform waits for a reload of its own State", async () => {
    const { state } = listState();
    const errors: unknown[] = [];
    await state.transform(
      new Scope(),
      async () => {
        try {
          await state.reload();
        } catch (error) {
          errors.push(error);
        }
      },
    );
    expect(String(errors[0])).toContain("cannot reload the state it is being replayed into");
  });

  it("serializes concurrent registrations and reloads, and shares a rebuild that has not started", async () => {
    const { state } = listState();
    const scope = new Scope();
    let input = 0;
    await state.transform(scope, (draft) => void draft.push(`n${input}`));
    const before = state.rebuilds;
    input = 1;
    await Promise.all([state.reload(), state.reload(), state.reload(), state.transform(scope, push("x"))]);
    expect(state.get()).toEqual(["n1", "x"]);
    expect(state.rebuilds - before).toBeLessThanOrEqual(3);
  });
});
