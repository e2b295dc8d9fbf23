import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, redactSecrets, secretForms, type Secret } from "../../src/kernel/redact/redact.js";
import { collectSecrets, createStreamRedactor, Redactor } from "../../src/kernel/redact/secrets.js";
import { plainView } from "../../src/kernel/terminal-text.js";
import { urlPassword } from "../../src/kernel/redact/url-password.js";

/** `text` pushed through a stream redactor in the given chunks. */
function streamed(secrets: readonly Secret[], chunks: string[]): string {
  const stream = createStreamRedactor(new Redactor(secrets));
  return chunks.map((chunk) => stream.push(chunk)).join("") + stream.end();
}

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
    // A newline or a tab is not hidden on a terminal: the text is not one secret (only its last eight characters count).
    expect(redactSecrets("sk-very\nsecret-4242 \u001b[1m", secrets)).toBe("sk-very\nsec[redacted:K] \u001b[1m");
    expect(redactSecrets("sk-very\tsec\u001b[1mret \u001b[1m", secrets)).toBe("sk-very\tsec\u001b[1mret \u001b[1m");
  });

  it("holds back a chunk's end that could begin a secret behind control codes, or ends inside an escape sequence", () => {
    expect(streamed(secrets, ["key=sk-very\u001b[1m", "secret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(secrets, ["key=sk-very\u001b[", "1msecret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(secrets, ["key=sk-very\u001b", "[1msecret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(secrets, ["key=sk-\u001b[1mve", "ry\u001b[0msec", "ret-4242\n"])).toBe("key=[redacted:K]\n");
    expect(streamed(secrets, ["plain \u001b[1mtext\u001b[0m", " stays"])).toBe("plain \u001b[1mtext\u001b[0m stays");
    // The open sequence's parameters are no text yet: what comes before it may still begin the secret.
    expect(streamed(secrets, ["key=sk-very\u001b[38;5", ";1msecret-4242\n"])).toBe("key=[redacted:K]\n");
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

describe("URLs with a password", () => {
  it("urlPassword gives the password of a value that is all one URL with one, as written", () => {
    expect(urlPassword("postgres://u:hunter2x@db/x")).toBe("hunter2x");
    expect(urlPassword("redis://:s3cret-pw@cache:6379/0")).toBe("s3cret-pw");
    expect(urlPassword("amqp://guest:guest@localhost:5672/")).toBe("guest");
    expect(urlPassword("postgres://app:p@ss:w0rd@db.internal/app?sslmode=require")).toBe("p@ss:w0rd");
    expect(urlPassword("https://x:p%40ss@host")).toBe("p%40ss");
    expect(urlPassword("https://u:pw@")).toBe("pw");
  });

  it("urlPassword gives null for anything else", () => {
    for (const value of [
      "https://user@host/path",
      "https://host:8080/path",
      "https://host/a:b@c",
      "https://host?q=a:b@c",
      "postgres://u:@db/x",
      "u:p@host",
      "see postgres://u:hunter2x@db/x",
      "postgres://u:hunter2x@db/x and more",
      "postgres://u:hun ter2x@db/x",
      "://u:p@h",
      "",
    ]) {
      expect(urlPassword(value), value).toBeNull();
    }
  });

  it("collectSecrets takes the URL and its password from any variable, named by the variable", async () => {
    const env = {
      DATABASE_URL: "postgres://u:hunter2x@db/x",
      CACHE: "redis://:abc@cache",
      HOMEPAGE: "https://example.com/a:b",
      DB_PASSWORD: "hunter2x",
    };
    const secrets = await collectSecrets({ env, credentialEnvVars: [], configuredEnvVars: [], storedCredentials: async () => [] });
    expect(secrets).toEqual([
      { name: "DB_PASSWORD", value: "hunter2x" },
      { name: "DATABASE_URL", value: "postgres://u:hunter2x@db/x" },
      { name: "CACHE", value: "redis://:abc@cache" },
    ]);
    const redactor = new Redactor(
      await collectSecrets({ env: { DATABASE_URL: env.DATABASE_URL }, credentialEnvVars: [], configuredEnvVars: [], storedCredentials: async () => [] }),
    );
    expect(redactor.text(`connecting to ${env.DATABASE_URL}\npsql: password "hunter2x" rejected for postgres`)).toBe(
      'connecting to [redacted:DATABASE_URL]\npsql: password "[redacted:DATABASE_URL]" rejected for postgres',
    );
  });
});

describe("Redactor", () => {
  const redactor = new Redactor([{ name: "K", value: "s3cr3t-value" }]);

  it("redacts strings deep inside structures and leaves unchanged parts alone", () => {
    const clean = { a: [1, { b: "ok" }] };
    expect(redactor.deep(clean)).toBe(clean);
    expect(redactor.deep({ a: ["x s3cr3t-value y", 2], n: null })).toEqual({ a: ["x [redacted:K] y", 2], n: null });
  });

  it("holds back a whole secret at a chunk's end that the start of another one follows", () => {
    // The chunk ends with `z`, which may begin ZED: cutting there would split WXYZ, which is already whole.
    const both = [
      { name: "WXYZ", value: "abcd1234wxyz" },
      { name: "ZED", value: "zebra-9999" },
    ];
    expect(streamed(both, ["A=abcd1234wxyz", " and zebra-", "9999."])).toBe("A=[redacted:WXYZ] and [redacted:ZED].");
  });

  it("holds back the start of a masked form split across chunks", () => {
    const key = [{ name: "KEY", value: "sk-proj-Q7v9mN2pR4sT6uW8cD3eF5gH" }];
    expect(streamed(key, ["shown as sk-proj-Q7v9…cD3e", "F5gH\n"])).toBe("shown as [redacted:KEY]Q7v9…[redacted:KEY]\n");
    expect(streamed(key, ["sk-pr", "oj-…", "cD3eF5g", "H"])).toBe("[redacted:KEY]…[redacted:KEY]");
  });

  it("redacts a stream even when a secret is split across chunks", () => {
    const stream = createStreamRedactor(redactor);
    const out = ["xx s3c", "r3t-va", "lue yy s3cr3t", "-value"].map((chunk) => stream.push(chunk)).join("") + stream.end();
    expect(out).toBe("xx [redacted:K] yy [redacted:K]");
  });
});

describe("redaction of random text (property)", () => {
  /** A small seeded generator, so a failure names the case that reproduces it. */
  const generator = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const ALNUM = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"];
  // Filler has no digits or capitals, so it cannot make up a secret's masked form by chance.
  const FILLER = ["the ", "build ", "failed", " at ", "line", ":", "\n", "\t", "key=", "…", "***", " ok", "-", "_"];
  const CODES = ["\u001b[31m", "\u001b[0m", "\u001b[1;32m", "\u001b[K", "\u001b[38;5;208m", "\u001b]8;;http://x\u0007"];

  const makeCase = (seed: number) => {
    const random = generator(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const token = (length: number) => Array.from({ length }, () => pick(ALNUM)).join("");
    const secrets: Secret[] = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => {
      const start = pick(["sk-proj-", "sk-ant-", "ghp_", ""]);
      const length = random() < 0.2 ? 4 + Math.floor(random() * 12) : 24 + Math.floor(random() * 40);
      return { name: `S${i}`, value: start + token(Math.max(4, length - start.length)) };
    });
    let plain = "";
    const whole: Secret[] = [];
    for (let i = 0; i < 30; i++) {
      const secret = pick(secrets);
      const shown = 8 + Math.floor(random() * 5);
      const roll = random();
      if (roll < 0.15) (plain += secret.value), whole.push(secret);
      else if (roll < 0.3) plain += `${secret.value.slice(0, shown)}${pick(["…", "***", "..."])}${secret.value.slice(-shown)}`;
      else if (roll < 0.35) plain += secret.value.slice(0, 8);
      else if (roll < 0.4) plain += secret.value.slice(-8);
      else plain += pick(FILLER);
    }
    // Colour codes anywhere, inside secrets too; then chunks cut anywhere, inside codes too.
    const cuts = Array.from({ length: 12 }, () => Math.floor(random() * (plain.length + 1))).sort((a, b) => a - b);
    let text = "";
    let from = 0;
    for (const cut of cuts) {
      text += plain.slice(from, cut) + pick(CODES);
      from = cut;
    }
    text += plain.slice(from);
    const chunks: string[] = [];
    for (let at = 0; at < text.length; ) {
      const size = 1 + Math.floor(random() * 24);
      chunks.push(text.slice(at, at + size));
      at += size;
    }
    return { secrets, whole, text, chunks };
  };

  it("leaves no secret, masked form or middle of a whole secret, and a stream gives what the whole text gives", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const { secrets, whole, text, chunks } = makeCase(seed);
      const redacted = redactSecrets(text, secrets);
      expect(streamed(secrets, chunks), `seed ${seed}`).toBe(redacted);
      const left = plainView(redacted).plain.split(/\[redacted:S\d+\]/);
      for (const form of secretForms(secrets)) {
        for (const part of left) expect(part.includes(form), `seed ${seed}: ${JSON.stringify(form)} in ${JSON.stringify(part)}`).toBe(false);
      }
      for (const secret of whole) {
        const middle = secret.value.slice(8, -8);
        if (middle.length >= 8) expect(left.some((part) => part.includes(middle)), `seed ${seed}: middle of ${secret.name}`).toBe(false);
      }
    }
  });
});
