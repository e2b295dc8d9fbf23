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

describe("ExtensionHost", () => {
  it("calls sync extensions in order with the call's arguments and returns their results", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "agent_init/20_b.js": "export default (args) => { args.seen.push('b'); return 2; };",
      "agent_init/10_a.mjs": "export default function (args) { args.seen.push('a'); return 1; }",
    });
    await host.preload(["agent_init"]);
    const seen: string[] = [];
    expect(host.callSync("agent_init", { seen })).toEqual([1, 2]);
    expect(seen).toEqual(["a", "b"]);
  });

  it("rejects an extension that returns a promise at a sync point, naming its file", async () => {
    const t = makeTempHome();
    const host = hostWith(t, { "agent_init/10_async.js": "export default async () => { throw new Error('never awaited'); };" });
    await host.preload(["agent_init"]);
    const error = (() => {
      try {
        host.callSync("agent_init", {});
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
      "system_prompt/10_slow.js": "export default async (a) => { await new Promise(r => setTimeout(r, 30)); a.log.push('slow'); };",
      "system_prompt/20_fast.js": "export default (a) => { a.log.push('fast'); };",
    });
    const log: string[] = [];
    await host.callAsync("system_prompt", { log });
    expect(log).toEqual(["slow", "fast"]);
  });

  it("reports a throwing extension with its file name and runs none after it", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "tool_before/10_boom.js": "export default () => { throw new Error('boom'); };",
      "tool_before/20_after.js": "export default (a) => { a.ran = true; };",
    });
    const args: Record<string, unknown> = {};
    const error = await rejection(host.callAsync("tool_before", args));
    expect(error).toBeInstanceOf(ExtensionError);
    expect((error as Error).message).toMatch(/extension .*10_boom\.js \(tool_before\): threw: boom/);
    expect(args.ran).toBeUndefined();
  });

  it("loads TypeScript extensions and rejects a file without a default function", async () => {
    const t = makeTempHome();
    const host = hostWith(t, {
      "after_llm_call/10_typed.ts": "export default (a: { out: string[] }): void => { a.out.push('ts'); };",
      "before_llm_call/10_nothing.js": "export const notDefault = 1;",
    });
    const out: string[] = [];
    await host.callAsync("after_llm_call", { out });
    expect(out).toEqual(["ts"]);
    expect(await rejection(host.load("before_llm_call"))).toMatchObject({ message: expect.stringContaining("must export a default function") });
  });

  it("reports a file that does not load, and refuses to call an unloaded sync point that has files", async () => {
    const t = makeTempHome();
    const host = hostWith(t, { "agent_init/10_syntax.js": "export default (" });
    expect(() => host.callSync("agent_init")).toThrow(/before it was preloaded/);
    expect(await rejection(host.preload(["agent_init"]))).toMatchObject({ message: expect.stringContaining("10_syntax.js (agent_init): cannot be loaded") });
    expect(host.callSync("subagent_start")).toEqual([]);
  });
});
