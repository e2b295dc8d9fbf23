import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/boot/config-error.js";
import { configSources, loadConfig, mergeConfig } from "../../src/boot/config.js";
import { findProject } from "../../src/boot/project.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";
import { makeTempHome } from "../fixtures/temp-home.js";

function setup(globalText?: string, projectText?: string, projectFile = "bosun.json") {
  const t = makeTempHome();
  if (globalText !== undefined) t.write(join(t.paths.config, "bosun.json"), globalText);
  const projectRoot = join(t.home, "proj");
  mkdirSync(projectRoot, { recursive: true });
  if (projectText !== undefined) t.write(join(projectRoot, projectFile), projectText);
  const project = findProject(projectRoot, t.home);
  return { t, project, load: () => loadConfig(configSources(t.paths, project)) };
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

  it("reports an unknown key at its own line", async () => {
    const { load } = setup(undefined, `{\n  "plugins": {},\n  "modle": "x"\n}`);
    const error = await configError(load);
    expect(error.line).toBe(3);
    expect(error.field).toBe("modle");
    expect(error.message).toMatch(/bosun\.json:3: modle: unknown key$/);
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
    expect(() => configSources(t.paths, findProject(join(t.home, "p"), t.home))).toThrow(/a second project config next to/);
  });

  it("does not let a __proto__ key reach Object.prototype", async () => {
    const { load } = setup(`{ "__proto__": { "polluted": true } }`);
    await configError(load);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
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
