import { describe, expect, it } from "vitest";
import { CapMeter, capReached, CapReachedError, narrowCaps, TreeMeter } from "../../src/agent/subagents/limits.js";
import { subagentSettings } from "../../src/agent/subagents/settings.js";

describe("caps", () => {
  it("narrow only: an override lower than the setting wins, a higher one does not", () => {
    expect(narrowCaps({ tokens: 1000, seconds: 60 }, { tokens: 5000, turns: 3, seconds: 30 })).toEqual({ tokens: 1000, turns: 3, seconds: 30 });
    expect(narrowCaps({ costUsd: 1 }, undefined)).toEqual({ costUsd: 1 });
  });

  it("are reached when the use gets to them (turns: when it goes past them), in a fixed order", () => {
    expect(capReached({ turns: 3 }, { turns: 3, tokens: 0, costUsd: 0 }, 0)).toBeNull();
    expect(capReached({ turns: 3 }, { turns: 4, tokens: 0, costUsd: 0 }, 0)).toBe("turns");
    expect(capReached({ tokens: 100 }, { turns: 1, tokens: 100, costUsd: 0 }, 0)).toBe("tokens");
    expect(capReached({ costUsd: 0.5, seconds: 1 }, { turns: 1, tokens: 0, costUsd: 0.5 }, 2000)).toBe("costUsd");
    expect(capReached({ seconds: 1 }, { turns: 0, tokens: 0, costUsd: 0 }, 999)).toBeNull();
    expect(capReached({ seconds: 1 }, { turns: 0, tokens: 0, costUsd: 0 }, 1000)).toBe("seconds");
  });

  it("count a sub-agent against its own caps and the tree's, and say which one stopped it", () => {
    let now = 0;
    const tree = new TreeMeter({ tokens: 250 }, () => now);
    const a = new CapMeter({ tokens: 200 }, tree, () => now);
    const b = new CapMeter({}, tree, () => now);
    expect(a.turn(1)).toBeNull();
    expect(a.spend(150, 0.01)).toBeNull();
    const own = a.spend(60, 0.01);
    expect(own).toBeInstanceOf(CapReachedError);
    expect(own!.message).toBe("stopped: tokens cap (200)");
    expect(own!.scope).toBe("child");
    const shared = b.spend(40, 0);
    expect(shared!.message).toBe("stopped: the tree's tokens cap (250)");
    expect(tree.used).toEqual({ turns: 1, tokens: 250, costUsd: 0.02 });
    // The time caps move with the clock alone.
    const timed = new CapMeter({ seconds: 2 }, new TreeMeter({ seconds: 5 }, () => now), () => now);
    now += 1500;
    expect(timed.msToTimeCap()).toBe(500);
    now += 500;
    expect(timed.check()!.message).toBe("stopped: time cap (2 s)");
  });

  it("come from bosun.json subagents.limits, the tree's under limits.tree; confirmAbove defaults to 8", () => {
    expect(subagentSettings({ limits: { turns: 5, costUsd: 1, tree: { tokens: 10 } } })).toMatchObject({ confirmAbove: 8, limits: { child: { turns: 5, costUsd: 1 }, tree: { tokens: 10 } } });
    expect(subagentSettings(undefined).limits).toEqual({ child: {}, tree: {} });
  });
});
