import { describe, expect, it } from "vitest";
import { maskedForms, MIN_SECRET_LENGTH, redactSecrets } from "../../src/kernel/redact/redact.js";
import { relayAgentMessage } from "../../src/runtimes/kit/agent-message.js";
import { knownSecrets } from "../../src/runtimes/kit/known-secrets.js";
import { makeDetection } from "../fixtures/detection.js";

describe("redactSecrets", () => {
  it("replaces every occurrence of each value with its name", () => {
    expect(redactSecrets("key=sk-123456 again sk-123456", [{ name: "OPENAI_API_KEY", value: "sk-123456" }])).toBe("key=[redacted:OPENAI_API_KEY] again [redacted:OPENAI_API_KEY]");
  });

  it("replaces the longest value first, so a secret containing another is replaced whole", () => {
    const secrets = [
      { name: "SHORT", value: "abcdef" },
      { name: "LONG", value: "abcdef-ghijkl" },
    ];
    expect(redactSecrets("abcdef-ghijkl and abcdef", secrets)).toBe("[redacted:LONG] and [redacted:SHORT]");
  });

  it("never searches its own replacements again", () => {
    expect(redactSecrets("token redacted", [{ name: "A", value: "redacted" }, { name: "B", value: "token redacted" }])).toBe("[redacted:B]");
    expect(redactSecrets("x secret1 y", [{ name: "redacted", value: "secret1" }, { name: "Q", value: "redacted" }])).toBe("x [redacted:redacted] y");
  });

  it("ignores values shorter than a few characters and treats values literally", () => {
    expect(MIN_SECRET_LENGTH).toBe(4);
    expect(redactSecrets("yes 123 ok", [{ name: "A", value: "yes" }, { name: "B", value: "123" }])).toBe("yes 123 ok");
    expect(redactSecrets("a.*b+c?(d) a-b-c-d", [{ name: "RE", value: "a.*b+c?(d)" }])).toBe("[redacted:RE] a-b-c-d");
    expect(redactSecrets("", [{ name: "A", value: "abcdefgh" }])).toBe("");
    expect(redactSecrets("text", [])).toBe("text");
  });
});

describe("masked forms", () => {
  const openai = { name: "OPENAI_API_KEY", value: "sk-proj-Q7v9mN2pR4sT6uW8cD3eF5gH" };
  const anthropic = { name: "ANTHROPIC_API_KEY", value: "sk-ant-api03-kL9jH7gF5dS3aXyZ12345" };

  it("are the first and last eight characters of a single-token value of 16 characters or more", () => {
    expect(maskedForms(openai.value)).toEqual(["sk-proj-", "cD3eF5gH"]);
    expect(maskedForms("0123456789abcdef")).toEqual(["01234567", "89abcdef"]);
    expect(maskedForms("0123456789abcde")).toEqual([]);
    // An end that is a plain word stays readable wherever the word appears.
    expect(maskedForms("verifier-0c4f2a9e")).toEqual(["0c4f2a9e"]);
    expect(maskedForms("a1b2c3d4-Password")).toEqual(["a1b2c3d4"]);
    expect(maskedForms("WARNINGS-a1b2c3d4e")).toEqual(["1b2c3d4e"]);
    expect(maskedForms("sk-proj-abcdefgh")).toEqual(["sk-proj-"]);
    // A passphrase, a key file's lines or a URL: their ends are ordinary text too often.
    expect(maskedForms("correct horse battery staple")).toEqual([]);
    expect(maskedForms("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----")).toEqual([]);
    expect(maskedForms("postgres://app:hunter2x@db.internal/postgres")).toEqual([]);
  });

  it("count as the secret where a CLI shows a key masked, and the whole value still wins where it appears", () => {
    const secrets = [openai, anthropic];
    expect(redactSecrets("key: sk-proj-Q7v9…cD3eF5gH", secrets)).toBe("key: [redacted:OPENAI_API_KEY]Q7v9…[redacted:OPENAI_API_KEY]");
    expect(redactSecrets("using sk-ant-…XyZ12345 (set)", secrets)).toBe("using sk-ant-…[redacted:ANTHROPIC_API_KEY] (set)");
    expect(redactSecrets(`export OPENAI_API_KEY=${openai.value}; echo ${anthropic.value}`, secrets)).toBe("export OPENAI_API_KEY=[redacted:OPENAI_API_KEY]; echo [redacted:ANTHROPIC_API_KEY]");
    // Not the masked form of a shorter value, nor a part of a form.
    expect(redactSecrets("sk-proj- sk-pro Q7v9mN2p", [{ name: "SHORT", value: "sk-proj-Q7v9mN2" }])).toBe("sk-proj- sk-pro Q7v9mN2p");
    expect(redactSecrets("sk-proj cD3eF5g", secrets)).toBe("sk-proj cD3eF5g");
  });

  it("are named by a secret that is the same text whole, else by the first secret they belong to", () => {
    const secrets = [
      { name: "LONG", value: "abcd1234-and-more-after" },
      { name: "OTHER", value: "abcd1234-another-value" },
      { name: "WHOLE", value: "abcd1234" },
    ];
    expect(redactSecrets("abcd1234 …alue abcd1234-another-value", secrets)).toBe("[redacted:WHOLE] …alue [redacted:OTHER]");
    expect(redactSecrets("…er-value …re-after", secrets)).toBe("…[redacted:OTHER] …[redacted:LONG]");
    expect(redactSecrets("abcd1234…", secrets.slice(0, 2))).toBe("[redacted:LONG]…");
  });

  it("are found behind colour codes, and a whole value with a code after its first eight characters is still one secret", () => {
    const secrets = [openai];
    expect(redactSecrets("sk-p\u001b[1mroj-Q7v9…", secrets)).toBe("[redacted:OPENAI_API_KEY]Q7v9…");
    expect(redactSecrets("sk-proj-Q7v9\u001b[31mmN2pR4sT6uW8cD3eF5gH\u001b[0m.", secrets)).toBe("[redacted:OPENAI_API_KEY]\u001b[0m.");
    expect(redactSecrets("\u001b[1mx\u001b[0m sk-proj-Q7v9mN2pR4sT6uW8cD3e\u001b[32mF5gH", secrets)).toBe("\u001b[1mx\u001b[0m [redacted:OPENAI_API_KEY]");
  });
});

describe("relaying an agent CLI's complaint", () => {
  it("redacts known values, masked fragments and long opaque runs, in one short line", () => {
    const text = "Error: API key configured - sk-fake-***lmnop\nwith token abcdefghij0123456789abcdefghij0123\nsecret hunter22 here\nfourth line\n";
    expect(relayAgentMessage(text, [{ name: "PASSWORD", value: "hunter22" }])).toBe("Error: API key configured - [redacted] / with token [redacted] / secret [redacted:PASSWORD] here");
    expect(relayAgentMessage("word ".repeat(100), [], 50)).toHaveLength(50);
    expect(relayAgentMessage("bell\u0007 and \u001b[31mred\u001b[0m\ttext", [])).toBe("bell and red text");
  });
});

describe("known secrets for redaction", () => {
  it("takes credential-like variables and every string of the named JSON files", () => {
    const t = makeDetection({ env: { MY_API_KEY: "k1-value", GH_TOKEN: "t1-value", EDITOR: "vim", CUSTOM: "c1-value" } });
    const file = t.put("auth.json", JSON.stringify({ tokens: { access_token: "a1-value", nested: ["n1-value"] } }));
    const secrets = knownSecrets(t.ctx.env, ["CUSTOM"], t.ctx.files, [file, t.put("not-json", "x"), "/nowhere.json"]);
    expect(secrets.map((s) => s.value).sort()).toEqual(["a1-value", "c1-value", "k1-value", "n1-value", "t1-value"]);
    expect(secrets.find((s) => s.value === "a1-value")!.name).toBe("access_token");
  });
});
