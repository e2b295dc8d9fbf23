// One parse per config text (jsonc-edit.ts parseTreeOf): the value bosun reads from a text is the
// one jsonc-parser's own parse gives, however the texts it edits follow each other.
import * as jsonc from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/install/config/json-hooks.js";
import { insertJson, nodeAt } from "../../src/install/config/jsonc-edit.js";

const TEXTS = [
  '{"a": 1}',
  '{\n  // a comment\n  "hooks": {"PreToolUse": [],},\n}\n',
  '{"a": 1, "a": 2, "b": {"c": [1, 2, {"d": null}]}}',
  '{"__proto__": {"x": 1}, "y": "z"}',
  "\n\n",
  "// only a comment\n",
  '{"a": ',
  '["not", "an", "object"]',
  '{"a": 1} trailing',
];

describe("a config text's tree", () => {
  it("gives the value jsonc-parser's parse gives, or the same problem", () => {
    for (const text of TEXTS) {
      const errors: jsonc.ParseError[] = [];
      const expected = text.trim() === "" ? {} : jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
      const parsed = parseConfig(text);
      if (errors.length > 0) expect(parsed, text).toMatchObject({ ok: false, problem: `invalid JSON (${jsonc.printParseErrorCode(errors[0]!.error)})` });
      else if (typeof expected !== "object" || expected === null || Array.isArray(expected)) expect(parsed, text).toMatchObject({ ok: false, problem: "does not hold a JSON object" });
      else {
        expect(parsed, text).toStrictEqual({ ok: true, value: expected });
        expect(Object.getPrototypeOf((parsed as { value: object }).value), text).toStrictEqual(Object.getPrototypeOf(expected));
      }
    }
  });

  it("follows the text: each edit reads the text it is given, not the last one parsed", () => {
    let text = "{}\n";
    for (let index = 0; index < 5; index++) {
      const before = text;
      text = insertJson(text, [], `k${index}`, { n: index });
      expect(parseConfig(before)).toEqual({ ok: true, value: Object.fromEntries(Array.from({ length: index }, (_, k) => [`k${k}`, { n: k }])) });
      expect(nodeAt(text, [`k${index}`, "n"])?.value).toBe(index);
    }
    expect(JSON.parse(text)).toEqual({ k0: { n: 0 }, k1: { n: 1 }, k2: { n: 2 }, k3: { n: 3 }, k4: { n: 4 } });
  });
});
