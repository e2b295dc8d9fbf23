import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/app/config-schema.js";
import { legacyLayoutStep } from "../../src/startup/10_legacy_layout.js";
import { LEGACY_SETTINGS_KEYS, VALUE_SHAPES } from "../../src/startup/legacy-settings-keys.js";
import { translateLegacySettings } from "../../src/startup/legacy-settings-translate.js";
import { writeNewFile } from "../../src/startup/move.js";
import { migrationContext, noHardLinksFs, runSteps } from "../fixtures/migration-context.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("translateLegacySettings", () => {
  it("renames a key where it stands, keeping its comments and the layout around it", () => {
    const text = '{\n  // mine\n  "defaultModel": /* inline */ "a/b", // why\n  "x": [1,2]\n}';
    expect(translateLegacySettings(text)).toEqual({
      text: '{\n  // mine\n  "model": /* inline */ "a/b", // why\n  "x": [1,2]\n}',
      changes: ["defaultModel → model"],
      kept: [],
    });
  });

  it("moves a key into another object, leaving the comment of its line and the neighbours' formatting", () => {
    const text = '{\n  "x": [1,2], // keep me\n  "approval_mode": "suggest", // old mode\n  "permissions": {\n    "bash": "ask"\n  }\n}';
    expect(translateLegacySettings(text).text).toBe('{\n  "x": [1,2], // keep me\n  // old mode\n  "permissions": {\n    "bash": "ask",\n    "mode": "ask"\n  }\n}');
  });

  it("adds missing objects, in the file's indentation, and inline in a one-line object", () => {
    expect(translateLegacySettings('{\n\t"theme": "dark",\n\t"approval_mode": "full"\n}').text).toBe('{\n\t"theme": "dark",\n\t"permissions": { "mode": "full-access" }\n}');
    expect(translateLegacySettings('{"a":1,"enabled_plugins":["p","q"]}').text).toBe('{"a":1, "plugins": { "p": { "enabled": true }, "q": { "enabled": true } }}');
  });

  it("renames inside records once the record itself is renamed", () => {
    const result = translateLegacySettings('{ "custom_providers": { "local": { "base_url": "http://127.0.0.1:8080/v1", "env_vars": ["LOCAL_KEY"] } } }');
    expect(JSON.parse(result.text)).toEqual({ providers: { local: { baseURL: "http://127.0.0.1:8080/v1", env: ["LOCAL_KEY"] } } });
    expect(result.changes).toEqual(["custom_providers → providers", "providers.local.base_url → providers.local.baseURL", "providers.local.env_vars → providers.local.env"]);
  });

  it("leaves an old key alone when its target is set, is inside a non-object, or its value does not fit", () => {
    const result = translateLegacySettings(
      '{ "model": "x/y", "defaultModel": "a/b", "permissions": "all", "approval_mode": "auto", "disabledProviders": "openai", "chat_model_name": "m" }',
    );
    expect(result.changes).toEqual([]);
    expect(result.kept).toEqual([
      "chat_model_provider + chat_model_name: needs both chat_model_provider and chat_model_name as text",
      "defaultModel: model is already set",
      "disabledProviders: its value is not one disabled_providers takes",
      "approval_mode: permissions is not an object",
    ]);
  });

  it("only writes values the current schema takes (each shape checked against the schema itself)", () => {
    const samples: unknown[] = ["anthropic/claude-sonnet-5", "gpt-4", "", "http://127.0.0.1:1/v1", "localhost:1", "ask", "auto", ["A_KEY"], ["bad name"], ["openai"], true, 3, {}, { x: {} }];
    for (const rule of LEGACY_SETTINGS_KEYS) {
      if (!("rename" in rule)) continue;
      for (const sample of samples) {
        const value = rule.values ? (typeof sample === "string" ? rule.values[sample] : undefined) : sample;
        if (value === undefined || !VALUE_SHAPES[rule.shape](value)) continue;
        const config = rule.to
          .split(".")
          .map((part) => (part === "*" ? "p" : part))
          .reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
        expect(configSchema.safeParse(config).success, `${rule.rename} = ${JSON.stringify(sample)}`).toBe(true);
      }
    }
  });
});

describe("10_legacy_layout with a settings.json to translate", () => {
  const settings = '{ "defaultModel": "a/b" }';
  const translated = '{ "model": "a/b" }';

  it("finishes a translation cut short: the config is written, the original still in the legacy folder", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), settings);
    t.write(join(t.paths.config, "bosun.json"), translated);
    const plan = await legacyLayoutStep.plan(migrationContext(t));
    expect(plan.actions.map((a) => a.describe)).toEqual([
      "create ~/.local/share/bosun (private)",
      "move ~/.bosun/settings.json → ~/.config/bosun/legacy-settings.json (the original, untouched)",
      "remove the emptied folder ~/.bosun",
    ]);
    t.write(join(t.paths.config, "legacy-settings.json"), settings);
    expect((await legacyLayoutStep.plan(migrationContext(t))).actions[1]!.describe).toBe("remove ~/.bosun/settings.json (already kept as ~/.config/bosun/legacy-settings.json)");
  });

  it("keeps the file in place when a different bosun.json exists, and backs up next to an older backup", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), settings);
    t.write(join(t.paths.config, "bosun.json"), "{}");
    const kept = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(kept.steps[0]!.notes.map((n) => n.message)).toEqual([expect.stringMatching(/kept ~\/\.bosun\/settings\.json: .*bosun\.json already exists/)]);
    expect(readFileSync(join(t.paths.legacy, "settings.json"), "utf8")).toBe(settings);

    const u = makeTempHome();
    u.write(join(u.paths.legacy, "settings.json"), settings);
    u.write(join(u.paths.config, "legacy-settings.json"), "an older backup");
    await runSteps(migrationContext(u), [legacyLayoutStep]);
    expect(readFileSync(join(u.paths.config, "bosun.json"), "utf8")).toBe(translated);
    expect(readFileSync(join(u.paths.config, "legacy-settings.json-2"), "utf8")).toBe(settings);
    expect(readFileSync(join(u.paths.config, "legacy-settings.json"), "utf8")).toBe("an older backup");
    expect(existsSync(u.paths.legacy)).toBe(false);
  });

  it("keeps a settings.json nested too deep, unread, instead of making it the config", async () => {
    const t = makeTempHome();
    const deep = `{ "a": ${"[".repeat(100_000)} }`;
    t.write(join(t.paths.legacy, "settings.json"), deep);
    const report = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(existsSync(join(t.paths.config, "bosun.json"))).toBe(false);
    expect(readFileSync(join(t.paths.config, "legacy-settings.json"), "utf8")).toBe(deep);
    expect(report.steps[0]!.notes.map((n) => n.message)).toEqual([expect.stringContaining("nests objects and arrays more than 100 levels deep")]);
  });

  it("keeps unread a file whose translation would stop bosun, even when the old file itself only has unknown keys", async () => {
    const t = makeTempHome();
    const original = '{ "custom_providers": { "local": { "npm": "Not A Package", "base_url": "http://127.0.0.1:1/v1" } } }';
    t.write(join(t.paths.legacy, "settings.json"), original);
    const report = await runSteps(migrationContext(t), [legacyLayoutStep]);
    expect(report.steps[0]!.notes.map((note) => note.message)).toEqual([
      "~/.bosun/settings.json would stop every start as the config (providers.local.npm: use an npm package name such as @ai-sdk/openai-compatible); it is kept unread as ~/.config/bosun/legacy-settings.json: copy what you need into ~/.config/bosun/bosun.json",
    ]);
    expect(existsSync(join(t.paths.config, "bosun.json"))).toBe(false);
    expect(readFileSync(join(t.paths.config, "legacy-settings.json"), "utf8")).toBe(original);
  });

  it("writes the translation on a file system without hard links (vboxsf, 9p, SMB: link fails with EPERM)", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), settings);
    const noLinks = noHardLinksFs();
    await runSteps(migrationContext(t, { fs: noLinks }), [legacyLayoutStep]);
    expect(readFileSync(join(t.paths.config, "bosun.json"), "utf8")).toBe(translated);
    expect(readFileSync(join(t.paths.config, "legacy-settings.json"), "utf8")).toBe(settings);
    expect(readdirSync(t.paths.config).sort()).toEqual(["bosun.json", "legacy-settings.json"]);
    // Without links, a file that appeared in its place meanwhile is still never overwritten.
    expect(() => writeNewFile(noLinks, join(t.paths.config, "bosun.json"), Buffer.from("{}"), 0o600)).toThrow(/already exists/);
    expect(readFileSync(join(t.paths.config, "bosun.json"), "utf8")).toBe(translated);
    expect(readdirSync(t.paths.config).sort()).toEqual(["bosun.json", "legacy-settings.json"]);
  });

  it("lists in a dry run exactly what a real run does", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.legacy, "settings.json"), settings);
    const dry = await runSteps(migrationContext(t), [legacyLayoutStep], true);
    expect(existsSync(join(t.paths.config, "bosun.json"))).toBe(false);
    expect((await runSteps(migrationContext(t), [legacyLayoutStep])).steps[0]!.actions).toEqual(dry.steps[0]!.actions);
  });
});
