import { describe, expect, it } from "vitest";
import { toolEnv } from "../../src/agent/tools/tool-env.js";

const noRules = { secretNames: [], allow: [] };

describe("toolEnv", () => {
  it("drops variables named as secrets, named like credentials, or holding a URL with a password", () => {
    const env = {
      PATH: "/usr/bin:/bin",
      HOME: "/home/u",
      ANTHROPIC_AUTH: "oauth-value-1",
      GITHUB_TOKEN: "ghp_0123456789",
      aws_secret_access_key: "aws-value-9",
      DATABASE_URL: "postgres://u:hunter2x@db/x",
      HOMEPAGE: "https://user@example.com/a:b",
      TOKENIZERS_PARALLELISM: "false",
      EMPTY: "",
      GONE: undefined,
    };
    const result = toolEnv(env, { secretNames: new Set(["ANTHROPIC_AUTH", "NOT_SET"]), allow: [] });
    expect(result).toEqual({
      env: { PATH: "/usr/bin:/bin", HOME: "/home/u", HOMEPAGE: "https://user@example.com/a:b", TOKENIZERS_PARALLELISM: "false", EMPTY: "" },
      dropped: ["ANTHROPIC_AUTH", "DATABASE_URL", "GITHUB_TOKEN", "aws_secret_access_key"],
    });
    expect("GONE" in result.env).toBe(false);
  });

  it("drops a copy of a dropped value under an innocent name, but not a value too short to be a secret", () => {
    const env = {
      OPENAI_API_KEY: "sk-proj-abc123",
      MY_THING: "sk-proj-abc123",
      ALSO: "sk-proj-abc123",
      SOME_TOKEN: "1",
      SHLVL: "1",
      NEAR: "sk-proj-abc123 ",
      CONN: "postgres://u:hunter2x@db/x",
      CONN_COPY: "postgres://u:hunter2x@db/x",
      // The password of a dropped URL, under an innocent name.
      PW: "hunter2x",
    };
    const { env: kept, dropped } = toolEnv(env, noRules);
    expect(kept).toEqual({ SHLVL: "1", NEAR: "sk-proj-abc123 " });
    expect(dropped).toEqual(["ALSO", "CONN", "CONN_COPY", "MY_THING", "OPENAI_API_KEY", "PW", "SOME_TOKEN"]);
  });

  it("lets allowed names through, copies included, and only those", () => {
    const env = { NPM_TOKEN: "npm_abcdef123", NPM_COPY: "npm_abcdef123", DEPLOY_KEY_TOKEN: "dk-7788", MIRROR: "dk-7788", DB: "mysql://r:pw99@h/d" };
    const { env: kept, dropped } = toolEnv(env, { secretNames: ["DB"], allow: new Set(["NPM_TOKEN", "DB", "MIRROR"]) });
    expect(kept).toEqual({ NPM_TOKEN: "npm_abcdef123", NPM_COPY: "npm_abcdef123", MIRROR: "dk-7788", DB: "mysql://r:pw99@h/d" });
    expect(dropped).toEqual(["DEPLOY_KEY_TOKEN"]);
  });

  it("keeps a variable called __proto__ as an ordinary name and leaves the input alone", () => {
    const env: Record<string, string | undefined> = JSON.parse('{"__proto__": "x-value", "A_TOKEN": "t-value-1"}');
    const { env: kept, dropped } = toolEnv(env, noRules);
    expect(Object.keys(kept)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(kept, "__proto__")?.value).toBe("x-value");
    expect(dropped).toEqual(["A_TOKEN"]);
    expect(Object.keys(env)).toEqual(["__proto__", "A_TOKEN"]);
  });
});
