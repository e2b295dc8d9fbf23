import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkConfigDocument } from "../../src/kernel/config/config-check.js";
import { parseJsonc } from "../../src/kernel/jsonc.js";
import { closestName } from "../../src/kernel/suggest.js";

const command = z.object({ run: z.string(), timeout: z.number().optional() }).strict();
const script = z.object({ script: z.string(), args: z.array(z.string()).optional() }).strict();
const hook = z.discriminatedUnion("type", [
  z.object({ type: z.literal("bash"), line: z.string() }).strict(),
  z.object({ type: z.literal("url"), href: z.string() }).strict(),
]);
const schema = z
  .object({
    steps: z.array(z.union([z.string(), command, script])).optional(),
    hooks: z.record(z.string(), hook).optional(),
  })
  .strict();

const check = (text: string) => checkConfigDocument(parseJsonc("/x/bosun.json", text), schema);

describe("checkConfigDocument with unions", () => {
  it("warns about an unknown key inside the union option the value meant, at its line", () => {
    const result = check(`{
  "steps": [
    "lint",
    { "run": "make", "timout": 5 },
    { "script": "a.sh", "argz": [] }
  ],
  "hooks": { "start": { "type": "url", "href": "http://x", "hreff": "y" } }
}`);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => [w.line, w.key, w.suggestion])).toEqual([
      [4, "steps[1].timout", "timeout"],
      [5, "steps[2].argz", "args"],
      [7, "hooks.start.hreff", "href"],
    ]);
    expect(result.value).toEqual({ steps: ["lint", { run: "make" }, { script: "a.sh" }], hooks: { start: { type: "url", href: "http://x" } } });
  });

  it("takes the first option when several fit but for unknown keys", () => {
    const result = check(`{ "steps": [{ "run": "make", "script": "a.sh" }] }`);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.key)).toEqual(["steps[0].script"]);
    expect(result.value).toEqual({ steps: [{ run: "make" }] });
  });

  it("is an error when no option fits, even with unknown keys beside", () => {
    const result = check(`{\n  "steps": [\n    { "run": 5, "other": 1 }\n  ]\n}`);
    expect(result.value).toBeNull();
    expect(result.errors.map((e) => [e.line, e.field])).toEqual([[3, "steps[0]"]]);
  });
});

describe("closestName", () => {
  it("finds typos, swapped letters and other spellings of a name, and nothing for an unrelated word", () => {
    const keys = ["model", "plugins", "disabled_providers", "permissions"];
    expect(closestName("modle", keys)).toBe("model");
    expect(closestName("plugin", keys)).toBe("plugins");
    expect(closestName("disabledProviders", keys)).toBe("disabled_providers");
    expect(closestName("permisions", keys)).toBe("permissions");
    expect(closestName("theme", keys)).toBeNull();
    expect(closestName("x", keys)).toBeNull();
  });
});
