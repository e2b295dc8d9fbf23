import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkConfigFiles } from "../../src/kernel/config/config.js";
import { loadConfigSchema } from "../../src/app/start.js";
import { checkConfigDocument } from "../../src/kernel/config/config-check.js";
import { configSchema } from "../../src/app/config-schema.js";
import { parseJsonc } from "../../src/kernel/jsonc.js";
import { legacyLayoutStep } from "../../src/startup/10_legacy_layout.js";
import { LEGACY_SETTINGS_KEYS } from "../../src/startup/legacy-settings-keys.js";
import { translateLegacySettings } from "../../src/startup/legacy-settings-translate.js";
import { migrationContext, runSteps } from "../fixtures/migration-context.js";
import { pick, seededRandom } from "../fixtures/random.js";
import { makeTempHome } from "../fixtures/temp-home.js";

/**
 * Old settings, one or two entries per translation rule (and today's keys the rules write into),
 * each valid once translated. A case takes a few of them in random order.
 */
const LEGACY_ENTRIES: [string, unknown][][] = [
  [
    ["chat_model_provider", "ollama"],
    ["chat_model_name", "qwen3:8b"],
  ],
  [["default_model", "anthropic/claude-sonnet-5"]],
  [["defaultModel", "openai/gpt-5"]],
  [["disabledProviders", ["openai", "groq"]]],
  [["custom_providers", { local: { base_url: "http://127.0.0.1:8080/v1", api_key: "sk-local-1234", env_vars: ["LOCAL_KEY"] } }]],
  [["providers", { corp: { base_url: "https://llm.corp.example/v1", headers: { "X-Team": "infra" } } }]],
  [["approval_mode", "auto"]],
  [["permissions", { bash: "ask" }]],
  [["secret_env", ["CORP_TOKEN"]]],
  [["disabled_plugins", ["old-tool", "other"]]],
  [["enabled_plugins", ["mine"]]],
  [["plugins", { demo: false, kept: { enabled: true } }]],
  [["theme", "dark"]],
  [["recent", [1, 2, 3]]],
];

interface Layout {
  random: () => number;
  eol: string;
  indent: string;
}

const chance = (layout: Layout, p: number) => layout.random() < p;

/** JSONC for `value` the way people write it, every choice random: one line or many, the closing brace on its own line or not, comments, trailing commas. */
function render(value: unknown, depth: number, layout: Layout): string {
  if (Array.isArray(value)) return chance(layout, 0.5) ? JSON.stringify(value) : `[ ${value.map((item) => JSON.stringify(item)).join(", ")} ]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const entries = Object.entries(value);
  const comment = () => (chance(layout, 0.2) ? ` /* c${pick(layout.random, 9)} */` : "");
  if (entries.length === 0) return chance(layout, 0.5) ? "{}" : `{${comment()} }`;
  if (depth > 0 && chance(layout, 0.4)) {
    const items = entries.map(([key, item]) => `${JSON.stringify(key)}:${chance(layout, 0.5) ? " " : ""}${render(item, depth + 1, layout)}${comment()}`);
    return `{${chance(layout, 0.5) ? " " : ""}${items.join(chance(layout, 0.5) ? ", " : ",")}${chance(layout, 0.3) ? "," : ""}${chance(layout, 0.5) ? " " : ""}}`;
  }
  const inner = layout.indent.repeat(depth + 1);
  const braceOnLastLine = chance(layout, 0.4);
  let text = "{";
  entries.forEach(([key, item], index) => {
    const last = index === entries.length - 1;
    if (chance(layout, 0.15)) text += `${layout.eol}${inner}// about ${key}`;
    if (chance(layout, 0.1)) text += layout.eol;
    text += `${layout.eol}${inner}${chance(layout, 0.15) ? "/* before */ " : ""}${JSON.stringify(key)}: ${render(item, depth + 1, layout)}${comment()}`;
    if (!last || chance(layout, 0.3)) text += ",";
    // A line comment at the end of the last line would swallow a brace put after it.
    if (chance(layout, 0.25) && !(last && braceOnLastLine)) text += ` // note ${index}`;
    else text += comment();
  });
  return text + (braceOnLastLine ? " }" : `${layout.eol}${layout.indent.repeat(depth)}}`);
}

/** A random old settings file: a few entries of the table, shuffled, in a random layout. */
function legacyCase(seed: number): { text: string; value: Record<string, unknown> } {
  const random = seededRandom(seed);
  const pool = [...LEGACY_ENTRIES];
  const entries: [string, unknown][] = [];
  for (let n = 1 + pick(random, 5); n > 0 && pool.length > 0; n--) entries.push(...pool.splice(pick(random, pool.length), 1)[0]!);
  const value = Object.fromEntries(entries);
  const layout: Layout = { random, eol: random() < 0.3 ? "\r\n" : "\n", indent: ["  ", "    ", "\t"][pick(random, 3)]! };
  return { text: render(value, 0, layout) + (random() < 0.5 ? layout.eol : ""), value };
}

/** The translation of `text` as a config file bosun reads: parsed (a syntax error throws) and checked. */
function readBack(text: string) {
  const doc = parseJsonc("bosun.json", text);
  return { value: doc.value, errors: checkConfigDocument(doc, configSchema).errors.map((error) => error.message) };
}

describe("the legacy translation over many layouts", () => {
  it("gives, whatever the layout, a file that parses, validates, and holds what the same settings written compactly translate to", () => {
    for (let seed = 1; seed <= 600; seed++) {
      const { text, value } = legacyCase(seed);
      const translated = translateLegacySettings(text);
      const compact = translateLegacySettings(JSON.stringify(value));
      const context = `seed ${seed}:\n${text}\n→\n${translated.text}`;
      let read: ReturnType<typeof readBack> | undefined;
      expect(() => (read = readBack(translated.text)), context).not.toThrow();
      expect(read!.errors, context).toEqual([]);
      expect(read!.value, context).toEqual(readBack(compact.text).value);
      expect(translated.changes, context).toEqual(compact.changes);
    }
  });

  it("through the step, with and without a BOM: what it writes is a bosun.json that every start reads", async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const t = makeTempHome();
      const { text } = legacyCase(seed);
      const bom = seed % 2 === 0 ? "\uFEFF" : "";
      t.write(join(t.paths.legacy, "settings.json"), bom + text);
      await runSteps(migrationContext(t), [legacyLayoutStep]);
      const config = join(t.paths.config, "bosun.json");
      const context = `seed ${seed}:\n${text}`;
      expect(existsSync(config), context).toBe(true);
      expect(readFileSync(config, "utf8").startsWith("\uFEFF"), context).toBe(bom !== "");
      const { errors } = await checkConfigFiles([{ scope: "global", file: config, exists: true }], loadConfigSchema);
      expect(errors.map((error) => error.message), context).toEqual([]);
    }
  });

  it("covers every rule of the key table", () => {
    const applied = new Set<string>();
    for (let seed = 1; seed <= 600; seed++) {
      for (const change of translateLegacySettings(legacyCase(seed).text).changes) applied.add(change.split(" → ")[0]!.split(".")[0]!);
    }
    const ruleKeys = LEGACY_SETTINGS_KEYS.map((rule) => ("rename" in rule ? rule.rename : "join" in rule ? rule.join.join(" + ") : "names" in rule ? rule.names : rule.wrap).split(".")[0]!);
    expect([...applied].sort()).toEqual([...new Set(ruleKeys)].sort());
  });
});
