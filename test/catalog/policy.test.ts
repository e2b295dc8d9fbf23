import { describe, expect, it } from "vitest";
import { Policy, policyFromDocuments } from "../../src/catalog/policy.js";
import { wildcardMatch } from "../../src/catalog/wildcard.js";

describe("Policy", () => {
  it("returns the caller's fallback when no statement matches", () => {
    const policy = new Policy([]);
    expect(policy.evaluate("provider.use", "openai", "allow")).toEqual({ effect: "allow", statement: null });
    expect(policy.evaluate("provider.use", "openai", "deny")).toEqual({ effect: "deny", statement: null });
  });

  it("evaluates wildcard rules in written order: the last match wins", () => {
    const policy = new Policy([
      { action: "provider.*", effect: "deny", resource: "*" },
      { action: "provider.use", effect: "allow", resource: "anthropic" },
    ]);
    expect(policy.evaluate("provider.use", "anthropic", "allow").effect).toBe("allow");
    expect(policy.evaluate("provider.use", "openai", "allow")).toEqual({ effect: "deny", statement: { action: "provider.*", effect: "deny", resource: "*" } });
  });

  it("matches action and resource independently", () => {
    const policy = new Policy([{ action: "provider.*", effect: "deny", resource: "company-*" }]);
    expect(policy.evaluate("provider.use", "company-stable", "allow").effect).toBe("deny");
    expect(policy.evaluate("plugin.load", "company-stable", "allow").effect).toBe("allow");
  });

  it("uses the last matching statement, whatever its specificity", () => {
    const policy = new Policy([
      { action: "provider.use", effect: "allow", resource: "openai" },
      { action: "provider.use", effect: "deny", resource: "open*" },
    ]);
    expect(policy.evaluate("provider.use", "openai", "allow").effect).toBe("deny");
  });

  it("lets the user's own statements outrank a project's (documents read in reverse, order kept inside each)", () => {
    const policy = policyFromDocuments([
      { scope: "global", file: "/home/me/.config/bosun/bosun.json", statements: [{ action: "provider.use", effect: "deny", resource: "openai" }] },
      {
        scope: "project",
        file: "/work/app/bosun.json",
        statements: [
          { action: "provider.use", effect: "deny", resource: "*" },
          { action: "provider.use", effect: "allow", resource: "openai" },
        ],
      },
    ]);
    const decision = policy.evaluate("provider.use", "openai", "allow");
    expect(decision.effect).toBe("deny");
    expect(decision.statement?.origin).toEqual({ file: "/home/me/.config/bosun/bosun.json", index: 0, scope: "global" });
    expect(policy.evaluate("provider.use", "anthropic", "allow").statement?.origin).toMatchObject({ scope: "project", index: 0 });
  });

  it("decides per provider prefix exactly as evaluating each model would", () => {
    const policy = new Policy([
      { action: "model.use", effect: "deny", resource: "*/*-preview" },
      { action: "model.use", effect: "allow", resource: "acme/special-preview" },
      { action: "model.use", effect: "deny", resource: "other/*" },
      { action: "model.use", effect: "deny", resource: "ac?e/x*" },
    ]);
    const resources = ["acme/a-preview", "acme/special-preview", "acme/x1", "acme/b", "other/b", "zed/q-preview"];
    for (const resource of resources) {
      const decide = policy.deciderFor("model.use", resource.slice(0, resource.indexOf("/") + 1));
      expect(decide ? decide(resource).effect : "allow", resource).toBe(policy.evaluate("model.use", resource, "allow").effect);
    }
    expect(policy.deciderFor("model.use", "zzz/")).not.toBeNull();
    expect(new Policy([{ action: "model.use", effect: "deny", resource: "acme/*" }]).deciderFor("model.use", "other/")).toBeNull();
  });

  it("answers which models a provider may not use as evaluating each would, asked once or again", () => {
    const policy = new Policy([
      { action: "model.use", effect: "deny", resource: "*/*-preview" },
      { action: "model.use", effect: "allow", resource: "acme/special-preview" },
      { action: "model.*", effect: "deny", resource: "ac?e/x*" },
    ]);
    const resources = ["acme/a-preview", "acme/special-preview", "acme/x1", "acme/b", "acme/a/x-preview", "zed/q-preview", "zed/x1"];
    for (let round = 0; round < 2; round++) {
      for (const resource of resources) {
        const slash = resource.indexOf("/");
        const denied = policy.modelDenier(resource.slice(0, slash));
        expect(denied ? denied(resource.slice(slash + 1)) : false, resource).toBe(policy.evaluate("model.use", resource, "allow").effect === "deny");
      }
    }
    expect(policy.modelDenier("zed")).toBe(policy.modelDenier("zed"));
    expect(new Policy([{ action: "model.use", effect: "deny", resource: "acme/*" }]).modelDenier("other")).toBeNull();
  });
});

describe("wildcardMatch", () => {
  it("lets * span any characters, / included, and ? match exactly one", () => {
    expect(wildcardMatch("openrouter/anthropic/claude", "openrouter/*", false)).toBe(true);
    expect(wildcardMatch("openai", "*", false)).toBe(true);
    expect(wildcardMatch("", "*", false)).toBe(true);
    expect(wildcardMatch("gpt-5", "gpt-?", false)).toBe(true);
    expect(wildcardMatch("gpt-55", "gpt-?", false)).toBe(false);
    expect(wildcardMatch("a-b-c", "a*b*c", false)).toBe(true);
    expect(wildcardMatch("abcbc", "a*bc", false)).toBe(true);
    expect(wildcardMatch("ab", "a*b*b", false)).toBe(false);
  });

  it("matches the whole text only", () => {
    expect(wildcardMatch("xopenai", "openai", false)).toBe(false);
    expect(wildcardMatch("openai-eu", "openai", false)).toBe(false);
    expect(wildcardMatch("openai.", "openai?", false)).toBe(true);
  });

  it("lets a trailing ' *' also match the text without it", () => {
    expect(wildcardMatch("git push", "git push *", false)).toBe(true);
    expect(wildcardMatch("git push origin main", "git push *", false)).toBe(true);
    expect(wildcardMatch("git pushy", "git push *", false)).toBe(false);
  });

  it("treats special characters literally, backslashes as slashes, and newlines like any character", () => {
    expect(wildcardMatch("a.b", "a.b", false)).toBe(true);
    expect(wildcardMatch("axb", "a.b", false)).toBe(false);
    expect(wildcardMatch("(x)+[y]", "(x)+[y]", false)).toBe(true);
    expect(wildcardMatch("dir\\file", "dir/*", false)).toBe(true);
    expect(wildcardMatch("one\ntwo", "one*two", false)).toBe(true);
  });

  it("ignores case only when asked (bosun asks on Windows)", () => {
    expect(wildcardMatch("OpenAI", "openai", false)).toBe(false);
    expect(wildcardMatch("OpenAI", "openai", true)).toBe(true);
  });
});
