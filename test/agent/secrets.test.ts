import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, redactSecrets } from "../../src/agent/redact.js";
import { collectSecrets, createStreamRedactor, Redactor } from "../../src/agent/secrets.js";

describe("redactSecrets", () => {
  it("replaces every occurrence by [redacted:NAME], longest value first", () => {
    const secrets = [
      { name: "SHORT", value: "abcd1234" },
      { name: "LONG", value: "abcd1234-extended" },
    ];
    expect(redactSecrets("key=abcd1234-extended and abcd1234, again abcd1234", secrets)).toBe("key=[redacted:LONG] and [redacted:SHORT], again [redacted:SHORT]");
  });

  it("ignores values too short to be secrets and treats regex characters literally", () => {
    expect(MIN_SECRET_LENGTH).toBe(4);
    expect(redactSecrets("a1 b2 $(x)+y?", [{ name: "X", value: "a1" }, { name: "RE", value: "$(x)+y?" }])).toBe("a1 b2 [redacted:RE]");
    expect(redactSecrets("nothing here", [])).toBe("nothing here");
  });
});

describe("collectSecrets", () => {
  it("takes provider credential vars, configured vars, key-like names and stored credentials", async () => {
    const env = { OPENAI_API_KEY: "sk-openai-1", DB_URL: "postgres://u:p@h/db", GITHUB_TOKEN: "ghp_abc123", HOME: "/home/x", TOKENIZERS_PARALLELISM: "false" };
    const secrets = await collectSecrets({
      env,
      credentialEnvVars: ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"],
      configuredEnvVars: ["DB_URL"],
      storedCredentials: async () => [{ name: "anthropic", value: "sk-ant-stored" }],
      extra: [{ name: "model", value: "sk-openai-1" }],
    });
    expect(secrets).toEqual([
      { name: "OPENAI_API_KEY", value: "sk-openai-1" },
      { name: "DB_URL", value: "postgres://u:p@h/db" },
      { name: "GITHUB_TOKEN", value: "ghp_abc123" },
      { name: "anthropic", value: "sk-ant-stored" },
    ]);
  });
});

describe("Redactor", () => {
  const redactor = new Redactor([{ name: "K", value: "s3cr3t-value" }]);

  it("redacts strings deep inside structures and leaves unchanged parts alone", () => {
    const clean = { a: [1, { b: "ok" }] };
    expect(redactor.deep(clean)).toBe(clean);
    expect(redactor.deep({ a: ["x s3cr3t-value y", 2], n: null })).toEqual({ a: ["x [redacted:K] y", 2], n: null });
  });

  it("redacts a stream even when a secret is split across chunks", () => {
    const stream = createStreamRedactor(redactor);
    const out = ["xx s3c", "r3t-va", "lue yy s3cr3t", "-value"].map((chunk) => stream.push(chunk)).join("") + stream.end();
    expect(out).toBe("xx [redacted:K] yy [redacted:K]");
  });
});
