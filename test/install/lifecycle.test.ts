// The shared install-lifecycle suite (test/shared/install-lifecycle.ts) run for every runtime in
// the install registry, in every scope it declares: adding a runtime there runs it through the
// seven checks with nothing else to write.
import { describe, expect, it } from "vitest";
import { listInstallRuntimes } from "../../src/runtimes/registry.js";
import { installLifecycleSuite } from "../shared/install-lifecycle.js";
import { lifecycleCases } from "../shared/lifecycle-world.js";

describe("the install lifecycle cases", () => {
  it("are every runtime of the install registry in each scope it declares", () => {
    const cases = lifecycleCases();
    expect(new Set(cases.map((entry) => entry.id))).toEqual(new Set(listInstallRuntimes().map((runtime) => runtime.id)));
    expect(cases.filter((entry) => entry.scope === "global")).toHaveLength(listInstallRuntimes().length);
  });
});

describe.each(lifecycleCases().map(({ id, scope, runtime }) => [id, scope, runtime] as const))("install lifecycle: %s (%s)", (_id, scope, runtime) => {
  installLifecycleSuite(runtime, scope);
});
