import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extensible, extensibleAsync } from "../../src/extensions/extensible.js";
import { ExtensionHost } from "../../src/extensions/host.js";
import { extensionRoots } from "../../src/extensions/roots.js";
import { makeTempHome } from "../fixtures/temp-home.js";

async function hostWith(files: Record<string, string>, points: string[]) {
  const t = makeTempHome();
  const plugin = join(t.root, "plugins/p");
  for (const [name, source] of Object.entries(files)) t.write(join(plugin, "extensions", name), source);
  const host = new ExtensionHost(extensionRoots({ projectDotDir: null, userConfigDir: join(t.root, "c"), enabledPlugins: [{ name: "p", dir: plugin }], builtinDir: join(t.root, "b") }));
  await host.preload(points);
  return host;
}

describe("extensible functions", () => {
  it("runs <name>/start before and <name>/end after the function, which knows nothing of them", async () => {
    const host = await hostWith(
      {
        "add/start/10_log.js": "export default ({ call }) => { call.args[0].push('start:' + call.args[1]); };",
        "add/end/10_log.js": "export default ({ call }) => { call.args[0].push('end:' + call.result); };",
      },
      ["add/start", "add/end"],
    );
    const add = extensible(host, "add", (log: string[], n: number) => {
      log.push("body");
      return n + 1;
    });
    const log: string[] = [];
    expect(add(log, 1)).toBe(2);
    expect(log).toEqual(["start:1", "body", "end:2"]);
  });

  it("lets start short-circuit with a result, and end rewrite the result", async () => {
    const host = await hostWith(
      {
        "f/start/10_cache.js": "export default ({ call }) => { if (call.args[0] === 'cached') call.result = 'from-cache'; };",
        "f/end/10_upper.js": "export default ({ call }) => { call.result = String(call.result).toUpperCase(); };",
      },
      ["f/start", "f/end"],
    );
    let calls = 0;
    const f = extensible(host, "f", (key: string) => {
      calls++;
      return `computed-${key}`;
    });
    expect(f("cached")).toBe("FROM-CACHE");
    expect(f("x")).toBe("COMPUTED-X");
    expect(calls).toBe(1);
  });

  it("throws an error set by start at once; end can recover from the function's error", async () => {
    const host = await hostWith(
      {
        "g/start/10_block.js": "export default ({ call }) => { if (call.args[0] === 'blocked') call.error = new Error('blocked by plugin'); };",
        "g/end/10_recover.js": "export default ({ call }) => { if (call.error) { call.error = undefined; call.result = 'recovered'; } };",
      },
      ["g/start", "g/end"],
    );
    const g = extensible(host, "g", (mode: string) => {
      if (mode === "fail") throw new Error("failed");
      return "ok";
    });
    expect(() => g("blocked")).toThrow("blocked by plugin");
    expect(g("fail")).toBe("recovered");
  });

  it("awaits the start and end extensions of an async function", async () => {
    const host = await hostWith(
      { "h/end/10_slow.js": "export default async ({ call }) => { await new Promise(r => setTimeout(r, 10)); call.result += '!'; };" },
      [],
    );
    const h = extensibleAsync(host, "h", async (name: string) => `hi ${name}`);
    expect(await h("there")).toBe("hi there!");
  });

  it("propagates the function's own error when no end extension handles it", async () => {
    const host = await hostWith({}, ["k/start", "k/end"]);
    const k = extensible(host, "k", () => {
      throw new Error("plain failure");
    });
    expect(() => k()).toThrow("plain failure");
  });
});
