import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configSources, loadConfig } from "../../src/kernel/config/config.js";
import { loadConfigSchema } from "../../src/app/start.js";
import { ConfigError } from "../../src/kernel/config/config-error.js";
import { makeTempHome } from "../fixtures/temp-home.js";

async function problem(text: string): Promise<string> {
  const t = makeTempHome();
  const file = t.write(join(t.paths.config, "bosun.json"), text);
  try {
    await loadConfig(configSources(t.paths, null), loadConfigSchema);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.replace(file, "FILE");
  }
  throw new Error("the config was accepted");
}

describe("catalog config sections", () => {
  it("accepts providers, model, disabled_providers and policy as documented", async () => {
    const t = makeTempHome();
    t.write(
      join(t.paths.config, "bosun.json"),
      `{
        // a local server and an override
        "providers": {
          "local": { "npm": "@ai-sdk/openai-compatible", "baseURL": "http://127.0.0.1:11434/v1", "models": { "qwen3": {}, "qwen3:32b": { "name": "Qwen 3 32B", "contextLimit": 32768, "outputLimit": 8192, "toolCall": true, "reasoning": true } } },
          "openai": { "name": "OpenAI", "env": ["MY_OPENAI_KEY"], "headers": { "OpenAI-Organization": "org-1" }, "apiKey": "sk-x" },
        },
        "model": "local/qwen3",
        "disabled_providers": ["google"],
        "policy": [{ "action": "provider.use", "effect": "deny", "resource": "*" }, { "action": "model.*", "effect": "allow", "resource": "local/*" }],
      }`,
    );
    const config = await loadConfig(configSources(t.paths, null), loadConfigSchema);
    expect(config.value.model).toBe("local/qwen3");
    expect(config.layers[0]!.value.policy).toHaveLength(2);
  });

  it("warns about an unknown key in a provider, with the known key it is close to", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.config, "bosun.json"), '{ "providers": { "local": { "modles": {} } } }');
    const config = await loadConfig(configSources(t.paths, null), loadConfigSchema);
    expect(config.warnings.map((w) => [w.line, w.key, w.suggestion])).toEqual([[1, "providers.local.modles", "models"]]);
  });

  it("names the file, line and field of a mistake", async () => {
    expect(await problem('{\n  "providers": { "local": { "baseURL": "ftp://x" } }\n}')).toBe("FILE:2: providers.local.baseURL: use an http:// or https:// URL");
    expect(await problem('{\n  "providers": { "local": { "baseURL": "https://me:sk-secret@proxy.example/v1" } }\n}')).toBe(
      "FILE:2: providers.local.baseURL: put no user or password in the URL; use apiKey, headers, or bosun auth set",
    );
    expect(await problem('{\n  "model": "gpt-5"\n}')).toBe("FILE:2: model: use provider/model, e.g. anthropic/claude-sonnet-4-5");
    expect(await problem('{ "providers": { "local": { "models": { "m": { "contextLimit": -1 } } } } }')).toMatch(/^FILE:1: providers\.local\.models\.m\.contextLimit: too small/);
    expect(await problem('{ "providers": { "bad id": {} } }')).toBe("FILE:1: providers.bad id: invalid name: use letters, digits, '.', '_' or '-'");
    expect(await problem('{ "policy": [{ "action": "provider.use", "effect": "block", "resource": "x" }] }')).toMatch(/^FILE:1: policy\[0\]\.effect: /);
    expect(await problem('{ "providers": { "x": { "env": ["NOT-A-NAME"] } } }')).toBe("FILE:1: providers.x.env[0]: an environment variable name uses letters, digits and '_'");
  });
});
