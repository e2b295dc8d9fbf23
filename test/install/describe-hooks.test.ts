// How a plan line names the hooks an edit adds or removes: each one when there are one or two,
// else how many, per event (gsd-core adds 18 hooks to one settings.json).
import { describe, expect, it } from "vitest";
import { describeHooks } from "../../src/install/plan/plan-config.js";

const hooks = (...events: string[]) => events.map((event) => ({ event }));

describe("describeHooks", () => {
  it("names one or two hooks, and counts more by event in the order they come", () => {
    expect(describeHooks(hooks("SessionStart"))).toBe("the SessionStart hook");
    expect(describeHooks(hooks("SessionStart", "SessionStart"))).toBe("2 hooks (SessionStart ×2)");
    expect(describeHooks(hooks("SessionStart", "Stop"))).toBe("the SessionStart hook and the Stop hook");
    expect(describeHooks(hooks("SessionStart", "SessionStart", "PostToolUse", "PreToolUse", "PostToolUse", "Stop"))).toBe("6 hooks (SessionStart ×2, PostToolUse ×2, PreToolUse, Stop)");
  });
});
