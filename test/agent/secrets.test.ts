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

describe("redactSecrets across control sequences", () => {
  const secrets = [{ name: "K", value: "sk-verysecret-4242" }];

  it("finds a secret that colour codes, hyperlinks or control characters break up, and replaces the whole stretch", () => {
    expect(redactSecrets("key=sk-very\u001b[1msecret-4242\u001b[0m!", secrets)).toBe("key=[redacted:K]\u001b[0m!");
    expect(redactSecrets("\u001b[01;31m\u001b[Ksk-very\u001b[m\u001b[Ksecret-4242 and sk-verysecret-4242", secrets)).toBe("\u001b[01;31m\u001b[K[redacted:K] and [redacted:K]");
    expect(redactSecrets("a \u001b]8;;http://x\u0007sk-very\u001b]8;;\u0007secret-4242 b", secrets)).toBe("a \u001b]8;;http://x\u0007[redacted:K] b");
    expect(redactSecrets("sk-\u0000very\rsecret\u007f-4242", secrets)).toBe("[redacted:K]");
    // A newline or a tab is not hidden on a terminal: the text is not one secret.
    expect(redactSecrets("sk-very\nsecret-4242 \u001b[1m", secrets)).toBe("sk-very\nsecret-4242 \u001b[1m");
  });

  it("holds back a chunk's end that could begin a secret behind control codes, or ends inside an escape sequence", () => {
    const redactor = new Redactor(secrets);
    const streamed = (chunks: string[]) => {
      const stream = createStreamRedactor(redactor);
      return chunks.map((chunk) => stream.push(chunk)).join("") + stream.end();
    };
    expect(streamed(["key=sk-very\u001b[1m", "secret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(["key=sk-very\u001b[", "1msecret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(["key=sk-very\u001b", "[1msecret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(["key=sk-\u001b[1mve", "ry\u001b[0msec", "ret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(["plain \u001b[1mtext\u001b[0m", " stays"])).toBe("plain \u001b[1mtext\u001b[0m stays");
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
