import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/kernel/config/config-error.js";
import { configSources, loadConfig, mergeConfig } from "../../src/kernel/config/config.js";
import { loadConfigSchema } from "../../src/app/start.js";
import { describeWarning } from "../../src/kernel/config/config-warning.js";
import { findProject } from "../../src/kernel/project.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { makeTempHome } from "../fixtures/temp-home.js";

function setup(globalText?: string, projectText?: string, projectFile = "bosun.json") {
  const t = makeTempHome();
  if (globalText !== undefined) t.write(join(t.paths.config, "bosun.json"), globalText);
  const projectRoot = join(t.home, "proj");
  mkdirSync(projectRoot, { recursive: true });
  if (projectText !== undefined) t.write(join(projectRoot, projectFile), projectText);
  const { project } = findProject(projectRoot, t.home);
  return { t, project, load: () => loadConfig(configSources(t.paths, project), loadConfigSchema) };
}

async function configError(load: () => Promise<unknown>): Promise<ConfigError> {
  const error = await load().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("loadConfig", () => {
  it("is empty when no file exists", async () => {
    const { load } = setup();
    expect((await load()).value).toEqual({});
  });

  it("reads JSONC (comments, trailing commas) and merges project over global", async () => {
    const { load, t } = setup(
      `{
        // global
        "plugins": { "a": { "enabled": false }, "b": { "enabled": true }, },
      }`,
      `{ "plugins": { "b": { "enabled": false } } }`,
    );
    const config = await load();
    expect(config.value).toEqual({ plugins: { a: { enabled: false }, b: { enabled: false } } });
    expect(config.layers.map((l) => l.scope)).toEqual(["global", "project"]);
    expect(config.layers[0]!.file).toBe(join(t.paths.config, "bosun.json"));
  });

  it("reads the project file from .bosun/bosun.json too", async () => {
    const { load } = setup(undefined, `{ "plugins": { "x": {} } }`, ".bosun/bosun.json");
    expect((await load()).value).toEqual({ plugins: { x: {} } });
  });

  it("names file, line and field for a value of the wrong type", async () => {
    const { load, t } = setup(`{\n  "plugins": {\n    "demo": {\n      "enabled": "yes"\n    }\n  }\n}\n`);
    const error = await configError(load);
    expect(error.message).toBe(`${join(t.paths.config, "bosun.json")}:4: plugins.demo.enabled: expected boolean, received string`);
    expect([error.line, error.field]).toEqual([4, "plugins.demo.enabled"]);
  });

  it("warns about an unknown top-level key at its own line, with the close known key, and leaves it out", async () => {
    const { load, t } = setup(undefined, `{\n  "plugins": {},\n  "modle": "x",\n  "theme": "dark"\n}`);
    const config = await load();
    const file = join(t.home, "proj/bosun.json");
    expect(config.warnings).toEqual([
      { kind: "unknown-key", file, line: 3, key: "modle", message: "unknown key, ignored", suggestion: "model" },
      { kind: "unknown-key", file, line: 4, key: "theme", message: "unknown key, ignored", suggestion: null },
    ]);
    expect(config.value).toEqual({ plugins: {} });
    expect(describeWarning(config.warnings[0]!)).toBe(`${file}:3: modle: unknown key, ignored; did you mean model?`);
  });

  it("warns about unknown keys in nested objects, record entries and array items, each at its line", async () => {
    const { load, t } = setup(
      `{
  "permissions": {
    "mode": "ask",
    "bahs": "deny"
  },
  "plugins": {
    "demo": { "enable": false, "enabled": true }
  },
  "providers": {
    "local": {
      "baseURL": "http://127.0.0.1:11434/v1",
      "models": { "qwen3:8b": { "contextLimt": 32000 } }
    }
  },
  "policy": [
    { "action": "model.use", "effect": "deny", "resource": "x/*", "efect": "allow" }
  ]
}`,
    );
    const config = await load();
    expect(config.warnings.map((w) => [w.line, w.key, w.suggestion])).toEqual([
      [4, "permissions.bahs", "bash"],
      [7, "plugins.demo.enable", "enabled"],
      [12, "providers.local.models.qwen3:8b.contextLimt", "contextLimit"],
      [16, "policy[0].efect", "effect"],
    ]);
    expect(config.warnings.every((w) => w.file === join(t.paths.config, "bosun.json"))).toBe(true);
    expect(config.value).toEqual({
      permissions: { mode: "ask" },
      plugins: { demo: { enabled: true } },
      providers: { local: { baseURL: "http://127.0.0.1:11434/v1", models: { "qwen3:8b": {} } } },
      policy: [{ action: "model.use", effect: "deny", resource: "x/*" }],
    });
  });

  it("keeps a wrong value of a known key an error, even next to unknown keys", async () => {
    const { load } = setup(`{\n  "theme": "dark",\n  "model": 5\n}`);
    const error = await configError(load);
    expect(error.message).toMatch(/bosun\.json:3: model: expected string, received number$/);
  });

  it("warns once per key when the global file is also the project's", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), `{ "theme": "dark" }`);
    const { project } = findProject(t.paths.config, t.home);
    expect(project?.root).toBe(t.paths.config);
    const config = await loadConfig(configSources(t.paths, project), loadConfigSchema);
    expect(config.warnings.map((w) => w.key)).toEqual(["theme"]);
  });

  it("reports an invalid plugin name at its line", async () => {
    const { load } = setup(`{ "plugins": {\n "Bad Name": {} } }`);
    const error = await configError(load);
    expect(error.line).toBe(2);
    expect(error.message).toContain("invalid name");
  });

  it("reports a syntax error with its line", async () => {
    const { load } = setup(`{\n  "plugins": {\n    "a": { "enabled": true }\n    "b": {}\n  }\n}`);
    const error = await configError(load);
    expect(error.line).toBe(4);
    expect(error.message).toContain("invalid JSON (comma expected)");
  });

  it("rejects an empty file, a non-object and two project files", async () => {
    expect((await configError(setup("").load)).message).toContain("the file is empty");
    expect((await configError(setup("[1, 2]").load)).message).toContain("must hold a JSON object");
    const t = makeTempHome();
    t.write("home/p/bosun.json", "{}");
    t.write("home/p/.bosun/bosun.json", "{}");
    expect(() => configSources(t.paths, findProject(join(t.home, "p"), t.home).project)).toThrow(/a second project config next to/);
  });

  it("does not let a __proto__ key reach Object.prototype", async () => {
    const { load } = setup(`{ "__proto__": { "polluted": true }, "plugins": { "__proto__": { "polluted": true } } }`);
    const config = await load();
    expect(config.warnings.map((w) => w.key)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a file nested deeper than the limit with one line naming it", async () => {
    const { load, t } = setup(`{ "plugins":\n ${"[".repeat(100_000)}`);
    const error = await configError(load);
    expect(error.message).toBe(`${join(t.paths.config, "bosun.json")}:2: nests objects and arrays more than 100 levels deep`);
  });

  it("writes nothing when a file is invalid", async () => {
    const { load, t } = setup(`{ "plugins": 3 }`);
    const before = snapshotTree(t.root);
    await configError(load);
    expect(snapshotTree(t.root)).toEqual(before);
  });
});

describe("mergeConfig", () => {
  it("merges objects key by key and replaces arrays and scalars", () => {
    expect(mergeConfig<unknown>({ a: { x: 1, y: [1, 2] }, b: 1 }, { a: { y: [3] }, c: 2 })).toEqual({ a: { x: 1, y: [3] }, b: 1, c: 2 });
  });
});
