import { describe, expect, it } from "vitest";
import { codePointSorted, envIsSet, envPath, firstSetEnvVar } from "../../../src/runtimes/kit/detect/env.js";
import {
  atLeastFourChars,
  dotenvHoldsKey,
  grokTomlHoldsSecret,
  jsonHoldsSecret,
  jsonOrTextHoldsSecret,
  nonBlank,
  textMentionsSecretKey,
} from "../../../src/runtimes/kit/detect/secret-rules.js";

const KEYS = new Set(["access_token", "api_key", "token"]);

describe("environment rules", () => {
  it("counts any non-empty value, whitespace included, and nothing else", () => {
    expect(envIsSet({ A: "x" }, "A")).toBe(true);
    expect(envIsSet({ A: "  " }, "A")).toBe(true);
    expect(envIsSet({ A: "" }, "A")).toBe(false);
    expect(envIsSet({}, "A")).toBe(false);
  });

  it("reports the first variable set, in the order given", () => {
    expect(firstSetEnvVar({ B: "1", A: "1" }, ["A", "B"])).toBe("A");
    expect(firstSetEnvVar({ A: "", B: "1" }, ["A", "B"])).toBe("B");
    expect(firstSetEnvVar({}, ["A", "B"])).toBeUndefined();
  });

  it("sorts names held as sets by code point (upper case and '_' as Python sorts them)", () => {
    expect(codePointSorted(["GITHUB_TOKEN", "GH_TOKEN", "GEMINI_API_KEY", "A_B", "AB"])).toEqual(["AB", "A_B", "GEMINI_API_KEY", "GH_TOKEN", "GITHUB_TOKEN"]);
  });

  it("reads folder overrides trimmed, with ~ expanded and relative paths made absolute", () => {
    expect(envPath({ X: "  /opt/x  " }, "X", "/home/u", "/work")).toBe("/opt/x");
    expect(envPath({ X: "~/x" }, "X", "/home/u", "/work")).toBe("/home/u/x");
    expect(envPath({ X: "~" }, "X", "/home/u", "/work")).toBe("/home/u");
    expect(envPath({ X: "rel/x" }, "X", "/home/u", "/work")).toBe("/work/rel/x");
    expect(envPath({ X: "   " }, "X", "/home/u", "/work")).toBeUndefined();
    expect(envPath({}, "X", "/home/u", "/work")).toBeUndefined();
  });
});

describe("JSON secret walk", () => {
  it("finds a secret key with a non-blank string anywhere in objects and arrays", () => {
    expect(jsonHoldsSecret({ token: "abc" }, KEYS)).toBe(true);
    expect(jsonHoldsSecret({ a: { b: [{ c: 1 }, { api_key: "k" }] } }, KEYS)).toBe(true);
    expect(jsonHoldsSecret([[[{ access_token: "t" }]]], KEYS)).toBe(true);
  });

  it("ignores blank values, other keys and scalars", () => {
    expect(jsonHoldsSecret({ token: "   " }, KEYS)).toBe(false);
    expect(jsonHoldsSecret({ token: "" }, KEYS)).toBe(false);
    expect(jsonHoldsSecret({ password: "secret" }, KEYS)).toBe(false);
    expect(jsonHoldsSecret("token", KEYS)).toBe(false);
    expect(jsonHoldsSecret(null, KEYS)).toBe(false);
    expect(jsonHoldsSecret({ token: 12345 }, KEYS)).toBe(false);
  });

  it("walks into non-string values under a secret key", () => {
    expect(jsonHoldsSecret({ token: { api_key: "k" } }, KEYS)).toBe(true);
    expect(jsonHoldsSecret({ token: ["x", { token: "y" }] }, KEYS)).toBe(true);
    // a string inside an array under a secret key has no key of its own
    expect(jsonHoldsSecret({ token: ["x"] }, KEYS)).toBe(false);
  });

  it("walks a deeply nested document without overflowing the stack", () => {
    let deep: unknown = { token: "t" };
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonHoldsSecret(deep, KEYS)).toBe(true);
  });

  it("Hermes needs at least four characters after trimming; others any non-blank text", () => {
    expect(atLeastFourChars("abcd")).toBe(true);
    expect(atLeastFourChars("  abc  ")).toBe(false);
    expect(atLeastFourChars("ab🙂d")).toBe(true);
    expect(atLeastFourChars("a🙂c")).toBe(false);
    expect(nonBlank("x")).toBe(true);
    expect(nonBlank(" \t")).toBe(false);
  });
});

describe("text fallback (Cursor, Grok)", () => {
  it("counts a quoted key or `key =` anywhere, without looking at the value", () => {
    expect(textMentionsSecretKey('garbage "token": ', KEYS)).toBe(true);
    expect(textMentionsSecretKey("api_key = ", KEYS)).toBe(true);
    expect(textMentionsSecretKey("my_access_token = 1", KEYS)).toBe(true);
    expect(textMentionsSecretKey("api_key=abc", KEYS)).toBe(false);
    expect(textMentionsSecretKey("token: abc", KEYS)).toBe(false);
    expect(textMentionsSecretKey("'token'", KEYS)).toBe(false);
  });

  it("is used only when the text is not JSON", () => {
    expect(jsonOrTextHoldsSecret('{"token": ""}', KEYS)).toBe(false);
    expect(jsonOrTextHoldsSecret('{"token": "x"', KEYS)).toBe(true);
    expect(jsonOrTextHoldsSecret("\uFEFF{\"token\": \"\"}", KEYS)).toBe(true);
  });
});

describe(".env rule (Gemini, Hermes)", () => {
  const NAMES = new Set(["GEMINI_API_KEY", "GOOGLE_API_KEY"]);
  it("matches NAME=value with quotes stripped", () => {
    expect(dotenvHoldsKey('GEMINI_API_KEY="secret"', NAMES)).toBe(true);
    expect(dotenvHoldsKey("  GOOGLE_API_KEY = 'x'  ", NAMES)).toBe(true);
    expect(dotenvHoldsKey("A=1\r\nGEMINI_API_KEY=x\r\n", NAMES)).toBe(true);
    expect(dotenvHoldsKey("GEMINI_API_KEY=a=b", NAMES)).toBe(true);
  });

  it("skips empty values, comments, other names, `export` and lines without '='", () => {
    expect(dotenvHoldsKey('GEMINI_API_KEY=""', NAMES)).toBe(false);
    expect(dotenvHoldsKey("GEMINI_API_KEY=  '\"'  ", NAMES)).toBe(false);
    expect(dotenvHoldsKey("# GEMINI_API_KEY=x", NAMES)).toBe(false);
    expect(dotenvHoldsKey("OTHER_KEY=x", NAMES)).toBe(false);
    expect(dotenvHoldsKey("export GEMINI_API_KEY=x", NAMES)).toBe(false);
    expect(dotenvHoldsKey("GEMINI_API_KEY", NAMES)).toBe(false);
    expect(dotenvHoldsKey("", NAMES)).toBe(false);
  });
});

describe("Grok TOML rule", () => {
  it("counts a non-empty api_key", () => {
    expect(grokTomlHoldsSecret('[auth]\napi_key = "xai-123"', {})).toBe(true);
    expect(grokTomlHoldsSecret('api_key = ""', {})).toBe(false);
    expect(grokTomlHoldsSecret('# api_key = "x"', {})).toBe(false);
  });

  it("counts env_key only while the named variable is set", () => {
    const text = 'env_key = "GROK_TEST_KEY"';
    expect(grokTomlHoldsSecret(text, {})).toBe(false);
    expect(grokTomlHoldsSecret(text, { GROK_TEST_KEY: "" })).toBe(false);
    expect(grokTomlHoldsSecret(text, { GROK_TEST_KEY: "secret" })).toBe(true);
  });

  it("does not parse comments: text after the value makes it non-empty (and no longer a variable name)", () => {
    expect(grokTomlHoldsSecret('api_key = "" # none yet', {})).toBe(true);
    expect(grokTomlHoldsSecret('env_key = "K" # key', { K: "v" })).toBe(false);
  });

  it("treats text that is not TOML line by line", () => {
    expect(grokTomlHoldsSecret("[[[ not toml\napi_key = x", {})).toBe(true);
    expect(grokTomlHoldsSecret("[[[ not toml", {})).toBe(false);
  });
});
