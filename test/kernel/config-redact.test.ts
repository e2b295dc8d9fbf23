import { describe, expect, it } from "vitest";
import { isSecretConfigPath, redactConfig } from "../../src/kernel/config/config-redact.js";

describe("redactConfig", () => {
  it("redacts a provider's apiKey and headers, and any key named like a credential, at any depth, whole", () => {
    const config = {
      model: "corp/m1",
      providers: { corp: { name: "Corp", apiKey: "k-1", env: ["CORP_API_KEY"], headers: { "X-Api-Key": "k-2" }, models: { m1: { name: "M1" } } } },
      agents: { a0: { host: "http://127.0.0.1:1", api_token: "t-1" } },
      policy: [{ action: "read", effect: "allow", resource: "*", client_secret: { nested: "s-1" } }],
      secrets: ["CORP_TOKEN"],
    };
    expect(redactConfig(config)).toEqual({
      model: "corp/m1",
      providers: { corp: { name: "Corp", apiKey: "[redacted]", env: ["CORP_API_KEY"], headers: { "X-Api-Key": "[redacted]" }, models: { m1: { name: "M1" } } } },
      agents: { a0: { host: "http://127.0.0.1:1", api_token: "[redacted]" } },
      policy: [{ action: "read", effect: "allow", resource: "*", client_secret: "[redacted]" }],
      secrets: ["CORP_TOKEN"],
    });
  });

  it("names the same paths as secret whatever the case, and not the names of variables or limits", () => {
    expect(["providers.x.apiKey", "providers.x.headers.Authorization", "agents.y.PASSWORD", "a.refresh_token"].map((path) => isSecretConfigPath(path.split(".")))).toEqual([true, true, true, true]);
    expect(["providers.x.env", "secrets", "providers.x.models.m.outputLimit", "agents.y.max_tokens", "providers.x.headers"].map((path) => isSecretConfigPath(path.split(".")))).toEqual([false, false, false, false, false]);
  });

  it("keeps a URL as written but for its password", () => {
    expect(redactConfig({ u: "https://me:p@ss:w0rd@llm.example:8443/v1?x=1", plain: "https://llm.example/v1", user: "http://me@host/", text: "a:b@c" })).toEqual({
      u: "https://me:[redacted]@llm.example:8443/v1?x=1",
      plain: "https://llm.example/v1",
      user: "http://me@host/",
      text: "a:b@c",
    });
  });
});
