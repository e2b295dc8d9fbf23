import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExtensionError } from "../../src/extensions/extension-error.js";
import { ExtensionHost } from "../../src/extensions/host.js";
import { extensionRoots } from "../../src/extensions/roots.js";
import { makeTempHome, type TempHome } from "../fixtures/temp-home.js";

function hostWith(t: TempHome, files: Record<string, string>) {
  const user = join(t.root, "config");
  for (const [name, source] of Object.entries(files)) t.write(join(user, "extensions", name), source);
  return new ExtensionHost(extensionRoots({ projectDotDir: null, userConfigDir: user, enabledPlugins: [], builtinDir: join(t.root, "none") }));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

// The host is generic: these tests use points of their own (`demo_*`), which the typed map of
// points.ts does not name, so any arguments go; bosun's own points are typed (see points.ts).
describe("ExtensionHost", () => {
  it("calls sync extensions in order with the call's arguments and returns their results", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "demo_sync/20_b.js": "export default (args) => { args.seen.push('b'); return 2; };",
      "demo_sync/10_a.mjs": "export default function (args) { args.seen.push('a'); return 1; }",
    });
    await host.preload(["demo_sync"]);
    const seen: string[] = [];
    expect(host.callSync("demo_sync", { seen })).toEqual([1, 2]);
    expect(seen).toEqual(["a", "b"]);
  });

  it("rejects an extension that returns a promise at a sync point, naming its file", async () => {
    const t = makeTempHome();
    const host = hostWith(t, { "demo_sync/10_async.js": "export default async () => { throw new Error('never awaited'); };" });
    await host.preload(["demo_sync"]);
    const error = (() => {
      try {
        host.callSync("demo_sync", {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ExtensionError);
    expect((error as ExtensionError).file).toContain("10_async.js");
    expect((error as Error).message).toContain("returned a promise at a synchronous point");
  });

  it("awaits each async extension before starting the next", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "demo_async/10_slow.js": "export default async (a) => { await new Promise(r => setTimeout(r, 30)); a.log.push('slow'); };",
      "demo_async/20_fast.js": "export default (a) => { a.log.push('fast'); };",
    });
    const log: string[] = [];
    await host.callAsync("demo_async", { log });
    expect(log).toEqual(["slow", "fast"]);
  });

  it("reports a throwing extension with its file name and runs none after it", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "demo_veto/10_boom.js": "export default () => { throw new Error('boom'); };",
      "demo_veto/20_after.js": "export default (a) => { a.ran = true; };",
    });
    const args: Record<string, unknown> = {};
    const error = await rejection(host.callAsync("demo_veto", args));
    expect(error).toBeInstanceOf(ExtensionError);
    expect((error as Error).message).toMatch(/extension .*10_boom\.js \(demo_veto\): threw: boom/);
    expect(args.ran).toBeUndefined();
  });

  it("loads TypeScript extensions and rejects a file without a default function", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "demo_typed/10_typed.ts": "export default (a: { out: string[] }): void => { a.out.push('ts'); };",
      "demo_nothing/10_nothing.js": "export const notDefault = 1;",
    });
    const out: string[] = [];
    await host.callAsync("demo_typed", { out });
    expect(out).toEqual(["ts"]);
    expect(await rejection(host.load("demo_nothing"))).toMatchObject({ message: expect.stringContaining("must export a default function") });
  });

  it("reports a file that does not load, and refuses to call an unloaded sync point that has files", async () => {
    const t = makeTempHome();
    const host = hostWith(t, { "demo_sync/10_syntax.js": "export default (" });
    expect(() => host.callSync("demo_sync", {})).toThrow(/before it was preloaded/);
    expect(await rejection(host.preload(["demo_sync"]))).toMatchObject({ message: expect.stringContaining("10_syntax.js (demo_sync): cannot be loaded") });
    expect(host.callSync("demo_empty", {})).toEqual([]);
  });

  it("notify: at an observer point a throwing or broken extension is reported and the others still run", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "demo_watch/10_boom.js": "export default () => { throw new Error('boom'); };",
      "demo_watch/20_syntax.js": "export default (",
      "demo_watch/30_seen.js": "export default (a) => { a.seen.push('30'); };",
    });
    const seen: string[] = [];
    const problems = await host.notify("demo_watch", { seen });
    expect(seen).toEqual(["30"]);
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/10_boom\.js \(demo_watch\): threw: boom$/),
      expect.stringMatching(/20_syntax\.js \(demo_watch\): cannot be loaded/),
    ]);
    expect(problems.every((problem) => problem instanceof ExtensionError)).toBe(true);
    expect(await host.notify("demo_quiet", {})).toEqual([]);
  });
});
