import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/kernel/package-info.js";
import { startBosun } from "../../../src/app/start.js";
import { AuthStore } from "../../../src/catalog/auth-store.js";
import type { Location } from "../../../src/catalog/location.js";
import { ModelsDevClient } from "../../../src/catalog/models-dev-client.js";
import { builtinPlugins } from "../../../src/catalog/plugins/builtin/index.js";
import { BUILTIN_PLUGIN_NAMES } from "../../../src/catalog/plugins/builtin/names.js";
import { runCli } from "../../fixtures/cli.js";
import { openTestLocation } from "../../fixtures/location.js";
import { makeTempHome, type TempHome } from "../../fixtures/temp-home.js";

const open: Location[] = [];
afterEach(async () => void (await Promise.all(open.splice(0).map((location) => location.close()))));

async function locate(t: TempHome): Promise<Location> {
  const location = await openTestLocation(t);
  open.push(location);
  return location;
}

/** A plugin folder with a manifest and, optionally, its main module. */
function plugin(t: TempHome, name: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = join(t.paths.data, "plugins", name);
  t.write(join(dir, "plugin.json"), JSON.stringify(manifest));
  for (const [file, content] of Object.entries(files)) t.write(join(dir, file), content);
  return dir;
}

/** A main module that adds provider `id` and leaves a marker file when it is imported. */
const addsProvider = (id: string, marker: string) => `
  import { writeFileSync } from "node:fs";
  writeFileSync(${JSON.stringify(marker)}, "imported");
  export async function activate(ctx) {
    await ctx.catalog.transform((editor) => {
      editor.model.update(${JSON.stringify(id)}, "model-1", (model) => { model.name = "From " + ctx.name; });
    });
  }`;

describe("plugins on disk", () => {
  it("loads an enabled plugin's main module only when the catalog is opened, and runs its activate(ctx)", async () => {
    const t = makeTempHome();
    const marker = join(t.root, "imported.txt");
    plugin(t, "acme", { name: "acme", version: "1.0.0", main: "index.mjs" }, { "index.mjs": addsProvider("acme", marker) });
    await startBosun({ env: { ...t.env }, cwd: t.home, spawnDetached: () => "" });
    expect(existsSync(marker)).toBe(false);
    const location = await locate(t);
    expect(existsSync(marker)).toBe(true);
    expect(location.catalog.read().model.get("acme", "model-1")!.name).toBe("From acme");
    expect(location.pluginReports().find((report) => report.name === "acme")).toEqual({ name: "acme", origin: "user", state: "active", problem: null });
    // Disabling it closes its scope: the next rebuild has none of its effects.
    await location.plugins.remove("acme");
    expect(location.catalog.read().provider.get("acme")).toBeUndefined();
  });

  it("never loads a plugin the config switches off", async () => {
    const t = makeTempHome();
    const marker = join(t.root, "imported.txt");
    plugin(t, "acme", { main: "index.mjs" }, { "index.mjs": addsProvider("acme", marker) });
    t.write(join(t.paths.config, "bosun.json"), JSON.stringify({ plugins: { acme: { enabled: false } } }));
    const location = await locate(t);
    expect(existsSync(marker)).toBe(false);
    expect(location.catalog.read().provider.get("acme")).toBeUndefined();
  });

  it("accepts `export default { activate }`, CommonJS and TypeScript modules", async () => {
    const t = makeTempHome();
    const transform = (id: string) => `(editor) => editor.model.update("${id}", "m", () => {})`;
    plugin(t, "esm-default", { main: "main.mjs" }, { "main.mjs": `export default { activate: (ctx) => ctx.catalog.transform(${transform("esm-default")}) };` });
    plugin(t, "common", { main: "main.cjs" }, { "main.cjs": `module.exports = { activate: (ctx) => ctx.catalog.transform(${transform("common")}) };` });
    plugin(t, "typed", { main: "src/main.ts" }, { "src/main.ts": `export async function activate(ctx: { catalog: { transform(f: unknown): Promise<unknown> } }): Promise<void> { await ctx.catalog.transform(${transform("typed")}); }` });
    const reader = (await locate(t)).catalog.read();
    expect(["esm-default", "common", "typed"].map((id) => reader.model.get(id, "m") !== undefined)).toEqual([true, true, true]);
  });

  it("isolates plugins that fail, reports why, and keeps the rest working", async () => {
    const t = makeTempHome();
    plugin(t, "a-throws", { main: "index.mjs" }, { "index.mjs": "export function activate() { throw new Error('boom'); }" });
    plugin(t, "b-no-activate", { main: "index.mjs" }, { "index.mjs": "export const nothing = 1;" });
    plugin(t, "c-missing", { main: "gone.mjs" });
    plugin(t, "d-bad-transform", { main: "index.mjs" }, { "index.mjs": "export async function activate(ctx) { await ctx.catalog.transform(() => { throw new Error('bad edit'); }); }" });
    plugin(t, "z-fine", { main: "index.mjs" }, { "index.mjs": addsProvider("fine", join(t.root, "fine.txt")) });
    const location = await locate(t);
    expect(location.catalog.read().provider.get("fine")).toBeDefined();
    expect(location.catalog.read().provider.get("anthropic")).toBeDefined();
    const problems = Object.fromEntries(location.pluginReports().filter((report) => report.origin === "user").map((report) => [report.name, report.problem]));
    expect(problems).toEqual({
      "a-throws": "activation failed: boom",
      "b-no-activate": expect.stringMatching(/cannot be loaded: its main module .*index\.mjs does not export an activate\(ctx\) function/),
      "c-missing": expect.stringMatching(/cannot be loaded: its main module .*gone\.mjs does not exist/),
      "d-bad-transform": "its catalog transform threw: bad edit",
      "z-fine": null,
    });
  });

  it("refuses a folder named like a built-in plugin: listed as broken, its code and extensions never run, the built-in keeps working", async () => {
    const t = makeTempHome();
    const imported = join(t.root, "imported.txt");
    const extensionRan = join(t.root, "extension-ran.txt");
    plugin(t, "models-dev", { name: "models-dev", version: "6.6.6", main: "index.mjs" }, {
      "index.mjs": `import { writeFileSync } from "node:fs";
        writeFileSync(${JSON.stringify(imported)}, "imported");
        export async function activate(ctx) { await ctx.catalog.transform((editor) => { for (const { provider } of editor.provider.list()) editor.provider.remove(provider.id); }); }`,
      "extensions/run_startup_migrations/end/10_mark.mjs": `import { writeFileSync } from "node:fs";
        export default function () { writeFileSync(${JSON.stringify(extensionRan)}, "ran"); }`,
    });
    // A folder without code is refused too: its extensions alone would run at every start.
    plugin(t, "credentials", {}, {
      "extensions/run_startup_migrations/end/10_mark_too.mjs": `import { writeFileSync } from "node:fs";
        export default function () { writeFileSync(${JSON.stringify(extensionRan)}, "ran"); }`,
    });
    const refused = "its name is taken by a built-in plugin; rename its folder";

    const boot = await startBosun({ env: { ...t.env }, cwd: t.home, spawnDetached: () => "" });
    expect(boot.plugins.map(({ name, enabled, problem }) => ({ name, enabled, problem }))).toEqual([
      { name: "credentials", enabled: false, problem: refused },
      { name: "models-dev", enabled: false, problem: refused },
    ]);
    const env = { ...t.env, BOSUN_DISABLE_MODELS_FETCH: "1", ANTHROPIC_API_KEY: "sk-ant-test" };
    const text = await runCli(["status"], env, t.home);
    expect(text.stdout).toMatch(/^ {2}models-dev\s+broken: its name is taken by a built-in plugin; rename its folder$/m);
    const json = JSON.parse((await runCli(["status", "--json"], env, t.home)).stdout);
    expect(json.plugins).toEqual([
      { name: "credentials", version: null, enabled: false, problem: refused },
      { name: "models-dev", version: null, enabled: false, problem: refused },
    ]);
    expect(json.subsystems.catalog.plugins).toContainEqual({ name: "models-dev", origin: "builtin", state: "active", problem: null });
    expect(json.subsystems.catalog.plugins.filter((report: { origin: string }) => report.origin === "user")).toEqual([]);
    const models = JSON.parse((await runCli(["models", "--json"], env, t.home)).stdout);
    expect(models.providers.map((provider: { id: string }) => provider.id)).toEqual(["anthropic"]);

    const location = await locate(t);
    expect(location.catalog.read().provider.get("openai")).toBeDefined();
    expect(location.pluginReports().find((report) => report.name === "models-dev")).toEqual({ name: "models-dev", origin: "builtin", state: "active", problem: null });
    expect(existsSync(imported)).toBe(false);
    expect(existsSync(extensionRan)).toBe(false);
  });

  it("refuses exactly the names builtinPlugins gives its plugins", () => {
    const t = makeTempHome();
    const modelsDev = new ModelsDevClient({ env: t.env, cacheDir: t.paths.cache, stateDir: t.paths.state, packageRoot: packageRoot(), userAgent: "bosun/test" });
    const builtins = builtinPlugins({ modelsDev, config: { value: {}, layers: [], sources: [], warnings: [] }, authStore: new AuthStore(join(t.paths.data, "auth.json")), env: t.env });
    expect(builtins.map((builtin) => builtin.name)).toEqual(BUILTIN_PLUGIN_NAMES);
  });

  it("refuses a main module outside the plugin's folder", async () => {
    const t = makeTempHome();
    plugin(t, "escape", { main: "../elsewhere.mjs" });
    t.write(join(t.paths.data, "plugins/outside.mjs"), "export function activate() {}");
    plugin(t, "linked", { main: "link.mjs" });
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(t.paths.data, "plugins/outside.mjs"), join(t.paths.data, "plugins/linked/link.mjs"));
    const boot = await startBosun({ env: { ...t.env }, cwd: t.home, spawnDetached: () => "" });
    expect(boot.plugins.find((p) => p.name === "escape")!.problem).toBe("plugin.json: main must stay inside the plugin's folder");
    const location = await locate(t);
    expect(location.pluginReports().find((report) => report.name === "linked")!.problem).toMatch(/leads outside the plugin's folder/);
  });

  it("shows a broken plugin on `bosun status`, in the plugin list and the catalog section", async () => {
    const t = makeTempHome();
    plugin(t, "boom", { version: "0.1.0", main: "index.mjs" }, { "index.mjs": "export function activate() { throw new Error('boom'); }" });
    const text = await runCli(["status"], { ...t.env }, t.home);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/boom\s+0\.1\.0\s+broken: activation failed: boom/);
    expect(text.stdout).toContain("! plugin boom: activation failed: boom");
    const json = JSON.parse((await runCli(["status", "--json"], { ...t.env }, t.home)).stdout);
    expect(json.plugins).toEqual([{ name: "boom", version: "0.1.0", enabled: true, problem: "activation failed: boom" }]);
    expect(json.subsystems.catalog.plugins).toContainEqual({ name: "boom", origin: "user", state: "failed", problem: "activation failed: boom" });
    expect(json.subsystems.catalog.state).toBe("attention");
  });
});
