import { describe, expect, it } from "vitest";
import { Catalog } from "../../../src/catalog/catalog.js";
import { ExtensionHost } from "../../../src/extensions/host.js";
import { join } from "node:path";
import type { BosunPlugin, PluginContext } from "../../../src/catalog/plugins/api.js";
import { PluginActivationError, PluginHost } from "../../../src/catalog/plugins/host.js";
import { Scope } from "../../../src/kernel/state/scope.js";
import { makeTempHome } from "../../fixtures/temp-home.js";

function setUp(options: { activationTimeoutMs?: number; transformTimeoutMs?: number; extensions?: ExtensionHost } = {}) {
  const t = makeTempHome();
  const catalog = new Catalog({ location: t.home });
  const logged: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
  const log = {
    info: (message: string, fields?: Record<string, unknown>) => logged.push({ level: "info", message, fields }),
    warn: (message: string, fields?: Record<string, unknown>) => logged.push({ level: "warn", message, fields }),
    error: (message: string, fields?: Record<string, unknown>) => logged.push({ level: "error", message, fields }),
  };
  const host = new PluginHost({ catalog, scope: new Scope(), location: t.home, env: t.env, paths: t.paths, extensions: new ExtensionHost([]), log, ...options });
  const names = () => catalog.read().provider.all().map((provider) => provider.name);
  return { host, catalog, logged, names, t };
}

/** A plugin that adds one provider named after `label`. */
const naming = (name: string, label: string): BosunPlugin => ({
  name,
  activate: async (ctx) => {
    await ctx.catalog.transform((editor) => editor.provider.update(name, (provider) => void (provider.name = label)));
  },
});

describe("PluginHost", () => {
  it("resolves a pending wait when the plugin activates, and a later wait at once", async () => {
    const { host } = setUp();
    const pending = host.wait("acme");
    await host.add(naming("acme", "Acme"));
    await expect(pending).resolves.toBeUndefined();
    await expect(host.wait("acme")).resolves.toBeUndefined();
  });

  it("delivers an activation failure to the caller, pending waiters and later waiters, and reports it", async () => {
    const { host, catalog } = setUp();
    const pending = host.wait("broken");
    const broken: BosunPlugin = {
      name: "broken",
      activate: async (ctx) => {
        await ctx.catalog.transform((editor) => editor.provider.update("half", () => undefined));
        throw new Error("cannot start");
      },
    };
    await expect(host.add(broken)).rejects.toThrow(PluginActivationError);
    await expect(pending).rejects.toThrow("plugin broken: activation failed: cannot start");
    await expect(host.wait("broken")).rejects.toThrow("cannot start");
    expect(host.reports()).toEqual([{ name: "broken", origin: "builtin", state: "failed", problem: "activation failed: cannot start" }]);
    // What it registered before failing is gone with its scope.
    expect(catalog.read().provider.get("half")).toBeUndefined();
  });

  it("replaces a plugin added again under the same name, and removes its effects with it", async () => {
    const { host, names } = setUp();
    await host.add(naming("acme", "first"));
    expect(names()).toEqual(["first"]);
    await host.add(naming("acme", "second"));
    expect(names()).toEqual(["second"]);
    await host.remove("acme");
    expect(names()).toEqual([]);
    expect(host.reports()[0]).toMatchObject({ name: "acme", state: "removed" });
  });

  it("activates a plugin's registrations with one rebuild, and disabling it costs one more", async () => {
    const { host, catalog } = setUp();
    const before = catalog.rebuilds;
    await host.add({
      name: "many",
      activate: async (ctx) => {
        for (let i = 0; i < 5; i++) await ctx.catalog.transform((editor) => editor.model.update("many", `m${i}`, () => undefined));
      },
    });
    expect(catalog.rebuilds - before).toBe(1);
    expect(catalog.read().model.all()).toHaveLength(5);
    await host.remove("many");
    expect(catalog.rebuilds - before).toBe(2);
    expect(catalog.read().model.all()).toHaveLength(0);
  });

  it("takes a plugin out whole when one of its transforms throws later; the others keep working", async () => {
    const { host, catalog, names } = setUp();
    let explode = false;
    await host.add(naming("steady", "Steady"));
    await host.add({
      name: "flaky",
      activate: async (ctx) => {
        await ctx.catalog.transform((editor) => editor.provider.update("flaky", (provider) => void (provider.name = "Flaky")));
        await ctx.catalog.transform((editor) => {
          editor.provider.update("flaky-half", () => undefined);
          if (explode) throw new Error("bad data");
        });
      },
    });
    expect(names()).toEqual(["Steady", "Flaky", "flaky-half"]);
    explode = true;
    await catalog.reload();
    await host.settled();
    expect(names()).toEqual(["Steady"]);
    expect(host.reports().find((report) => report.name === "flaky")).toEqual({ name: "flaky", origin: "builtin", state: "failed", problem: "its catalog transform threw: bad data" });
    await catalog.reload();
    expect(names()).toEqual(["Steady"]);
  });

  it("fails a plugin whose activation does not finish in time, or whose async transform hangs", async () => {
    const { host, names } = setUp({ activationTimeoutMs: 50, transformTimeoutMs: 50 });
    await expect(host.add({ name: "slow", activate: () => new Promise(() => undefined) })).rejects.toThrow("did not finish activating in time");
    await host.add(naming("steady", "Steady"));
    await host.add({ name: "hangs", activate: async (ctx) => void (await ctx.catalog.transform(() => new Promise<void>(() => undefined))) });
    await host.settled();
    expect(names()).toEqual(["Steady"]);
    expect(host.reports().find((report) => report.name === "hangs")!.problem).toBe("its catalog transform threw: hangs's catalog transform did not finish in time");
  });

  it("reports a plugin that activates itself again as a load cycle instead of hanging", async () => {
    const { host } = setUp();
    const looping: BosunPlugin = { name: "loop", activate: () => host.add(looping) };
    await expect(host.add(looping)).rejects.toThrow("activation failed: plugin loop: activates itself again while activating (a load cycle)");
  });

  it("activates slow plugins in the background in the given order, sharing rebuilds", async () => {
    const { host, catalog, names } = setUp();
    await host.add(naming("base", "Base"));
    const before = catalog.rebuilds;
    const delays = [60, 5, 5];
    host.addInBackground(
      ["one", "two", "three"].map((name, i) => ({
        name,
        load: async () => {
          await new Promise((resolve) => setTimeout(resolve, delays[i]));
          return naming(name, name.toUpperCase());
        },
      })),
    );
    // Nothing waits for them: the catalog is readable at once.
    expect(names()).toEqual(["Base"]);
    expect(host.reports().map((report) => report.state)).toEqual(["active", "activating", "activating", "activating"]);
    expect(await host.settled()).toBe(true);
    expect(names()).toEqual(["Base", "ONE", "TWO", "THREE"]);
    expect(catalog.rebuilds - before).toBeLessThan(3);
  });

  it("reports a background plugin that cannot be loaded and goes on with the rest", async () => {
    const { host, names } = setUp();
    host.addInBackground([
      { name: "missing", load: () => Promise.reject(new Error("no such module")) },
      { name: "fine", load: async () => naming("fine", "Fine") },
    ]);
    await host.settled();
    expect(names()).toEqual(["Fine"]);
    expect(host.reports()[0]).toEqual({ name: "missing", origin: "user", state: "failed", problem: "cannot be loaded: no such module" });
  });

  it("tags a plugin's log lines with its name and runs its cleanups when it is disabled", async () => {
    const { host, logged } = setUp();
    const cleaned: string[] = [];
    await host.add({
      name: "tidy",
      activate: (ctx) => {
        ctx.log.info("hello", { n: 1 });
        ctx.onDispose(() => void cleaned.push("timer stopped"));
      },
    });
    expect(logged).toContainEqual({ level: "info", message: "hello", fields: { plugin: "tidy", n: 1 } });
    await host.remove("tidy");
    expect(cleaned).toEqual(["timer stopped"]);
  });

  it("a plugin makes functions of its own extensible under its name, and cannot fire bosun's points", async () => {
    const t = makeTempHome();
    const dir = join(t.root, "user");
    t.write(join(dir, "extensions", "team.sync/start", "10_seen.mjs"), "export default ({ call }) => { call.args[0].push('start ' + call.name); };");
    t.write(join(dir, "extensions", "tool_before", "10_never.mjs"), "export default () => { throw new Error('fired by a plugin'); };");
    const { host } = setUp({ extensions: new ExtensionHost([{ kind: "user", name: "user", dir }]) });
    const seen: string[] = [];
    let given: PluginContext["extensions"] | undefined;
    await host.add({
      name: "team",
      activate: async (ctx) => {
        given = ctx.extensions;
        const sync = ctx.extensions.extensible("sync", async (log: string[]) => (log.push("ran"), log.length));
        expect(await sync(seen)).toBe(2);
        expect(() => ctx.extensions.extensible("a/b", async () => 0)).toThrow(/use one segment/);
      },
    });
    expect(seen).toEqual(["start team.sync", "ran"]);
    expect(Object.keys(given!)).toEqual(["extensible"]);
  });
});

